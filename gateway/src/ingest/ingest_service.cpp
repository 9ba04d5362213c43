#include <spdlog/spdlog.h>

#include <algorithm>
#include <sstream>

#include "lqe/gateway/ingest.h"
#include "lqe/schema/ingest_writer.h"

namespace lqe::gateway {
namespace {

// A label value in the Prometheus text format: backslash, quote and newline escaped.
std::string PrometheusLabel(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

struct IngestService::Writer {
  // One writer (connection and learnt catalogue) per table, made on first use and dropped after
  // a failure so the next batch starts from what the database holds.
  std::map<std::string, std::unique_ptr<schema::IngestWriter>> tables;
  std::thread thread;
};

IngestService::IngestService(const IngestConfig& config, std::string dsn,
                             StoredEventsObserver observer, std::string commit_sender)
    : config_(config),
      dsn_(std::move(dsn)),
      observer_(std::move(observer)),
      commit_sender_(std::move(commit_sender)),
      compactor_(dsn_, config_.compact_interval_ms, config_.compact_after_events, true) {
  for (int i = 0; i < std::max(1, config_.pool_size); ++i) {
    writers_.push_back(std::make_unique<Writer>());
  }
  for (auto& w : writers_) {
    Writer* writer = w.get();
    writer->thread = std::thread([this, writer] { Run(*writer); });
  }
}

IngestService::~IngestService() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
  }
  for (auto& w : writers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

bool IngestService::Submit(IngestJob job) {
  const std::uint64_t events = job.events.size();
  const std::uint64_t bytes = job.bytes;
  // A request larger than the whole queue still gets in when the queue is empty: refusing it
  // forever would make a shipper retry it forever.
  std::uint64_t queued = queued_events_.load();
  std::uint64_t queued_bytes = queued_bytes_.load();
  if ((queued > 0 || queued_bytes > 0) && (queued + events > config_.queue_max_events ||
                                           queued_bytes + bytes > config_.queue_max_bytes)) {
    counters_.queue_full.fetch_add(1);
    return false;
  }
  queued_events_.fetch_add(events);
  queued_bytes_.fetch_add(bytes);
  std::lock_guard lock(mutex_);
  queue_.push_back(std::move(job));
  wake_.notify_one();
  return true;
}

std::vector<IngestJob> IngestService::TakeGroup() {
  std::vector<IngestJob> group;
  const int per_table = std::max(1, config_.writers_per_table);
  auto first = std::find_if(queue_.begin(), queue_.end(),
                            [&](const IngestJob& job) { return writing_[job.table] < per_table; });
  if (first == queue_.end()) return group;
  const std::string table = first->table;
  std::size_t events = 0;
  for (auto it = first; it != queue_.end();) {
    if (it->table != table ||
        (!group.empty() && events + it->events.size() > config_.batch_max_events)) {
      ++it;
      continue;
    }
    events += it->events.size();
    group.push_back(std::move(*it));
    it = queue_.erase(it);
  }
  ++writing_[table];
  return group;
}

void IngestService::Run(Writer& writer) {
  for (;;) {
    std::vector<IngestJob> group;
    {
      std::unique_lock lock(mutex_);
      // Another writer finishing a table (notify_all below) may free a slot for a queued job.
      wake_.wait(lock, [&] {
        if (!queue_.empty()) group = TakeGroup();
        return !group.empty() || (stopping_ && queue_.empty());
      });
      if (group.empty()) return;  // stopping, and everything queued is written
    }
    const std::string table = group.front().table;
    WriteGroup(writer, group);
    {
      std::lock_guard lock(mutex_);
      --writing_[table];
    }
    wake_.notify_all();
  }
}

bool IngestService::WriteEvents(Writer& writer, const std::vector<IngestJob*>& jobs,
                                std::vector<std::vector<std::string>>* refusals, std::string* error,
                                bool* data_refused) {
  const std::string& table = jobs.front()->table;
  try {
    auto& slot = writer.tables[table];
    if (!slot) {
      slot = std::make_unique<schema::IngestWriter>(dsn_, table);
      if (!commit_sender_.empty()) slot->AnnounceCommits(kCommitChannel, commit_sender_);
    }
    const std::int64_t duplicates_before = slot->StagedDuplicates();
    refusals->assign(jobs.size(), {});
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      for (const auto& event : jobs[j]->events) {
        std::string refusal;
        if (!slot->Stage(event, &refusal)) (*refusals)[j].push_back(refusal);
      }
    }
    const std::int64_t staged_duplicates = slot->StagedDuplicates() - duplicates_before;
    schema::SealedBatch batch = slot->Seal();
    schema::WriteCounts counts = slot->Write(batch);
    counters_.accepted.fetch_add(static_cast<std::uint64_t>(counts.loaded));
    counters_.duplicates.fetch_add(
        static_cast<std::uint64_t>(counts.duplicates + staged_duplicates));
    counters_.batches.fetch_add(1);
    if (table == "edge") compactor_.Written(static_cast<std::uint64_t>(counts.loaded));
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    if (auto nl = error->find('\n'); nl != std::string::npos) error->resize(nl);
    const auto* ingest_error = dynamic_cast<const schema::IngestError*>(&e);
    *data_refused = ingest_error != nullptr && ingest_error->DataRefused();
    writer.tables.erase(table);  // its learnt catalogue may be ahead of the database
    return false;
  }
}

void IngestService::WriteGroup(Writer& writer, std::vector<IngestJob>& group) {
  std::uint64_t events = 0, bytes = 0;
  for (const auto& job : group) {
    events += job.events.size();
    bytes += job.bytes;
  }
  std::vector<IngestOutcome> outcomes(group.size());
  for (std::size_t j = 0; j < group.size(); ++j) {
    outcomes[j].stored = true;
    outcomes[j].refusals = std::move(group[j].refusals);
  }
  // Writes `which` in one transaction; on failure marks each of them not stored.
  auto write = [&](const std::vector<std::size_t>& which) {
    std::vector<IngestJob*> jobs;
    for (std::size_t j : which) {
      if (!group[j].events.empty()) jobs.push_back(&group[j]);
    }
    if (jobs.empty()) return true;  // only refused events: nothing to write
    std::vector<std::vector<std::string>> refusals;
    std::string error;
    bool data_refused = false;
    if (WriteEvents(writer, jobs, &refusals, &error, &data_refused)) {
      std::size_t k = 0;
      for (std::size_t j : which) {
        if (group[j].events.empty()) continue;
        for (auto& r : refusals[k++]) outcomes[j].refusals.push_back(std::move(r));
      }
      return true;
    }
    for (std::size_t j : which) {
      outcomes[j].stored = false;
      outcomes[j].error = error;
      outcomes[j].retryable = !data_refused;
    }
    spdlog::error("ingest into {}: {} requests ({} events) not stored: {}", group.front().table,
                  jobs.size(), events, error);
    return false;
  };
  std::vector<std::size_t> all(group.size());
  for (std::size_t j = 0; j < group.size(); ++j) all[j] = j;
  // One request whose events PostgreSQL refuses must not fail the others grouped with it:
  // after a failed group commit each request is written on its own.
  if (!write(all) && group.size() > 1) {
    for (std::size_t j = 0; j < group.size(); ++j) {
      outcomes[j].stored = true;
      outcomes[j].error.clear();
      outcomes[j].retryable = true;
      write({j});
    }
  }
  queued_events_.fetch_sub(events);
  queued_bytes_.fetch_sub(bytes);
  for (std::size_t j = 0; j < group.size(); ++j) {
    IngestOutcome& outcome = outcomes[j];
    if (outcome.stored) {
      counters_.requests.fetch_add(1);
      counters_.rejected.fetch_add(outcome.refusals.size());
      for (const auto& event : group[j].events) {
        if (event.timestamp_inferred) ++outcome.timestamps_inferred;
      }
      if (outcome.timestamps_inferred > 0) {
        std::lock_guard lock(inferred_mutex_);
        inferred_[group[j].source] += outcome.timestamps_inferred;
      }
      if (observer_ && !group[j].events.empty()) observer_(group[j].table, group[j].events);
    } else {
      counters_.failures.fetch_add(1);
    }
    if (group[j].done) group[j].done(std::move(outcome));
  }
}

std::map<std::string, std::uint64_t> IngestService::TimestampsInferred() const {
  std::lock_guard lock(inferred_mutex_);
  return inferred_;
}

std::string IngestService::RenderMetrics() const {
  std::ostringstream out;
  auto counter = [&](const char* name, const char* help, std::uint64_t value) {
    out << "# HELP " << name << " " << help << "\n# TYPE " << name << " counter\n"
        << name << " " << value << "\n";
  };
  counter("lqe_ingest_events_accepted_total", "Events committed by HTTP ingest.",
          counters_.accepted.load());
  counter("lqe_ingest_events_rejected_total", "Events refused by HTTP ingest (406 reasons).",
          counters_.rejected.load());
  counter("lqe_ingest_events_duplicate_total",
          "Events not stored again because their id and timestamp were stored already.",
          counters_.duplicates.load());
  counter("lqe_ingest_batches_total", "Group commits (one transaction and COPY each).",
          counters_.batches.load());
  counter("lqe_ingest_requests_total", "Ingest requests committed.", counters_.requests.load());
  counter("lqe_ingest_queue_full_total", "Ingest requests answered 429 (queue full).",
          counters_.queue_full.load());
  counter("lqe_ingest_failures_total", "Ingest requests answered 503 (database failure).",
          counters_.failures.load());
  out << "# HELP lqe_ingest_timestamps_inferred_total Events stored at the ingest time because "
         "their timestamp could not be read (the value sent is in extra.timestamp_original).\n"
      << "# TYPE lqe_ingest_timestamps_inferred_total counter\n";
  for (const auto& [source, count] : TimestampsInferred()) {
    out << "lqe_ingest_timestamps_inferred_total{source=\"" << PrometheusLabel(source) << "\"} "
        << count << "\n";
  }
  counter("lqe_catalogue_conflicts_total",
          "Values stored whole although their type disagrees with the field catalogue.",
          static_cast<std::uint64_t>(schema::CatalogueConflictsTotal()));
  out << "# HELP lqe_ingest_queue_events Events waiting to be written.\n"
      << "# TYPE lqe_ingest_queue_events gauge\nlqe_ingest_queue_events " << queued_events_.load()
      << "\n"
      << "# HELP lqe_ingest_queue_bytes Bytes of events waiting to be written.\n"
      << "# TYPE lqe_ingest_queue_bytes gauge\nlqe_ingest_queue_bytes " << queued_bytes_.load()
      << "\n";
  out << compactor_.RenderMetrics();
  return out.str();
}

}  // namespace lqe::gateway
