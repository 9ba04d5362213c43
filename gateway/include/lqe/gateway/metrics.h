// Prometheus metrics. Counters are atomics reached without locks on the request path: each
// endpoint's counters are looked up once per config load, not per request.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "lqe/gateway/pg_hosts.h"
#include "lqe/gateway/result_cache.h"

namespace lqe::gateway {

// The last two slots are not statuses: one spare, and "other" (see EndpointMetrics::Count).
inline constexpr std::array<int, 18> kTrackedStatuses = {
    200, 204, 400, 401, 403, 404, 405, 413, 414, 429, 431, 500, 501, 502, 503, 504, 0, 0};
inline constexpr std::array<double, 12> kLatencyBuckets = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0};

struct Histogram {
  std::array<std::atomic<std::uint64_t>, kLatencyBuckets.size() + 1> buckets{};
  std::atomic<std::uint64_t> count{0};
  std::atomic<std::uint64_t> sum_micros{0};
  void Observe(double seconds);
};

struct EndpointMetrics {
  std::array<std::atomic<std::uint64_t>, kTrackedStatuses.size()> by_status{};
  void Count(int status);
};

class Metrics {
 public:
  // Counters for an endpoint label, created on first use (config load time).
  std::shared_ptr<EndpointMetrics> ForEndpoint(const std::string& name);
  EndpointMetrics& Other() { return *other_; }
  Histogram& Latency() { return latency_; }
  Histogram& QueryTime() { return query_time_; }
  // SQL lqe emitted that PostgreSQL refused as malformed (lqe_translator_bugs_total).
  void CountTranslatorBug() { translator_bugs_.fetch_add(1, std::memory_order_relaxed); }
  // Connections refused at http.max_connections, and accept() failures (fd exhaustion).
  void CountRefusedConnection() { refused_connections_.fetch_add(1, std::memory_order_relaxed); }
  void CountAcceptFailure() { accept_failures_.fetch_add(1, std::memory_order_relaxed); }
  std::atomic<int>& OpenConnections() { return open_connections_; }
  std::string Render(const CacheStats& cache, int pool_in_use, int pool_size);

 private:
  std::mutex mutex_;  // guards the registry only; never taken per request
  std::map<std::string, std::shared_ptr<EndpointMetrics>> endpoints_;
  std::shared_ptr<EndpointMetrics> other_ = std::make_shared<EndpointMetrics>();
  Histogram latency_;
  Histogram query_time_;
  std::atomic<std::uint64_t> translator_bugs_{0};
  std::atomic<std::uint64_t> refused_connections_{0};
  std::atomic<std::uint64_t> accept_failures_{0};
  std::atomic<int> open_connections_{0};
};

// Per database host: pool use, rotation, replay lag, queries and errors (labels host, role).
std::string RenderHostMetrics(const std::vector<HostStats>& hosts);

}  // namespace lqe::gateway
