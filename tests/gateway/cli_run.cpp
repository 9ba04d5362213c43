#include "cli_run.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "support/test_database.h"

namespace lqe::gateway::testing {

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

CliResult RunLqeCommand(const std::string& args) {
  CliResult r;
  const auto err_path = std::filesystem::temp_directory_path() /
                        ("lqe_cli_err_" + std::to_string(std::random_device{}()));
  const std::string cmd =
      lqe::testing::LqeBinary() + " " + args + " 2>" + ShellQuote(err_path.string());
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n = 0;
  while (pipe != nullptr && (n = fread(buf, 1, sizeof(buf), pipe)) > 0) r.out.append(buf, n);
  const int status = pipe != nullptr ? pclose(pipe) : -1;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  r.err = text.str();
  std::filesystem::remove(err_path);
  return r;
}

}  // namespace lqe::gateway::testing
