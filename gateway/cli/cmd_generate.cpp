// lqe generate: placeholder until the bench work lands.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"

namespace lqe::cli {

void RegisterGenerate(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("generate", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::cerr << "lqe generate: not built yet\n";
    *exit_code = 2;
  });
}

}  // namespace lqe::cli
