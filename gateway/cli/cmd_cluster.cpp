// lqe cluster status: every database node of a gateway config (primary, replicas, shards), its
// role, whether it answers, replica lag, and the log partitions and bytes it holds.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <pqxx/pqxx>

#include "commands.h"
#include "lqe/gateway/config.h"
#include "lqe/gateway/pg_hosts.h"

namespace lqe::cli {

schema::ShardPlan ShardPlanFromConfig(const std::string& config_path) {
  auto loaded = gateway::LoadConfig(config_path);
  if (auto* errors = std::get_if<gateway::ConfigErrors>(&loaded)) {
    throw std::runtime_error(errors->ToString());
  }
  const auto& config = std::get<gateway::Config>(loaded);
  schema::ShardPlan plan;
  plan.hot_days = config.shards.hot_days;
  plan.by_project = config.shards.by_project;
  plan.fetch_size = config.shards.fetch_size;
  for (const auto& node : config.shards.nodes) plan.nodes.push_back({node.name, node.dsn});
  return plan;
}

namespace {

struct NodeRow {
  std::string name;
  std::string role;
  std::string host;
  std::string state = "up";
  std::string lag = "-";
  std::string partitions = "-";
  std::string size = "-";
};

std::string Pretty(pqxx::work& tx, long long bytes) {
  return tx.exec_params("SELECT pg_size_pretty($1::bigint)", bytes)[0][0].as<std::string>();
}

// Local day partitions and bytes, and foreign partitions per server, as the coordinator sees.
void DescribeCoordinator(const std::string& dsn, NodeRow& row,
                         std::map<std::string, long long>* foreign_per_server) {
  pqxx::connection conn(dsn);
  pqxx::work tx(conn);
  auto local = tx.exec(
      "SELECT count(*), coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
      "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'logs' "
      "AND c.relkind = 'r' AND c.relispartition");
  row.partitions = local[0][0].as<std::string>();
  row.size = Pretty(tx, local[0][1].as<long long>());
  for (const auto& r : tx.exec(
           "SELECT s.srvname, count(*) FROM pg_foreign_table f "
           "JOIN pg_foreign_server s ON s.oid = f.ftserver JOIN pg_class c ON c.oid = f.ftrelid "
           "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'logs' GROUP BY 1")) {
    (*foreign_per_server)[r[0].as<std::string>()] = r[1].as<long long>();
  }
}

void DescribeReplica(const std::string& dsn, NodeRow& row) {
  pqxx::connection conn(gateway::DsnWithConnectTimeout(dsn, 2000));
  pqxx::work tx(conn);
  auto r = tx.exec1(
      "SELECT pg_is_in_recovery(), CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM "
      "pg_last_wal_replay_lsn() THEN 0 ELSE coalesce(floor(extract(epoch FROM "
      "clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000), 0) END::bigint");
  if (!r[0].as<bool>()) row.state = "up (not in recovery!)";
  row.lag = r[1].as<std::string>() + " ms";
}

void DescribeShard(const std::string& dsn, NodeRow& row) {
  pqxx::connection conn(gateway::DsnWithConnectTimeout(dsn, 2000));
  pqxx::work tx(conn);
  auto r = tx.exec(
      "SELECT count(*), coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
      "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'logs' "
      "AND c.relkind = 'r' AND c.relname ~ '_p[0-9]{8}(_h[0-9]+)?$'");
  row.partitions = r[0][0].as<std::string>();
  row.size = Pretty(tx, r[0][1].as<long long>());
}

int Status(const std::string& config_path, const std::string& admin_dsn) {
  auto loaded = gateway::LoadConfig(config_path);
  if (auto* errors = std::get_if<gateway::ConfigErrors>(&loaded)) {
    std::cerr << "lqe cluster status: " << errors->ToString() << "\n";
    return 1;
  }
  const auto& config = std::get<gateway::Config>(loaded);
  std::vector<NodeRow> rows;
  std::map<std::string, long long> foreign_per_server;
  int down = 0;
  auto attempt = [&down](NodeRow& row, const std::function<void()>& describe) {
    try {
      describe();
    } catch (const std::exception& e) {
      row.state = "DOWN";
      ++down;
    }
  };
  NodeRow primary{"primary", config.shards.nodes.empty() ? "primary" : "primary, coordinator",
                  gateway::DsnHostLabel(config.dsn)};
  std::string coordinator_dsn = admin_dsn.empty() ? config.dsn : admin_dsn;
  attempt(primary, [&] { DescribeCoordinator(coordinator_dsn, primary, &foreign_per_server); });
  rows.push_back(primary);
  for (std::size_t i = 0; i < config.replicas.size(); ++i) {
    NodeRow row{"replica " + std::to_string(i + 1), "replica",
                gateway::DsnHostLabel(config.replicas[i])};
    attempt(row, [&] { DescribeReplica(config.replicas[i], row); });
    rows.push_back(row);
  }
  for (const auto& node : config.shards.nodes) {
    NodeRow row{node.name, "shard", gateway::DsnHostLabel(node.dsn)};
    attempt(row, [&] { DescribeShard(node.dsn, row); });
    auto it = foreign_per_server.find(node.name);
    long long attached = it == foreign_per_server.end() ? 0 : it->second;
    row.partitions = row.partitions + " (" + std::to_string(attached) + " attached)";
    rows.push_back(row);
  }
  std::printf("%-14s %-22s %-22s %-24s %-10s %-18s %s\n", "NODE", "ROLE", "HOST", "STATE", "LAG",
              "PARTITIONS", "SIZE");
  for (const auto& r : rows) {
    std::printf("%-14s %-22s %-22s %-24s %-10s %-18s %s\n", r.name.c_str(), r.role.c_str(),
                r.host.c_str(), r.state.c_str(), r.lag.c_str(), r.partitions.c_str(),
                r.size.c_str());
  }
  if (!config.shards.nodes.empty()) {
    std::printf("hot window: %d days on the coordinator; older days %s %zu nodes\n",
                config.shards.hot_days,
                config.shards.by_project ? "split by project hash over" : "round robin over",
                config.shards.nodes.size());
  }
  return down == 0 ? 0 : 3;
}

}  // namespace

void RegisterCluster(CLI::App& app, int* exit_code) {
  auto* cluster = app.add_subcommand("cluster", "Database nodes behind a gateway config");
  cluster->require_subcommand(1);
  auto* status = cluster->add_subcommand(
      "status",
      "Nodes, roles, replica lag, partitions and sizes per node (exit 3: a node is down)");
  auto config = std::make_shared<std::string>();
  auto admin_dsn = std::make_shared<std::string>();
  status->add_option("--config,-c", *config, "YAML config file")->required();
  status->add_option("--dsn", *admin_dsn,
                     "Coordinator login to use instead of database.dsn (sizes need it to see "
                     "every partition)");
  status->callback([config, admin_dsn, exit_code] {
    try {
      *exit_code = Status(*config, *admin_dsn);
    } catch (const std::exception& e) {
      std::cerr << "lqe cluster status: " << e.what() << "\n";
      *exit_code = 1;
    }
  });
}

}  // namespace lqe::cli
