#include "lqe/gateway/metrics.h"

#include <sstream>

namespace lqe::gateway {

void Histogram::Observe(double seconds) {
  std::size_t i = 0;
  while (i < kLatencyBuckets.size() && seconds > kLatencyBuckets[i]) ++i;
  buckets[i].fetch_add(1, std::memory_order_relaxed);
  count.fetch_add(1, std::memory_order_relaxed);
  sum_micros.fetch_add(static_cast<std::uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

void EndpointMetrics::Count(int status) {
  std::size_t slot = kTrackedStatuses.size() - 1;  // "other"
  for (std::size_t i = 0; i + 2 < kTrackedStatuses.size(); ++i) {
    if (kTrackedStatuses[i] == status) slot = i;
  }
  by_status[slot].fetch_add(1, std::memory_order_relaxed);
}

std::shared_ptr<EndpointMetrics> Metrics::ForEndpoint(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto& slot = endpoints_[name];
  if (!slot) slot = std::make_shared<EndpointMetrics>();
  return slot;
}

namespace {

void WriteCounters(std::ostringstream& out, const std::string& endpoint, const EndpointMetrics& m) {
  for (std::size_t i = 0; i < kTrackedStatuses.size(); ++i) {
    std::uint64_t n = m.by_status[i].load(std::memory_order_relaxed);
    if (n == 0) continue;
    std::string status =
        i + 1 == kTrackedStatuses.size() ? "other" : std::to_string(kTrackedStatuses[i]);
    out << "lqe_requests_total{endpoint=\"" << endpoint << "\",status=\"" << status << "\"} " << n
        << "\n";
  }
}

void WriteHistogram(std::ostringstream& out, const std::string& name, const Histogram& h) {
  out << "# TYPE " << name << " histogram\n";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kLatencyBuckets.size(); ++i) {
    cumulative += h.buckets[i].load(std::memory_order_relaxed);
    out << name << "_bucket{le=\"" << kLatencyBuckets[i] << "\"} " << cumulative << "\n";
  }
  cumulative += h.buckets[kLatencyBuckets.size()].load(std::memory_order_relaxed);
  out << name << "_bucket{le=\"+Inf\"} " << cumulative << "\n";
  out << name << "_sum " << static_cast<double>(h.sum_micros.load()) / 1e6 << "\n";
  out << name << "_count " << h.count.load() << "\n";
}

}  // namespace

std::string Metrics::Render(const CacheStats& cache, int pool_in_use, int pool_size) {
  std::ostringstream out;
  out << "# HELP lqe_requests_total HTTP requests by endpoint and status.\n"
      << "# TYPE lqe_requests_total counter\n";
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, m] : endpoints_) WriteCounters(out, name, *m);
  }
  WriteCounters(out, "", *other_);
  out << "# HELP lqe_request_duration_seconds Request latency.\n";
  WriteHistogram(out, "lqe_request_duration_seconds", latency_);
  out << "# HELP lqe_query_duration_seconds Time spent in Postgres per query.\n";
  WriteHistogram(out, "lqe_query_duration_seconds", query_time_);
  out << "# TYPE lqe_cache_hits_total counter\nlqe_cache_hits_total " << cache.hits << "\n"
      << "# TYPE lqe_cache_stale_hits_total counter\nlqe_cache_stale_hits_total " << cache.stale
      << "\n"
      << "# TYPE lqe_cache_misses_total counter\nlqe_cache_misses_total " << cache.misses << "\n"
      << "# TYPE lqe_cache_evictions_total counter\nlqe_cache_evictions_total " << cache.evictions
      << "\n"
      << "# TYPE lqe_cache_refreshes_total counter\nlqe_cache_refreshes_total " << cache.refreshes
      << "\n"
      << "# TYPE lqe_cache_refresh_failures_total counter\nlqe_cache_refresh_failures_total "
      << cache.refresh_failures << "\n"
      << "# TYPE lqe_cache_entries gauge\nlqe_cache_entries " << cache.entries << "\n"
      << "# TYPE lqe_cache_bytes gauge\nlqe_cache_bytes " << cache.bytes << "\n"
      << "# TYPE lqe_pool_connections_in_use gauge\nlqe_pool_connections_in_use " << pool_in_use
      << "\n"
      << "# TYPE lqe_pool_size gauge\nlqe_pool_size " << pool_size << "\n"
      << "# HELP lqe_translator_bugs_total Emitted SQL that PostgreSQL refused as malformed.\n"
      << "# TYPE lqe_translator_bugs_total counter\nlqe_translator_bugs_total "
      << translator_bugs_.load() << "\n"
      << "# TYPE lqe_http_connections gauge\nlqe_http_connections " << open_connections_.load()
      << "\n"
      << "# TYPE lqe_http_connections_refused_total counter\nlqe_http_connections_refused_total "
      << refused_connections_.load() << "\n"
      << "# TYPE lqe_http_accept_failures_total counter\nlqe_http_accept_failures_total "
      << accept_failures_.load() << "\n";
  return out.str();
}

std::string RenderHostMetrics(const std::vector<HostStats>& hosts) {
  std::ostringstream out;
  struct Series {
    const char* name;
    const char* type;
    const char* help;
  };
  const Series series[] = {
      {"lqe_db_connections_in_use", "gauge", "Pooled connections in use per database host."},
      {"lqe_db_pool_size", "gauge", "Connection pool size per database host."},
      {"lqe_db_in_rotation", "gauge", "1 when the host takes queries (replicas: healthy)."},
      {"lqe_db_replica_lag_ms", "gauge", "Replay lag of a replica at its last check (-1: none)."},
      {"lqe_db_queries_total", "counter", "Queries sent to the host."},
      {"lqe_db_errors_total", "counter", "Queries the host failed to answer (lost, refused)."},
  };
  for (std::size_t i = 0; i < std::size(series); ++i) {
    out << "# HELP " << series[i].name << " " << series[i].help << "\n# TYPE " << series[i].name
        << " " << series[i].type << "\n";
    for (const auto& h : hosts) {
      long long value = 0;
      switch (i) {
        case 0:
          value = h.in_use;
          break;
        case 1:
          value = h.size;
          break;
        case 2:
          value = h.in_rotation ? 1 : 0;
          break;
        case 3:
          value = h.lag_ms;
          break;
        case 4:
          value = static_cast<long long>(h.queries);
          break;
        default:
          value = static_cast<long long>(h.errors);
          break;
      }
      out << series[i].name << "{host=\"" << h.host << "\",role=\""
          << (h.primary ? "primary" : "replica") << "\"} " << value << "\n";
    }
  }
  return out.str();
}

}  // namespace lqe::gateway
