#include "lqe/gateway/rollup_compactor.h"

#include <spdlog/spdlog.h>

#include <sstream>

#include "lqe/schema/rollup_compaction.h"

namespace lqe::gateway {

RollupCompactor::RollupCompactor(std::string dsn, int interval_ms, std::uint64_t after_events,
                                 bool armed)
    : dsn_(std::move(dsn)), interval_(interval_ms), after_events_(after_events), armed_(armed) {
  if (interval_ms > 0) thread_ = std::thread([this] { Run(); });
}

RollupCompactor::~RollupCompactor() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void RollupCompactor::Written(std::uint64_t events) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    written_ += events;
    armed_ = true;
    wake = written_ >= after_events_;
  }
  if (wake) wake_.notify_all();
}

void RollupCompactor::Run() {
  schema::EdgeRollupCompactor compactor(dsn_);
  std::string last_error;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, interval_, [&] { return stopping_ || written_ >= after_events_; });
    if (stopping_) return;
    if (!armed_) continue;
    written_ = 0;
    lock.unlock();
    try {
      rows_.fetch_add(static_cast<std::uint64_t>(compactor.Compact()));
      runs_.fetch_add(1);
      if (!last_error.empty()) spdlog::info("rollup compaction works again");
      last_error.clear();
    } catch (const std::exception& e) {
      failures_.fetch_add(1);
      // Once per distinct failure: a database without logs.compact_edge_rollups fails every
      // interval.
      if (e.what() != last_error) {
        last_error = e.what();
        spdlog::warn("rollup compaction failed (charts stay exact; retrying every {} ms): {}",
                     interval_.count(), last_error);
      }
    }
    lock.lock();
  }
}

std::string RollupCompactor::RenderMetrics() const {
  std::ostringstream out;
  auto counter = [&](const char* name, const char* help, std::uint64_t value) {
    out << "# HELP " << name << " " << help << "\n# TYPE " << name << " counter\n"
        << name << " " << value << "\n";
  };
  counter("lqe_rollup_compactions_total",
          "Background runs of logs.compact_edge_rollups() that succeeded.", runs_.load());
  counter("lqe_rollup_delta_rows_compacted_total",
          "Rows of logs.edge_api_minute_delta folded into logs.edge_api_minute.", rows_.load());
  counter("lqe_rollup_compaction_failures_total", "Background compactions that failed.",
          failures_.load());
  return out.str();
}

}  // namespace lqe::gateway
