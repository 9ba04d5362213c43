// Sharded storage: day partitions of the log tables that live on other PostgreSQL nodes as
// postgres_fdw foreign partitions of the coordinator's partitioned tables. Days older than the
// hot window move from the coordinator to the nodes (round robin by day); queries and ingest
// keep using the coordinator, which prunes, pushes down and scans foreign partitions in
// parallel (async append).
#pragma once

#include <pqxx/connection>
#include <string>
#include <vector>

namespace lqe::schema {

struct ShardNodeTarget {
  std::string name;  // the foreign server's name on the coordinator (an identifier)
  std::string dsn;   // an owner login on the node
};

struct ShardPlan {
  std::vector<ShardNodeTarget> nodes;
  int hot_days = 7;  // days before today (UTC) kept on the coordinator
};

struct ShardReport {
  std::vector<std::string> servers;  // foreign servers created or updated
  std::vector<std::string> moved;    // "edge_p20261101 -> shard_a"
};

// The node a day's partitions belong on: round robin over the days since 1970-01-01.
std::size_t ShardIndexForDay(int days_since_epoch, std::size_t nodes);

// Creates postgres_fdw, one foreign server and user mapping per node (async_capable, batched
// inserts), keeps unique indexes on local partitions only, and moves every local partition
// older than the hot window to its node: the node gets the table and its indexes, the rows are
// copied through the foreign table, and the foreign table replaces the local partition in one
// coordinator transaction. Safe to re-run.
ShardReport ApplyShards(pqxx::connection& coordinator, const ShardPlan& plan);

// Drops the day tables older than `days` before today on every node (after retention dropped
// the coordinator's foreign partitions). Returns "node: table" for each.
std::vector<std::string> DropShardTablesOlderThan(const ShardPlan& plan, int days);

}  // namespace lqe::schema
