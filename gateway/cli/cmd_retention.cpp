// lqe retention: drops daily partitions older than N days and creates the next days' ones.
#include <CLI/CLI.hpp>
#include <iostream>
#include <pqxx/pqxx>

#include "commands.h"
#include "lqe/schema/partitions.h"
#include "lqe/schema/shards.h"

namespace lqe::cli {

void RegisterRetention(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "retention", "Drop daily log partitions older than --days and create partitions ahead");
  struct Flags {
    std::string dsn;
    int days = 0;
    int ahead = 3;
    std::string config;
  };
  auto flags = std::make_shared<Flags>();
  cmd->add_option("--dsn", flags->dsn, "PostgreSQL connection string")->required();
  cmd->add_option("--days", flags->days,
                  "Keep this many whole days before today (UTC); older partitions are dropped")
      ->required()
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--ahead", flags->ahead, "Create partitions for today .. today+N (default 3)")
      ->check(CLI::Range(0, 366));
  cmd->add_option("--config", flags->config,
                  "Gateway config whose shards: are applied: days leaving the hot window move "
                  "to their node, and the nodes' expired tables are dropped too");
  cmd->callback([flags, exit_code] {
    try {
      schema::ShardPlan plan;
      if (!flags->config.empty()) plan = ShardPlanFromConfig(flags->config);
      pqxx::connection conn(flags->dsn);
      const auto dropped = schema::DropPartitionsOlderThan(conn, flags->days);
      for (const auto& name : dropped) std::cout << "dropped logs." << name << "\n";
      if (!plan.nodes.empty()) {
        for (const auto& name : schema::DropShardTablesOlderThan(plan, flags->days)) {
          std::cout << "dropped " << name << "\n";
        }
        for (const auto& moved : schema::ApplyShards(conn, plan).moved) {
          std::cout << "moved " << moved << "\n";
        }
      }
      const auto created = schema::EnsurePartitionsAroundToday(conn, 0, flags->ahead);
      for (const auto& name : created) std::cout << "created logs." << name << "\n";
      std::cout << "retention: " << dropped.size() << " partitions dropped, " << created.size()
                << " created\n";
      *exit_code = 0;
    } catch (const std::exception& e) {
      std::cerr << "lqe retention: " << e.what() << "\n";
      *exit_code = 1;
    }
  });
}

}  // namespace lqe::cli
