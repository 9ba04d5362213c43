// lqe migrate: placeholder until the schema work lands.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"

namespace lqe::cli {

void RegisterMigrate(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("migrate", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::cerr << "lqe migrate: not built yet\n";
    *exit_code = 2;
  });
}

}  // namespace lqe::cli
