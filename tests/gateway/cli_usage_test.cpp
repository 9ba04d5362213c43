// The lqe binary's command line: an unknown command, option or source gets the nearest known one
// ("did you mean"), every usage error exits 2, and `lqe version` names the release and commit.
#include <gtest/gtest.h>

#include <regex>

#include "cli_run.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using testing::CliResult;
using testing::RunLqeCommand;

void ExpectUsageError(const std::string& args, const std::string& message) {
  const CliResult r = RunLqeCommand(args + " </dev/null");
  EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
  EXPECT_EQ(r.out, "") << args;
  EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
}

TEST(CliUsageTest, AnUnknownCommandSuggestsTheNearest) {
  ExpectUsageError("translte", "lqe: unknown command 'translte'; did you mean 'translate'?\n");
  ExpectUsageError("migarte --dsn x", "lqe: unknown command 'migarte'; did you mean 'migrate'?\n");
  ExpectUsageError("cluster statu", "lqe cluster: unknown command 'statu'; did you mean 'status'?");
  // Nothing near: the commands there are.
  ExpectUsageError("frobnicate",
                   "lqe: unknown command 'frobnicate' (commands: serve, reload, check, keygen, "
                   "translate, migrate, load, retention, generate, cluster, health, version)\n");
}

TEST(CliUsageTest, AnUnknownOptionSuggestsTheNearest) {
  ExpectUsageError("load --sorce edge --dsn x",
                   "lqe load: unknown option '--sorce'; did you mean '--source'?\n");
  ExpectUsageError("translate --parm a=STRING",
                   "lqe translate: unknown option '--parm'; did you mean '--param'?\n");
  ExpectUsageError("translate --catalog=x.tsv",
                   "lqe translate: unknown option '--catalog'; did you mean '--catalogue'?\n");
  ExpectUsageError("--versoin", "lqe: unknown option '--versoin'; did you mean '--version'?\n");
  ExpectUsageError("retention --dsn x --days 3 --zzz",
                   "lqe retention: unknown option '--zzz'; see lqe retention --help for the "
                   "options\n");
}

TEST(CliUsageTest, OtherUsageErrorsExitWithTwo) {
  ExpectUsageError("", "A subcommand is required");
  ExpectUsageError("load --dsn x", "--source is required");
  ExpectUsageError("translate a.sql b.sql", "not expected: b.sql");
  ExpectUsageError("load --dsn x --source edge --jobs 0", "--jobs");
}

TEST(CliUsageTest, AnUnknownGeneratorSourceSuggestsTheNearest) {
  ExpectUsageError("generate --source edg", "unknown source 'edg'; did you mean 'edge'?");
  ExpectUsageError("generate --source zzzzzzz", "unknown source 'zzzzzzz' (sources: all, edge,");
}

TEST(CliUsageTest, HelpStillExitsWithZero) {
  const CliResult r = RunLqeCommand("load --help");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("--source"), std::string::npos) << r.out;
}

// The release of CMakeLists.txt's project(), and the commit of the checkout it was built from.
TEST(CliUsageTest, VersionNamesTheReleaseAndTheCommit) {
  const CliResult version = RunLqeCommand("version");
  ASSERT_EQ(version.status, 0) << version.err;
  const CliResult flag = RunLqeCommand("--version");
  ASSERT_EQ(flag.status, 0) << flag.err;
  EXPECT_EQ(flag.out, version.out);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(version.out, m,
                               std::regex(R"(lqe (\S+) \(commit ([0-9a-f]{7,40}|unknown)\)\n)")))
      << version.out;
  std::smatch project;
  const std::string cmake = lqe::testing::ReadFileText(lqe::testing::SourcePath("CMakeLists.txt"));
  ASSERT_TRUE(std::regex_search(cmake, project, std::regex(R"(project\(lqe VERSION (\S+))")));
  EXPECT_EQ(m[1], project[1]);
  const std::string git = "git -C " + testing::ShellQuote(lqe::testing::SourcePath(".")) + " ";
  if (std::system((git + "rev-parse --git-dir >/dev/null 2>&1").c_str()) == 0) {
    // Built from this checkout: a commit of it, not "unknown".
    EXPECT_EQ(std::system((git + "cat-file -e " + m[2].str() + "^{commit}").c_str()), 0) << m[2];
  }
}

}  // namespace
}  // namespace lqe::gateway
