// The gateway's background compaction of the rollup deltas (005_edge_rollup.sql,
// 024_source_minute_counts.sql): every
// ingest.compact_interval_ms, and sooner once HTTP ingest has written ingest.compact_after_events
// events since the last run, it folds them (schema::EdgeRollupCompactor) over its own connection.
// The chart is exact either way; compaction only keeps the delta it reads small. The gateway arms
// it from the start, whichever DSN it has (ingest.dsn, else the read-only database.dsn: the fold
// runs in its own read-write transaction), so a gateway that ingests nothing still folds what
// other writers (SQL, another process) left in the delta.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace lqe::gateway {

class RollupCompactor {
 public:
  // interval_ms 0: never runs (no thread). `armed`: the DSN is a writer's from the start (else
  // the first Written() arms it).
  RollupCompactor(std::string dsn, int interval_ms, std::uint64_t after_events, bool armed);
  ~RollupCompactor();  // stops and joins; a compaction under way finishes first
  RollupCompactor(const RollupCompactor&) = delete;
  RollupCompactor& operator=(const RollupCompactor&) = delete;

  // HTTP ingest committed `events` events: arms the compactor and wakes it once enough have
  // piled up.
  void Written(std::uint64_t events);
  // Prometheus lines: compactions run, delta rows moved, failures.
  std::string RenderMetrics() const;

 private:
  void Run();

  std::string dsn_;
  std::chrono::milliseconds interval_;
  std::uint64_t after_events_;
  std::atomic<std::uint64_t> runs_{0};
  std::atomic<std::uint64_t> rows_{0};
  std::atomic<std::uint64_t> failures_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::uint64_t written_ = 0;  // under mutex_: events since the last run
  bool armed_ = false;         // under mutex_
  bool stopping_ = false;      // under mutex_
  std::thread thread_;
};

}  // namespace lqe::gateway
