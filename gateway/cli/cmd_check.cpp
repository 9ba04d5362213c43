// lqe check --config FILE: validate a config (keys, endpoint files, parameters, and every stored
// query through the translator) without serving. Every problem is printed, not only the first.
// The catalogue comes from Postgres when reachable, else from catalogue_file, else the seed
// catalogue built into lqe (with a note on stderr).
#include <CLI/CLI.hpp>
#include <iostream>
#include <vector>

#include "commands.h"
#include "lqe/gateway/handler.h"

namespace lqe::cli {

void RegisterCheck(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("check", "Validate a gateway config without serving");
  auto config = std::make_shared<std::string>();
  cmd->add_option("--config,-c", *config, "YAML config file")->required();
  cmd->callback([config, exit_code] {
    UseStderrLog("lqe check");
    std::vector<gateway::ConfigError> problems;
    auto state = gateway::BuildState(*config, nullptr, &problems,
                                     gateway::BuildOptions{.builtin_catalogue_offline = true});
    if (!state) {
      for (const auto& p : problems) std::cerr << "lqe check: " << p.ToString() << "\n";
      std::cerr << "lqe check: " << problems.size()
                << (problems.size() == 1 ? " problem" : " problems") << " found\n";
      *exit_code = 1;
      return;
    }
    for (const auto& e : state->config.endpoints) {
      std::cout << e->name << " (" << e->id << "): ok, " << e->translation->params.size()
                << " bound parameters, " << e->translation->columns.size() << " columns\n";
    }
    std::cout << "config ok: " << state->config.endpoints.size() << " endpoints, "
              << state->config.api_keys.size() << " API keys\n";
    *exit_code = 0;
  });
}

}  // namespace lqe::cli
