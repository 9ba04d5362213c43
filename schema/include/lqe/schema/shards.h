// Sharded storage: day partitions of the log tables that live on other PostgreSQL nodes as
// postgres_fdw foreign partitions of the coordinator's partitioned tables. Days older than the
// hot window move from the coordinator to the nodes (round robin by day); queries and ingest
// keep using the coordinator, which prunes, pushes down and scans foreign partitions in
// parallel (async append).
#pragma once

#include <pqxx/connection>
#include <string>
#include <vector>

#include "lqe/schema/progress.h"

namespace lqe::schema {

struct ShardNodeTarget {
  std::string name;  // the foreign server's name on the coordinator (an identifier)
  std::string dsn;   // an owner login on the node
};

struct ShardPlan {
  std::vector<ShardNodeTarget> nodes;
  int hot_days = 7;  // days before today (UTC) kept on the coordinator
  // false: each cold day goes whole to one node (round robin by day). true: each cold day is
  // split over every node by a hash of the project (the column or metadata field the source's
  // logs.all CTE filters on), so a one-project query reads one node per day.
  bool by_project = false;
  // Rows a foreign scan fetches per round trip. A listing (ORDER BY timestamp LIMIT 100 over a
  // Merge Append) takes the first batch of every partition it reads, and PostgreSQL 15 does
  // not send the LIMIT to the nodes: large batches of wide rows made it slow. Scans that read
  // every row (charts) make more round trips with small batches.
  int fetch_size = 100;
};

struct ShardReport {
  std::vector<std::string> servers;  // foreign servers created or updated
  std::vector<std::string> moved;    // "edge_p20261101 -> shard_a" (by project: all nodes)
};

// The node a day's partitions belong on: round robin over the days since 1970-01-01.
std::size_t ShardIndexForDay(int days_since_epoch, std::size_t nodes);

// The hash partition key of a log table's cold days when sharding by project: the expression
// its logs.all CTE compares with @project, so PostgreSQL prunes on it.
std::string ProjectKeyOf(const std::string& source);

// Creates postgres_fdw, one foreign server and user mapping per node (async_capable, batched
// inserts), keeps unique indexes on local partitions only, and moves every local partition
// older than the hot window to its node: the node gets the table and its indexes, the rows are
// copied through the foreign table, and the foreign table replaces the local partition in one
// coordinator transaction. By project, the day's replacement is instead a table partitioned by
// HASH (ProjectKeyOf(source)) whose remainder i is a foreign table on node i (the node's table
// is <partition>_h<i>). Safe to re-run. `progress` is told of each day before it moves.
ShardReport ApplyShards(pqxx::connection& coordinator, const ShardPlan& plan,
                        const ProgressCallback& progress = {});

// Drops the day tables older than `days` before today on every node (after retention dropped
// the coordinator's foreign partitions). Returns "node: table" for each.
std::vector<std::string> DropShardTablesOlderThan(const ShardPlan& plan, int days);

}  // namespace lqe::schema
