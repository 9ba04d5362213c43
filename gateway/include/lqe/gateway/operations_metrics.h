// The operator's metrics: build, config reloads, and per log table the bytes on disk and the
// oldest day kept (measured by the retention scheduler).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace lqe::gateway {

struct SourceUsage {
  std::string source;                 // log table: "edge", "postgres", ...
  std::int64_t bytes = 0;             // its partitions, indexes and TOAST included
  std::int64_t oldest_day_unix = -1;  // 00:00 UTC of its oldest day partition; -1: none
};

// One log drain's delivery, as lqe_admin.drain_state holds it.
struct DrainUsage {
  std::string backend;  // its UUID
  std::string name;
  std::string type;
  std::string status;  // idle, delivering, retrying, failing, unsupported
  std::int64_t delivered = 0;
  std::int64_t batches = 0;
  std::int64_t failed_batches = 0;
  double lag_seconds = 0;  // age of the oldest written batch it has not passed yet
};

class OperationsMetrics {
 public:
  OperationsMetrics();
  void CountReloadFailure() { reload_failures_.fetch_add(1, std::memory_order_relaxed); }
  void MarkReloadSuccess();  // now
  void SetSourceUsage(std::vector<SourceUsage> usage);
  void CountRetentionRun(bool ok, std::size_t dropped);
  void SetDrains(std::vector<DrainUsage> drains);
  // Prometheus text: lqe_build_info, lqe_config_reload_*, lqe_source_*, lqe_retention_*,
  // lqe_drain_*.
  std::string Render() const;

 private:
  std::atomic<std::uint64_t> reload_failures_{0};
  std::atomic<std::int64_t> last_reload_success_{0};  // unix seconds
  std::atomic<std::uint64_t> retention_runs_{0};
  std::atomic<std::uint64_t> retention_failures_{0};
  std::atomic<std::uint64_t> partitions_dropped_{0};
  mutable std::mutex mutex_;
  std::vector<SourceUsage> usage_;
  bool usage_known_ = false;
  std::vector<DrainUsage> drains_;
};

}  // namespace lqe::gateway
