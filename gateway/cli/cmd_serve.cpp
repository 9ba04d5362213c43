// lqe serve [--config FILE] [--migrate]: load and validate the config (the file, the
// environment, or both), optionally migrate the database, then serve until SIGTERM/SIGINT.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"
#include "lqe/gateway/env_config.h"
#include "lqe/gateway/server.h"

namespace lqe::cli {

void RegisterServe(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("serve", "Serve the configured endpoints over HTTP");
  auto config = std::make_shared<std::string>();
  auto migrate = std::make_shared<bool>(false);
  cmd->add_option("--config,-c", *config,
                  "YAML config file (default: $LQE_CONFIG; none: configured by the environment, "
                  "see docs/deploy.md)");
  cmd->add_flag("--migrate", *migrate, "Migrate the database before serving (also: LQE_MIGRATE=1)");
  cmd->callback([config, migrate, exit_code] {
    const gateway::EnvLookup env = gateway::ProcessEnvironment();
    if (config->empty()) *config = env("LQE_CONFIG").value_or("");
    if (*migrate || gateway::EnvFlag(env, "LQE_MIGRATE")) {
      if (std::string error = MigrateForServe(*config); !error.empty()) {
        std::cerr << "lqe serve: migrate: " << error << "\n";
        *exit_code = 1;
        return;
      }
    }
    auto metrics = std::make_shared<gateway::Metrics>();
    std::string error;
    auto state = gateway::BuildState(*config, metrics.get(), &error);
    if (!state) {
      std::cerr << "lqe serve: " << error << "\n";
      *exit_code = 1;
      return;
    }
    spdlog::set_level(spdlog::level::from_str(state->config.log_level));
    gateway::Server server(*config, state, metrics);
    if (std::string bind_error = server.Bind(); !bind_error.empty()) {
      std::cerr << "lqe serve: " << bind_error << "\n";
      *exit_code = 1;
      return;
    }
    *exit_code = server.Run(true);
  });
}

}  // namespace lqe::cli
