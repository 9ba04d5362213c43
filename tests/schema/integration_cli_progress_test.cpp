// lqe migrate, load and retention show a progress line on a terminal (a pseudo-terminal here),
// erased before their results, and write none of it into a pipe.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

// Runs lqe with stdin, stdout and stderr on a new pseudo-terminal; `err` holds all it wrote.
CommandResult RunLqeOnTerminal(const std::vector<std::string>& args) {
  std::vector<std::string> argv_text = {LqeBinary()};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(argv_text.size() + 1);
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  winsize size{};
  size.ws_row = 50;
  size.ws_col = 400;
  int terminal = -1;
  const pid_t pid = forkpty(&terminal, nullptr, nullptr, &size);
  if (pid == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  CommandResult result;
  if (pid < 0) return result;
  char buffer[4096];
  ssize_t n = 0;
  // Until the child has exited and the terminal is gone (EIO).
  while ((n = read(terminal, buffer, sizeof(buffer))) > 0) result.err.append(buffer, n);
  close(terminal);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ProgressIntegrationTest, ShownOnATerminalOnly) {
  TestDatabase db("progress");
  const CommandResult migrated = RunLqeOnTerminal({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_TRUE(Contains(migrated.err, "\rlqe migrate: applying migration: 001_")) << migrated.err;
  // Erased before the report.
  EXPECT_TRUE(Contains(migrated.err, "\r\x1b[Kapplied 001_")) << migrated.err;

  const CommandResult generated =
      RunLqe({"generate", "--source", "edge", "--count", "3000", "--live", "60"});
  ASSERT_EQ(generated.exit_code, 0) << generated.err;
  const std::string file = WriteTempFile(generated.out);
  const std::vector<std::string> load = {"load", "--dsn",        db.dsn(), "--source",
                                         "edge", "--batch-size", "500",    file};
  const CommandResult on_terminal = RunLqeOnTerminal(load);
  ASSERT_EQ(on_terminal.exit_code, 0) << on_terminal.err;
  EXPECT_TRUE(Contains(on_terminal.err, "\rlqe load: ")) << on_terminal.err;
  EXPECT_TRUE(Contains(on_terminal.err, " KiB of ")) << on_terminal.err;
  EXPECT_TRUE(Contains(on_terminal.err, "\r\x1b[Kloaded 3000 events")) << on_terminal.err;

  // Into a pipe (stdout and stderr are files here): the summary, no progress.
  const CommandResult piped = RunLqe(load);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err, "");
  EXPECT_EQ(piped.out.substr(0, piped.out.find(" in ")),
            "loaded 0 events, skipped 3000 duplicates, rejected 0 lines");
  const CommandResult from_stdin = RunLqe({"load", "--dsn", db.dsn(), "--source", "edge"}, file);
  EXPECT_EQ(from_stdin.err, "");
  EXPECT_FALSE(Contains(from_stdin.out, "\r")) << from_stdin.out;

  const CommandResult retention =
      RunLqeOnTerminal({"retention", "--dsn", db.dsn(), "--days", "30"});
  ASSERT_EQ(retention.exit_code, 0) << retention.err;
  EXPECT_TRUE(
      Contains(retention.err, "\rlqe retention: dropping partitions older than 30 days\x1b[K"))
      << retention.err;
  EXPECT_TRUE(Contains(retention.err, "\rlqe retention: creating partitions\x1b[K\r\x1b[K"))
      << retention.err;
  EXPECT_TRUE(Contains(retention.err, "retention: 0 partitions dropped")) << retention.err;
  const CommandResult retention_piped = RunLqe({"retention", "--dsn", db.dsn(), "--days", "30"});
  EXPECT_EQ(retention_piped.err, "");
  EXPECT_FALSE(Contains(retention_piped.out, "\r")) << retention_piped.out;
}

}  // namespace
}  // namespace lqe::testing
