// lqe version (and lqe --version): the release and the commit the binary was built from.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"
#include "lqe/gateway/build_info.h"

namespace lqe::cli {

std::string VersionText() {
  return "lqe " + std::string(gateway::BuildVersion()) + " (commit " +
         std::string(gateway::BuildCommit()) + ")";
}

void RegisterVersion(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("version", "Print the version and the commit it was built from");
  cmd->callback([exit_code] {
    std::cout << VersionText() << "\n";
    *exit_code = 0;
  });
}

}  // namespace lqe::cli
