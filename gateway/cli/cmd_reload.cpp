// lqe reload --pid-file F: asks the lqe serve that wrote F to reload its config (SIGHUP).
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "commands.h"
#include "pid_file.h"

namespace lqe::cli {

void RegisterReload(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "reload", "Make a running lqe serve reload its config (SIGHUP to the pid in --pid-file)");
  auto pid_file = std::make_shared<std::string>();
  cmd->add_option("--pid-file", *pid_file, "The file lqe serve --pid-file wrote")->required();
  cmd->callback([pid_file, exit_code] {
    std::string error;
    pid_t pid = ReadServePid(*pid_file, &error);
    if (pid <= 0) {
      std::cerr << "lqe reload: " << error << "\n";
      *exit_code = 1;
      return;
    }
    if (kill(pid, SIGHUP) != 0) {
      std::cerr << "lqe reload: cannot signal process " << pid << ": " << std::strerror(errno)
                << "\n";
      *exit_code = 1;
      return;
    }
    std::cout << "lqe reload: asked lqe serve (pid " << pid
              << ") to reload; its log says what changed, and a refused config counts in "
                 "lqe_config_reload_failures_total\n";
    *exit_code = 0;
  });
}

}  // namespace lqe::cli
