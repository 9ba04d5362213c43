// Retention inside `lqe serve`: every retention.interval_seconds a background thread drops the
// day partitions older than each log table's retention.days, then the oldest days while the log
// tables exceed retention.max_disk_bytes, creates the partitions ahead, and measures each
// table's bytes and oldest day for /metrics. One pass at a time across every gateway of a
// database: a pass that cannot take the advisory lock leaves the work to the one that holds it.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <thread>
#include <vector>

#include "lqe/gateway/config.h"
#include "lqe/gateway/operations_metrics.h"

namespace lqe::gateway {

struct RetentionPass {
  bool locked = true;                // false: another gateway's pass held the lock; nothing done
  std::vector<std::string> dropped;  // "edge_p20260101", oldest first
  std::vector<std::string> created;
  std::vector<SourceUsage> usage;  // after the drops, one per log table
};

// One pass on `conn` (an owner of the log tables when `drop`; any reader otherwise: then only
// the usage is measured). Local day partitions only: shard nodes' days are `lqe retention
// --config`'s. Throws on a database error.
RetentionPass RunRetentionPass(pqxx::connection& conn, const RetentionConfig& config, bool drop);

// The background thread of `lqe serve`.
class RetentionScheduler {
 public:
  // `config` returns the current config (reloads apply at the next pass).
  RetentionScheduler(std::function<std::shared_ptr<const Config>()> config,
                     OperationsMetrics* metrics);
  ~RetentionScheduler();
  RetentionScheduler(const RetentionScheduler&) = delete;
  RetentionScheduler& operator=(const RetentionScheduler&) = delete;
  void Start();  // the first pass runs at once
  void Stop();   // waits for a running pass to finish

 private:
  void Loop();
  void Pass();

  std::function<std::shared_ptr<const Config>()> config_;
  OperationsMetrics* metrics_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace lqe::gateway
