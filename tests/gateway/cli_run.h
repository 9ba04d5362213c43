// Runs the built lqe binary and captures its exit status, stdout and stderr separately.
#pragma once

#include <string>

namespace lqe::gateway::testing {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

// `args` is appended to the binary's path as shell words (quote them yourself).
CliResult RunLqeCommand(const std::string& args);
// Single-quotes `text` for the shell.
std::string ShellQuote(const std::string& text);

}  // namespace lqe::gateway::testing
