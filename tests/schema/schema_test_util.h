// Helpers of the schema integration tests: run the real lqe binary, compact sample files, dates.
#pragma once

#include <string>
#include <vector>

namespace lqe::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs build/lqe with `args` (each shell-quoted), stdin from `stdin_file` when not empty.
CommandResult RunLqe(const std::vector<std::string>& args, const std::string& stdin_file = "");
// Runs argv[0] (a program on PATH or a path) with the other arguments, as RunLqe does.
CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& stdin_file = "");
// Starts one lqe process per entry of `runs` at once and waits for all of them.
std::vector<CommandResult> RunLqeTogether(const std::vector<std::vector<std::string>>& runs);
// Writes `text` to a fresh temporary file and returns its path.
std::string WriteTempFile(const std::string& text);
// The first event of a source's ingest fixture (tests/fixtures/ingest) as one compact JSON line;
// throws when the fixture is missing.
std::string CompactSample(const std::string& source);
// "20261121" for today (UTC) plus `offset_days`.
std::string UtcDayTag(int offset_days);
// ISO 8601 UTC instant `offset_days` from now, e.g. "2026-11-01T12:00:00Z".
std::string UtcIso(int offset_days);
std::string ReadFile(const std::string& path);

}  // namespace lqe::testing
