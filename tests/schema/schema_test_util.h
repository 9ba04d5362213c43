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
// Writes `text` to a fresh temporary file and returns its path.
std::string WriteTempFile(const std::string& text);
// The ingest sample of a source (tests/fixtures/ingest-samples/<source>.json) as one compact JSON
// line (the samples are pretty-printed); throws when the fixture is missing.
std::string CompactSample(const std::string& source);
// "20261121" for today (UTC) plus `offset_days`.
std::string UtcDayTag(int offset_days);
// ISO 8601 UTC instant `offset_days` from now, e.g. "2026-11-01T12:00:00Z".
std::string UtcIso(int offset_days);
std::string ReadFile(const std::string& path);

}  // namespace lqe::testing
