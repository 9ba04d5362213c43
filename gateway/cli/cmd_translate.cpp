// lqe translate: placeholder until the translator work lands.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"

namespace lqe::cli {

void RegisterTranslate(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("translate", "(not built yet)");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::cerr << "lqe translate: not built yet\n";
    *exit_code = 2;
  });
}

}  // namespace lqe::cli
