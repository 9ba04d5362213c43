// lqe serve --config FILE: load and validate the config, then serve until SIGTERM/SIGINT.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"
#include "lqe/gateway/log_format.h"
#include "lqe/gateway/server.h"
#include "pid_file.h"

namespace lqe::cli {

void RegisterServe(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("serve", "Serve the configured endpoints over HTTP");
  struct Flags {
    std::string config;
    std::string pid_file;
  };
  auto flags = std::make_shared<Flags>();
  cmd->add_option("--config,-c", flags->config, "YAML config file")->required();
  cmd->add_option("--pid-file", flags->pid_file,
                  "Write the process id here while serving (for lqe reload --pid-file)");
  cmd->callback([flags, exit_code] {
    auto metrics = std::make_shared<gateway::Metrics>();
    std::string error;
    auto state = gateway::BuildState(flags->config, metrics.get(), &error);
    if (!state) {
      std::cerr << "lqe serve: " << error << "\n";
      *exit_code = 1;
      return;
    }
    spdlog::set_level(spdlog::level::from_str(state->config.log_level));
    gateway::UseJsonLogs(state->config.log_json);
    gateway::Server server(flags->config, state, metrics);
    if (std::string bind_error = server.Bind(); !bind_error.empty()) {
      std::cerr << "lqe serve: " << bind_error << "\n";
      *exit_code = 1;
      return;
    }
    if (!flags->pid_file.empty()) {
      if (std::string pid_error = WritePidFile(flags->pid_file); !pid_error.empty()) {
        std::cerr << "lqe serve: " << pid_error << "\n";
        *exit_code = 1;
        return;
      }
    }
    *exit_code = server.Run(true);
    if (!flags->pid_file.empty()) RemovePidFile(flags->pid_file);
  });
}

}  // namespace lqe::cli
