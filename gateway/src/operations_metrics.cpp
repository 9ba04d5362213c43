#include "lqe/gateway/operations_metrics.h"

#include <array>
#include <sstream>

#include "lqe/gateway/build_info.h"

namespace lqe::gateway {
namespace {

std::int64_t UnixNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

OperationsMetrics::OperationsMetrics() : last_reload_success_(UnixNow()) {}

void OperationsMetrics::MarkReloadSuccess() {
  last_reload_success_.store(UnixNow(), std::memory_order_relaxed);
}

void OperationsMetrics::SetSourceUsage(std::vector<SourceUsage> usage) {
  std::lock_guard lock(mutex_);
  usage_ = std::move(usage);
  usage_known_ = true;
}

void OperationsMetrics::CountRetentionRun(bool ok, std::size_t dropped) {
  retention_runs_.fetch_add(1, std::memory_order_relaxed);
  if (!ok) retention_failures_.fetch_add(1, std::memory_order_relaxed);
  partitions_dropped_.fetch_add(dropped, std::memory_order_relaxed);
}

void OperationsMetrics::SetDrains(std::vector<DrainUsage> drains) {
  std::lock_guard lock(mutex_);
  drains_ = std::move(drains);
}

namespace {

// Label values come from the management API (names are free text): escaped as Prometheus asks.
std::string Label(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

struct Series {
  const char* name;
  const char* type;
  const char* help;
  double (*value)(const DrainUsage&);
};
constexpr std::array<Series, 4> kDrainSeries = {{
    {"lqe_drain_delivered_events_total", "counter", "Events a drain's receiver accepted.",
     [](const DrainUsage& d) { return static_cast<double>(d.delivered); }},
    {"lqe_drain_delivered_batches_total", "counter", "Batches a drain's receiver accepted.",
     [](const DrainUsage& d) { return static_cast<double>(d.batches); }},
    {"lqe_drain_failed_batches_total", "counter", "Delivery attempts that failed.",
     [](const DrainUsage& d) { return static_cast<double>(d.failed_batches); }},
    {"lqe_drain_lag_seconds", "gauge",
     "Age of the oldest written batch a drain has not passed yet (0: caught up).",
     [](const DrainUsage& d) { return d.lag_seconds; }},
}};

void RenderDrains(const std::vector<DrainUsage>& drains, std::ostringstream& out) {
  if (drains.empty()) return;
  for (const Series& s : kDrainSeries) {
    out << "# HELP " << s.name << " " << s.help << "\n# TYPE " << s.name << " " << s.type << "\n";
    for (const DrainUsage& d : drains) {
      out << s.name << "{backend=\"" << d.backend << "\",name=\"" << Label(d.name) << "\",type=\""
          << Label(d.type) << "\"} " << s.value(d) << "\n";
    }
  }
  out << "# HELP lqe_drain_status A drain's state: 1 for the one it is in.\n"
      << "# TYPE lqe_drain_status gauge\n";
  for (const DrainUsage& d : drains) {
    out << "lqe_drain_status{backend=\"" << d.backend << "\",status=\"" << Label(d.status)
        << "\"} 1\n";
  }
}

}  // namespace

std::string OperationsMetrics::Render() const {
  std::ostringstream out;
  out << "# HELP lqe_build_info The running release and its git commit.\n"
      << "# TYPE lqe_build_info gauge\n"
      << "lqe_build_info{version=\"" << BuildVersion() << "\",commit=\"" << BuildCommit()
      << "\"} 1\n"
      << "# HELP lqe_config_reload_failures_total Config reloads refused (the old config kept).\n"
      << "# TYPE lqe_config_reload_failures_total counter\n"
      << "lqe_config_reload_failures_total " << reload_failures_.load() << "\n"
      << "# HELP lqe_config_last_reload_success_timestamp_seconds When the config last loaded "
         "(start or reload).\n"
      << "# TYPE lqe_config_last_reload_success_timestamp_seconds gauge\n"
      << "lqe_config_last_reload_success_timestamp_seconds " << last_reload_success_.load() << "\n"
      << "# TYPE lqe_retention_runs_total counter\n"
      << "lqe_retention_runs_total " << retention_runs_.load() << "\n"
      << "# TYPE lqe_retention_failures_total counter\n"
      << "lqe_retention_failures_total " << retention_failures_.load() << "\n"
      << "# TYPE lqe_retention_partitions_dropped_total counter\n"
      << "lqe_retention_partitions_dropped_total " << partitions_dropped_.load() << "\n";
  std::lock_guard lock(mutex_);
  RenderDrains(drains_, out);
  if (!usage_known_) return out.str();
  out << "# HELP lqe_source_bytes Bytes on disk of a log table's local partitions.\n"
      << "# TYPE lqe_source_bytes gauge\n";
  for (const auto& u : usage_) {
    out << "lqe_source_bytes{source=\"" << u.source << "\"} " << u.bytes << "\n";
  }
  out << "# HELP lqe_source_oldest_day_timestamp_seconds Start (UTC) of the oldest day kept.\n"
      << "# TYPE lqe_source_oldest_day_timestamp_seconds gauge\n";
  for (const auto& u : usage_) {
    if (u.oldest_day_unix < 0) continue;
    out << "lqe_source_oldest_day_timestamp_seconds{source=\"" << u.source << "\"} "
        << u.oldest_day_unix << "\n";
  }
  return out.str();
}

}  // namespace lqe::gateway
