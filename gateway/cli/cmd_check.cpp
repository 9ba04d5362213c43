// lqe check: placeholder until the gateway work lands.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"

namespace lqe::cli {

void RegisterCheck(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("check", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::cerr << "lqe check: not built yet\n";
    *exit_code = 2;
  });
}

}  // namespace lqe::cli
