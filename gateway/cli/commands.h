// Subcommands of the lqe binary. Each Register* adds one subcommand to the app; its callback
// stores the process exit status in *exit_code (0 ok, 1 failure, 2 usage).
#pragma once

#include <string>

#include "lqe/schema/shards.h"

namespace CLI {
class App;
}

namespace lqe::cli {

void RegisterMigrate(CLI::App& app, int* exit_code);    // schema: apply migrations
void RegisterLoad(CLI::App& app, int* exit_code);       // schema: NDJSON events -> log tables
void RegisterRetention(CLI::App& app, int* exit_code);  // schema: drop old daily partitions
void RegisterGenerate(CLI::App& app, int* exit_code);   // schema: deterministic demo events
void RegisterTranslate(CLI::App& app, int* exit_code);  // translator: BigQuery SQL -> PG SQL
void RegisterServe(CLI::App& app, int* exit_code);      // gateway: the HTTP service
void RegisterReload(CLI::App& app, int* exit_code);     // gateway: SIGHUP a running serve
void RegisterCheck(CLI::App& app, int* exit_code);      // gateway: validate a config
void RegisterKeygen(CLI::App& app, int* exit_code);     // gateway: new API key and its SHA-256
void RegisterCluster(CLI::App& app, int* exit_code);    // gateway: nodes, roles, lag, partitions

// The `shards:` of a gateway config (empty plan: none). Throws with every config problem.
schema::ShardPlan ShardPlanFromConfig(const std::string& config_path);

}  // namespace lqe::cli
