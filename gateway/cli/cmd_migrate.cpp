// lqe migrate: applies the embedded schema migrations, seeds the field catalogue and creates
// the daily partitions around today.
#include <CLI/CLI.hpp>
#include <iostream>
#include <pqxx/pqxx>

#include "commands.h"
#include "lqe/gateway/config.h"
#include "lqe/schema/migrate.h"
#include "lqe/schema/rollups.h"
#include "lqe/schema/shards.h"
#include "work_progress.h"

namespace lqe::cli {
namespace {

std::vector<schema::RollupDef> RollupsFromConfig(const std::string& config_path) {
  auto loaded = gateway::LoadConfig(config_path);
  if (auto* errors = std::get_if<gateway::ConfigErrors>(&loaded)) {
    throw std::runtime_error(errors->ToString());
  }
  return std::get<gateway::Config>(loaded).rollups;
}

void PrintRollups(const schema::RollupReport& report) {
  for (const auto& name : report.created) std::cout << "rollup created " << name << "\n";
  for (const auto& name : report.rebuilt) std::cout << "rollup rebuilt " << name << "\n";
  for (const auto& name : report.dropped) std::cout << "rollup dropped " << name << "\n";
  std::cout << "rollups: " << report.created.size() << " created, " << report.rebuilt.size()
            << " rebuilt, " << report.unchanged.size() << " unchanged, " << report.dropped.size()
            << " dropped\n";
}

}  // namespace

void RegisterMigrate(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "migrate", "Create or upgrade the logs schema, tables, catalogue and gateway role");
  struct Flags {
    std::string dsn;
    std::string gateway_role;
    std::string gateway_password;
    std::string config;
    std::string ingest_role;
    std::string ingest_password;
  };
  auto flags = std::make_shared<Flags>();
  cmd->add_option("--dsn", flags->dsn, "PostgreSQL connection string (superuser or owner)")
      ->required();
  cmd->add_option("--gateway-role", flags->gateway_role,
                  "The database's read-only login role (default: the one configured before, "
                  "else lqe_gateway_<database>)");
  cmd->add_option("--gateway-password", flags->gateway_password,
                  "Set the password of the gateway role");
  cmd->add_option("--config", flags->config,
                  "Gateway config whose shards: and rollups: are applied (foreign servers, "
                  "partitions moved; rollups created, rebuilt, backfilled, or dropped when no "
                  "longer declared)");
  cmd->add_option(
      "--ingest-role", flags->ingest_role,
      "The login role HTTP ingest writes as (ingest.dsn; default lqe_ingest_<database>)");
  cmd->add_option("--ingest-password", flags->ingest_password,
                  "Set the password of the ingest role");
  cmd->callback([flags, cmd, exit_code] {
    try {
      schema::ShardPlan plan;
      std::vector<schema::RollupDef> rollups;
      if (!flags->config.empty()) {
        plan = ShardPlanFromConfig(flags->config);
        rollups = RollupsFromConfig(flags->config);
      }
      pqxx::connection conn(flags->dsn);
      ProgressReporter progress = ProgressReporter::OnStderr("lqe migrate");
      schema::MigrateOptions options;
      options.progress = DrawOn(progress);
      if (cmd->count("--gateway-role") > 0) options.gateway_role = flags->gateway_role;
      if (cmd->count("--gateway-password") > 0) options.gateway_password = flags->gateway_password;
      if (cmd->count("--ingest-role") > 0) options.ingest_role = flags->ingest_role;
      if (cmd->count("--ingest-password") > 0) options.ingest_password = flags->ingest_password;
      const auto report = schema::Migrate(conn, options);
      progress.Clear();
      if (report.restamped_pre_baseline) {
        std::cout << "re-stamped the migrations made before the schema baseline as the baseline "
                     "(the schema is the same)\n";
      }
      for (const auto& name : report.applied) std::cout << "applied " << name << "\n";
      for (const auto& column : report.promoted_columns_added) {
        std::cout << "promoted column " << column << "\n";
      }
      for (const auto& partition : report.partitions_backfilled) {
        std::cout << "backfilled promoted columns of " << partition << "\n";
      }
      std::cout << "migrations: " << report.applied.size() << " applied, " << report.already_applied
                << " already applied; catalogue rows added: " << report.catalogue_rows_added
                << "; partitions created: " << report.partitions_created.size()
                << "; gateway role: " << report.gateway_role
                << "; ingest role: " << report.ingest_role << "\n";
      if (!flags->config.empty()) {
        const auto applied =
            schema::ApplyRollups(conn, rollups, report.gateway_role, DrawOn(progress));
        progress.Clear();
        PrintRollups(applied);
      }
      if (!plan.nodes.empty()) {
        const auto shards = schema::ApplyShards(conn, plan, DrawOn(progress));
        progress.Clear();
        for (const auto& moved : shards.moved) std::cout << "moved " << moved << "\n";
        std::cout << "shards: " << shards.servers.size() << " nodes, " << shards.moved.size()
                  << " partitions moved\n";
      }
      *exit_code = 0;
    } catch (const std::exception& e) {
      std::cerr << "lqe migrate: " << e.what() << "\n";
      *exit_code = 1;
    }
  });
}

}  // namespace lqe::cli
