// `lqe check` reports every broken file and endpoint with file:line, not only the first, and
// exits 1; a misspelt key gets a suggestion.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_run.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using testing::RunLqeCommand;
using testing::ShellQuote;
using testing::TempDir;

TEST(CheckCliTest, ReportsEveryProblemWithFileAndLine) {
  TempDir dir;
  const std::string broken_yaml = dir.Write("eps/x.yaml", "name: x\nquery: [unclosed\n");
  const std::string bad_type =
      dir.Write("eps/y.yaml", "name: y\nquery: select 1\nparams:\n  p: {type: date}\n");
  const std::string config = dir.Write(
      "gw.yaml", "database:\n  dsn: host=127.0.0.1 port=1\n  pool_szie: 3\ncatalogue_file: " +
                     lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
                     "\nendpoints_dir: eps\nendpoints:\n"
                     "  - name: a.good\n    query: select 1 as one\n"
                     "  - name: b.typo\n    query: select 1 as one\n    max_row: 5\n"
                     "  - name: c.bad\n    query: |\n      select 1 as one\n      from ) oops\n");
  const testing::CliResult r = RunLqeCommand("check --config " + ShellQuote(config));
  EXPECT_EQ(r.status, 1);
  const std::vector<std::string> expected = {
      "lqe check: " + config +
          ":3: unknown key 'pool_szie' in database; did you mean 'pool_size'? (allowed: dsn, "
          "pool_size, statement_timeout_ms, warming_timeout_ms, connect_timeout_ms, "
          "max_queries_per_key, replicas, "
          "max_replica_lag_ms, replica_check_interval_ms)\n",
      "lqe check: " + broken_yaml + ":3: ",
      "lqe check: " + bad_type + ":4: unknown parameter type 'date'",
      "lqe check: " + config + ":11: unknown key 'max_row' in endpoint; did you mean 'max_rows'?",
      "lqe check: " + config + ":15: endpoint c.bad: ",
      "lqe check: 5 problems found\n",
  };
  std::size_t at = 0;
  for (const std::string& line : expected) {
    const std::size_t found = r.err.find(line, at);
    EXPECT_NE(found, std::string::npos) << "missing, in this order: " << line << "\n" << r.err;
    if (found != std::string::npos) at = found + line.size();
  }
}

// A stored query is type-checked with its declared parameter types: comparing a STRING column
// with an INTEGER parameter fails the check (and so the load), not every request.
TEST(CheckCliTest, AStoredQueryComparingStringWithIntegerParameterFails) {
  TempDir dir;
  const std::string config = dir.Write(
      "gw.yaml", "database:\n  dsn: host=127.0.0.1 port=1\ncatalogue_file: " +
                     lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
                     "\nendpoints:\n"
                     "  - name: d.typed\n    params:\n      n: {type: integer}\n    query: |\n"
                     "      select t.id from logs.edge t\n      where t.id = @n\n");
  const testing::CliResult r = RunLqeCommand("check --config " + ShellQuote(config));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("lqe check: " + config +
                       ":10: endpoint d.typed: No matching signature for operator = for argument "
                       "types: STRING, INT64 at 2:12"),
            std::string::npos)
      << r.err;
}

TEST(CheckCliTest, AGoodConfigListsItsEndpoints) {
  TempDir dir;
  const std::string config =
      dir.Write("gw.yaml", "database:\n  dsn: host=127.0.0.1 port=1\ncatalogue_file: " +
                               lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
                               "\nendpoints_dir: " + lqe::testing::SourcePath("sql") + "\n");
  const testing::CliResult r = RunLqeCommand("check --config " + ShellQuote(config));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("logs.all (6f1f5a2e-2b5d-4a47-9c36-0f2a8d7b1c01): ok, 3 bound parameters"),
            std::string::npos)
      << r.out;
  // The ClickHouse-language endpoint is checked in its own language.
  EXPECT_NE(r.out.find("logs.all.otel (6f1f5a2e-2b5d-4a47-9c36-0f2a8d7b1c02): ok, "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("config ok: 7 endpoints, 0 API keys\n"), std::string::npos) << r.out;
}

// Postgres unreachable and no catalogue_file: the check runs on the catalogue built into lqe and
// says so on stderr.
TEST(CheckCliTest, WorksOfflineWithTheBuiltInCatalogue) {
  TempDir dir;
  const std::string config =
      dir.Write("gw.yaml", "database:\n  dsn: host=127.0.0.1 port=1\nendpoints_dir: " +
                               lqe::testing::SourcePath("sql") + "\n");
  const testing::CliResult r = RunLqeCommand("check --config " + ShellQuote(config));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("config ok: 7 endpoints, 0 API keys\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.rfind("lqe check: field catalogue not read from Postgres (", 0), 0) << r.err;
  EXPECT_NE(r.err.find("); using the built-in field catalogue\n"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace lqe::gateway
