// `lqe translate --config F --endpoint X` prints exactly the SQL the server runs for the same
// endpoint and consumer query: both stored endpoints (from endpoints_dir) and inline ones, with
// and without sql/lql, and the server's refusal of sql on an endpoint without sandboxing.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_run.h"
#include "lqe/base/ascii.h"
#include "lqe/format_postgres.h"
#include "lqe/gateway/handler.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using testing::RunLqeCommand;
using testing::ShellQuote;
using testing::TempDir;

std::string Encode(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (ascii::IsAlnum(static_cast<char>(c)) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

class TranslateCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = dir_.Write(
        "gw.yaml",
        "database:\n  dsn: host=127.0.0.1 port=1\ncatalogue_file: " +
            lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
            "\napi_keys:\n  - name: t\n    sha256: " + testing::Sha256Hex(testing::kTestKey) +
            "\n    endpoints: ['*']\nendpoints_dir: " + lqe::testing::SourcePath("sql") +
            "\nendpoints:\n"
            "  - name: inline.plain\n"
            "    query: select id, event_message from `logs.edge` where project = @project\n"
            "    params:\n      project: {type: string, required: true}\n"
            "  - name: inline.sandboxed\n    sandbox: true\n    query: |\n"
            "      with recent as (select id, timestamp, event_message from `logs.edge`\n"
            "                      where project = @project)\n"
            "      select id from recent\n"
            "    params:\n      project: {type: string, required: true}\n");
  }

  // The SQL the server hands to Postgres for GET `target`, laid out as the CLI prints it.
  std::string ServerSql(const std::string& target, int expected_status = 200) {
    std::string error;
    auto state = BuildState(config_, nullptr, &error);
    EXPECT_NE(state, nullptr) << error;
    if (!state) return "";
    testing::FakeClock clock;
    auto cache = MakeInProcessCache(clock, 1 << 20);
    Context context;
    context.state = state;
    context.cache = cache.get();
    context.ready = [] { return true; };
    std::string ran;
    context.run_query = [&ran](const std::string& sql,
                               const std::vector<std::optional<std::string>>&, int, int,
                               QueryCancel*) {
      ran = sql;
      return QueryResult{};
    };
    last_response_ = Handle(testing::Get(target), context);
    EXPECT_EQ(last_response_.status, expected_status) << last_response_.body;
    // lqe translate prints the same SQL laid out by FormatPostgres, which changes only whitespace.
    return FormatPostgres(ran);
  }

  // The SQL `lqe translate` prints, before its parameter list.
  std::string CliSql(const std::string& args) {
    testing::CliResult r = RunLqeCommand("translate --config " + ShellQuote(config_) + " " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    const auto end = r.out.find("\n-- params\n");
    EXPECT_NE(end, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n-- columns\n"), std::string::npos) << r.out;
    return r.out.substr(0, end);
  }

  TempDir dir_;
  std::string config_;
  Response last_response_;
};

TEST_F(TranslateCliTest, StoredLogListingAsTheServerRunsIt) {
  const std::string sql = "select id, timestamp from edge_logs where event_message like '%a  b%'";
  const std::string lql = "f:edge_logs error -timeout";
  const std::string base = "/api/endpoints/query/logs.all?project=p";
  EXPECT_EQ(CliSql("--endpoint logs.all"), ServerSql(base));
  EXPECT_EQ(CliSql("--endpoint logs.all --sql " + ShellQuote(sql)),
            ServerSql(base + "&sql=" + Encode(sql)));
  EXPECT_EQ(CliSql("--endpoint logs.all --lql " + ShellQuote(lql)),
            ServerSql(base + "&lql=" + Encode(lql)));
  // A non-empty sql wins over lql, for both.
  EXPECT_EQ(CliSql("--endpoint logs.all --sql " + ShellQuote(sql) + " --lql " + ShellQuote(lql)),
            ServerSql(base + "&sql=" + Encode(sql) + "&lql=" + Encode(lql)));
}

TEST_F(TranslateCliTest, StoredUsageCountsAsTheServerRunsIt) {
  const std::string sql = "select count(*) as n from requests";
  const std::string base = "/api/endpoints/query/usage.api-counts?project=p&interval=hourly";
  EXPECT_EQ(CliSql("--endpoint usage.api-counts"), ServerSql(base));
  // By id too, as the server's route accepts it.
  EXPECT_EQ(CliSql("--endpoint 0B8E3C55-7F0A-4F51-A0C2-5D6E9B4C2A02"), ServerSql(base));
  EXPECT_EQ(CliSql("--endpoint usage.api-counts --sql " + ShellQuote(sql)),
            ServerSql(base + "&sql=" + Encode(sql)));
}

// A `language: clickhouse` endpoint: its stored query and callers' sql are ClickHouse SQL, in
// the CLI as in the server.
TEST_F(TranslateCliTest, ClickHouseEndpointFollowsItsLanguage) {
  const std::string sql =
      "SELECT toStartOfMinute(timestamp) AS t, countIf(log_attributes['level'] = 'error') AS e "
      "FROM logs WHERE source = 'edge_logs' GROUP BY t ORDER BY t";
  const std::string base = "/api/endpoints/query/logs.all.otel?project=p";
  EXPECT_EQ(CliSql("--endpoint logs.all.otel"), ServerSql(base));
  EXPECT_EQ(CliSql("--endpoint logs.all.otel --sql " + ShellQuote(sql)),
            ServerSql(base + "&sql=" + Encode(sql)));
  const testing::CliResult file = RunLqeCommand(
      "translate --endpoint-file " +
      ShellQuote(lqe::testing::SourcePath("sql/logs.all.otel.yaml")) + " --sql " + ShellQuote(sql));
  ASSERT_EQ(file.status, 0) << file.err;
  EXPECT_NE(file.out.find("\n-- columns\nt TIMESTAMP\ne INT64\n"), std::string::npos) << file.out;
  // BigQuery SQL is refused there, with its position, as the server refuses it.
  const std::string bigquery = "SELECT TIMESTAMP_TRUNC(timestamp, MINUTE) AS t FROM logs";
  const testing::CliResult refused =
      RunLqeCommand("translate --config " + ShellQuote(config_) +
                    " --endpoint logs.all.otel --sql " + ShellQuote(bigquery));
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("unsupported ClickHouse function TIMESTAMP_TRUNC"), std::string::npos)
      << refused.err;
  ServerSql(base + "&sql=" + Encode(bigquery), 400);
  EXPECT_NE(last_response_.body.find("unsupported ClickHouse function TIMESTAMP_TRUNC"),
            std::string::npos)
      << last_response_.body;
  // An endpoint names its own dialect.
  const testing::CliResult dialect =
      RunLqeCommand("translate --config " + ShellQuote(config_) +
                    " --endpoint logs.all.otel --dialect clickhouse");
  EXPECT_EQ(dialect.status, 2);
  EXPECT_NE(dialect.err.find("an endpoint declares its own dialect"), std::string::npos);
}

TEST_F(TranslateCliTest, InlineEndpointsWork) {
  const std::string base = "/api/endpoints/query/inline.sandboxed?project=p";
  EXPECT_EQ(CliSql("--endpoint inline.plain"),
            ServerSql("/api/endpoints/query/inline.plain?project=p"));
  EXPECT_EQ(CliSql("--endpoint inline.sandboxed"), ServerSql(base));
  EXPECT_EQ(
      CliSql("--endpoint inline.sandboxed --sql " + ShellQuote("select count(*) as n from recent")),
      ServerSql(base + "&sql=" + Encode("select count(*) as n from recent")));
}

TEST_F(TranslateCliTest, SandboxOffRefusesSqlAndLqlLikeTheServer) {
  for (const char* which : {"sql", "lql"}) {
    const testing::CliResult r = RunLqeCommand("translate --config " + ShellQuote(config_) +
                                               " --endpoint inline.plain --" + which + " x");
    const std::string message = std::string("endpoint inline.plain does not accept a ") + which +
                                " parameter (sandboxing is off)";
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("lqe translate: " + message + "\n"), std::string::npos) << r.err;
    ServerSql(std::string("/api/endpoints/query/inline.plain?project=p&") + which + "=x", 400);
    EXPECT_NE(last_response_.body.find(message), std::string::npos) << last_response_.body;
  }
}

TEST_F(TranslateCliTest, EndpointFileGivesTheSameAsTheConfig) {
  const testing::CliResult r = RunLqeCommand(
      "translate --endpoint-file " + ShellQuote(lqe::testing::SourcePath("sql/logs.all.yaml")) +
      " --catalogue " + ShellQuote(lqe::testing::SourcePath("schema/catalogue_seed.tsv")) +
      " --sql " + ShellQuote("select id from edge_logs"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find("\n-- params\n")),
            CliSql("--endpoint logs.all --sql " + ShellQuote("select id from edge_logs")));
}

TEST_F(TranslateCliTest, UnknownEndpointAndMisusedOptionsAreRefused) {
  struct Case {
    std::string args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"--config " + ShellQuote(config_) + " --endpoint nope",
       "lqe translate: no endpoint named nope in " + config_ +
           " (endpoints: functions.combined-stats, functions.req-stats, functions.resource-usage, "
           "inline.plain, inline.sandboxed, logs.all, logs.all.otel, usage.api-counts, "
           "usage.api-requests-count)\n"},
      {"--config " + ShellQuote(config_), "lqe translate: --config needs --endpoint NAME\n"},
      {"--endpoint logs.all", "lqe translate: --endpoint needs --config\n"},
      {"--sql x",
       "lqe translate: --sql and --lql need an endpoint (--config and --endpoint, or "
       "--endpoint-file)\n"},
      {"--config " + ShellQuote(config_) + " --endpoint logs.all --param a=STRING",
       "lqe translate: an endpoint declares its own query and parameters (no FILE or --param)\n"},
      {"--config " + ShellQuote(config_) + " --endpoint logs.all --catalogue x.tsv",
       "lqe translate: --catalogue does not apply to --config (the server's catalogue is used)\n"},
  };
  for (const Case& c : cases) {
    const testing::CliResult r = RunLqeCommand("translate " + c.args);
    EXPECT_EQ(r.status, 2) << c.args;  // usage errors
    EXPECT_EQ(r.out, "") << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
}

TEST_F(TranslateCliTest, AMisspeltEndpointGetsTheNearestName) {
  const testing::CliResult r =
      RunLqeCommand("translate --config " + ShellQuote(config_) + " --endpoint logs.al");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("lqe translate: no endpoint named logs.al in " + config_ +
                       "; did you mean 'logs.all'?\n"),
            std::string::npos)
      << r.err;
  // Nothing near: the names there are.
  const testing::CliResult far =
      RunLqeCommand("translate --config " + ShellQuote(config_) + " --endpoint zzzzzzzz");
  EXPECT_NE(far.err.find("(endpoints: functions.combined-stats, functions.req-stats, "
                         "functions.resource-usage, inline.plain, inline.sandboxed, logs.all, "
                         "logs.all.otel, usage.api-counts, usage.api-requests-count)\n"),
            std::string::npos)
      << far.err;
}

// Each --param takes one value: a FILE after it is the query, not a second parameter.
TEST_F(TranslateCliTest, ParamKeepsTheFileAfterIt) {
  const std::string file = dir_.Write("q.sql", "select @n + 1 as m, @s as t");
  const testing::CliResult r =
      RunLqeCommand("translate --param n=INT64 --param s=STRING " + ShellQuote(file));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("-- params\n$1 n INT64\n$2 s STRING\n-- columns\nm INT64\nt STRING\n"),
            std::string::npos)
      << r.out;
}

TEST_F(TranslateCliTest, ABadParamTypeListsTheTypes) {
  const std::string file = dir_.Write("q.sql", "select @n as m");
  const testing::CliResult r = RunLqeCommand("translate --param n=INTEGR " + ShellQuote(file));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("lqe translate: --param n=INTEGR: unknown type 'INTEGR' (types: BOOL, "
                       "INT64, FLOAT64, NUMERIC, STRING, BYTES, DATE, DATETIME, TIME, TIMESTAMP, "
                       "INTERVAL, JSON)\n"),
            std::string::npos)
      << r.err;
  const testing::CliResult near = RunLqeCommand("translate --param n=STRIGN " + ShellQuote(file));
  EXPECT_NE(near.err.find("unknown type 'STRIGN'; did you mean 'STRING'? (types: BOOL,"),
            std::string::npos)
      << near.err;
  const testing::CliResult shape = RunLqeCommand("translate --param n " + ShellQuote(file));
  EXPECT_EQ(shape.status, 2);
  EXPECT_NE(shape.err.find("--param n: expected name=TYPE"), std::string::npos) << shape.err;
}

// Postgres unreachable and no catalogue_file: the catalogue built into lqe, with a note on
// stderr, and the same SQL as with the seed file.
TEST_F(TranslateCliTest, WorksOfflineWithTheBuiltInCatalogue) {
  const std::string offline =
      dir_.Write("offline.yaml", "database:\n  dsn: host=127.0.0.1 port=1\nendpoints_dir: " +
                                     lqe::testing::SourcePath("sql") + "\n");
  const testing::CliResult r =
      RunLqeCommand("translate --config " + ShellQuote(offline) + " --endpoint logs.all --sql " +
                    ShellQuote("select id from edge_logs"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find("\n-- params\n")),
            CliSql("--endpoint logs.all --sql " + ShellQuote("select id from edge_logs")));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("lqe translate: field catalogue not read from Postgres (", 0), 0) << r.err;
  EXPECT_NE(r.err.find("); using the built-in field catalogue\n"), std::string::npos) << r.err;
}

// Plain SQL without --catalogue reads the built-in catalogue (no file looked for).
TEST_F(TranslateCliTest, PlainSqlUsesTheBuiltInCatalogue) {
  const std::string file = dir_.Write("q.sql", "select id, event_message from `logs.edge`");
  const testing::CliResult r =
      RunLqeCommand("translate " + ShellQuote(file) + " --catalogue " +
                    ShellQuote(lqe::testing::SourcePath("schema/catalogue_seed.tsv")));
  ASSERT_EQ(r.status, 0) << r.err;
  const testing::CliResult builtin = RunLqeCommand("translate " + ShellQuote(file));
  ASSERT_EQ(builtin.status, 0) << builtin.err;
  EXPECT_EQ(builtin.out, r.out);
  EXPECT_EQ(builtin.err, "");
}

TEST_F(TranslateCliTest, EndpointFileWithAnUnknownKeyIsRefusedWithASuggestion) {
  const std::string path = dir_.Write("eps/bad.yaml", "name: bad\nquery: select 1\nmax_row: 5\n");
  const testing::CliResult r = RunLqeCommand("translate --endpoint-file " + ShellQuote(path));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("lqe translate: " + path +
                       ":3: unknown key 'max_row' in endpoint; did you mean 'max_rows'?"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace lqe::gateway
