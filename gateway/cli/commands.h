// Subcommands of the lqe binary. Each Register* adds one subcommand to the app; its callback
// stores the process exit status in *exit_code (0 ok, 1 failure, 2 usage).
#pragma once

#include <string>

#include "lqe/schema/shards.h"

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

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
void RegisterHealth(CLI::App& app, int* exit_code);     // gateway: probe /health (healthchecks)
void RegisterVersion(CLI::App& app, int* exit_code);    // the release and the commit built

// Sends log lines (e.g. BuildState's warnings) to stderr as "<command>: <message>", keeping
// stdout for the command's output.
void UseStderrLog(const std::string& command);

// "lqe 0.1.0 (commit 1a2b3c4)": what `lqe version` and `lqe --version` print.
std::string VersionText();

// Reports a command-line parse failure on stderr, with a did-you-mean for an unknown command or
// option, and returns the exit status: 0 for --help and --version, 2 (usage) otherwise.
int ReportParseError(CLI::App& app, const CLI::ParseError& error);

// The `shards:` of a gateway config (empty plan: none). Throws with every config problem.
schema::ShardPlan ShardPlanFromConfig(const std::string& config_path);

// Migrates the database of a config (file and/or environment) before `lqe serve` serves;
// returns the problem, or empty.
std::string MigrateForServe(const std::string& config_path);

}  // namespace lqe::cli
