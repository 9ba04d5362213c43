// lqe retention: drops daily partitions older than N days and creates the next days' ones.
#include <CLI/CLI.hpp>
#include <iostream>
#include <pqxx/pqxx>

#include "commands.h"
#include "lqe/schema/partitions.h"
#include "lqe/schema/shards.h"
#include "work_progress.h"

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
      // Each step is one statement (or one per day moved): its name is shown while it runs.
      ProgressReporter progress = ProgressReporter::OnStderr("lqe retention");
      progress.Show(
          {.step = "dropping partitions older than " + std::to_string(flags->days) + " days"});
      const auto dropped = schema::DropPartitionsOlderThan(conn, flags->days);
      progress.Clear();
      for (const auto& name : dropped) std::cout << "dropped logs." << name << "\n";
      if (!plan.nodes.empty()) {
        progress.Show({.step = "dropping expired tables on the shards"});
        const auto shard_tables = schema::DropShardTablesOlderThan(plan, flags->days);
        progress.Clear();
        for (const auto& name : shard_tables) std::cout << "dropped " << name << "\n";
        const auto shards = schema::ApplyShards(conn, plan, DrawOn(progress));
        progress.Clear();
        for (const auto& moved : shards.moved) std::cout << "moved " << moved << "\n";
      }
      progress.Show({.step = "creating partitions"});
      const auto created = schema::EnsurePartitionsAroundToday(conn, 0, flags->ahead);
      progress.Clear();
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
