// lqe load: placeholder until the schema work lands.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"

namespace lqe::cli {

void RegisterLoad(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("load", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::cerr << "lqe load: not built yet\n";
    *exit_code = 2;
  });
}

}  // namespace lqe::cli
