// Folding the deltas of the edge rollup (005_edge_rollup.sql) and of the minute counts
// (024_source_minute_counts.sql) into their tables: lqe load runs it when it finishes and the
// gateway in the background. Answers never change; only the size of
// the delta the chart reads does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace lqe::schema {

class PgConn;

class EdgeRollupCompactor {
 public:
  explicit EdgeRollupCompactor(std::string dsn);
  ~EdgeRollupCompactor();
  EdgeRollupCompactor(const EdgeRollupCompactor&) = delete;
  EdgeRollupCompactor& operator=(const EdgeRollupCompactor&) = delete;

  // Runs logs.compact_edge_rollups() and logs.compact_source_minute_counts() and returns the
  // number of delta rows they moved. Connects on
  // first use and again after a failure. Throws PgError (pg_conn.h) with the server's message.
  std::int64_t Compact();

 private:
  std::string dsn_;
  std::unique_ptr<PgConn> conn_;
};

}  // namespace lqe::schema
