// lqe serve --config FILE: load and validate the config, then serve until SIGTERM/SIGINT.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"
#include "lqe/gateway/server.h"

namespace lqe::cli {

void RegisterServe(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("serve", "Serve the configured endpoints over HTTP");
  auto config = std::make_shared<std::string>();
  cmd->add_option("--config,-c", *config, "YAML config file")->required();
  cmd->callback([config, exit_code] {
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
