// lqe serve [--config FILE] [--migrate]: load and validate the config (the file, the
// environment, or both), optionally migrate the database, then serve until SIGTERM/SIGINT.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"
#include "lqe/gateway/env_config.h"
#include "lqe/gateway/log_format.h"
#include "lqe/gateway/server.h"
#include "pid_file.h"

namespace lqe::cli {

void RegisterServe(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("serve", "Serve the configured endpoints over HTTP");
  struct Flags {
    std::string config;
    std::string pid_file;
    bool migrate = false;
  };
  auto flags = std::make_shared<Flags>();
  cmd->add_option("--config,-c", flags->config,
                  "YAML config file (default: $LQE_CONFIG; none: configured by the environment, "
                  "see docs/deploy.md)");
  cmd->add_flag("--migrate", flags->migrate,
                "Migrate the database before serving (also: LQE_MIGRATE=1)");
  cmd->add_option("--pid-file", flags->pid_file,
                  "Write the process id here while serving (for lqe reload --pid-file)");
  cmd->callback([flags, exit_code] {
    const gateway::EnvLookup env = gateway::ProcessEnvironment();
    if (flags->config.empty()) flags->config = env("LQE_CONFIG").value_or("");
    if (flags->migrate || gateway::EnvFlag(env, "LQE_MIGRATE")) {
      if (std::string error = MigrateForServe(flags->config); !error.empty()) {
        std::cerr << "lqe serve: migrate: " << error << "\n";
        *exit_code = 1;
        return;
      }
    }
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
