// Log drains inside `lqe serve`: a background thread that delivers every stored event matching a
// backend's rules to that backend, at least once and in order per source, from the durable
// cursors in lqe_admin.drain_state (021_drain_delivery.sql). One gateway of a database delivers
// at a time (an advisory lock held by its session); every gateway reads the drains' state for
// /metrics.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <thread>
#include <vector>

#include "lqe/gateway/config.h"
#include "lqe/gateway/operations_metrics.h"

namespace lqe::gateway {

struct DrainLimits {
  std::size_t max_events = 500;         // per batch
  std::size_t max_bytes = 4u << 20;     // of events' JSON per batch, before compression
  std::chrono::milliseconds poll{250};  // how often the outbox is read when it was empty
  long timeout_ms = 15000;              // one delivery, connect included
};

class DrainWorker {
 public:
  DrainWorker(std::function<std::shared_ptr<const Config>()> config, OperationsMetrics* metrics,
              DrainLimits limits = {});
  ~DrainWorker();
  DrainWorker(const DrainWorker&) = delete;
  DrainWorker& operator=(const DrainWorker&) = delete;
  void Start();
  void Stop();  // waits for a delivery in flight (at most its timeout)

 private:
  struct Backoff {
    std::chrono::steady_clock::time_point next;
    int failures = 0;
  };
  void Loop();
  // One round: every due backend delivers at most one batch. True when any had more to send.
  bool Round(const Config& config);
  void Publish(pqxx::connection& conn);
  void Prune(pqxx::connection& conn);

  std::function<std::shared_ptr<const Config>()> config_;
  OperationsMetrics* metrics_;
  DrainLimits limits_;
  std::unique_ptr<pqxx::connection> conn_;
  bool leader_ = false;
  std::map<std::int64_t, Backoff> backoff_;  // by backend id
  std::chrono::steady_clock::time_point last_prune_{};
  std::chrono::steady_clock::time_point last_publish_{};
  std::chrono::steady_clock::time_point quiet_until_{};  // after a database error
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace lqe::gateway
