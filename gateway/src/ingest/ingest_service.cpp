#include <spdlog/spdlog.h>

#include <sstream>

#include "lqe/gateway/ingest.h"
#include "lqe/schema/ingest_writer.h"

namespace lqe::gateway {

struct IngestService::Writer {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<IngestJob> queue;
  bool stopping = false;
  // One writer (connection and learnt catalogue) per table, made on first use and dropped after
  // a failure so the next batch starts from what the database holds.
  std::map<std::string, std::unique_ptr<schema::IngestWriter>> tables;
  std::thread thread;
};

IngestService::IngestService(const IngestConfig& config, std::string dsn)
    : config_(config), dsn_(std::move(dsn)) {
  for (int i = 0; i < std::max(1, config_.pool_size); ++i) {
    writers_.push_back(std::make_unique<Writer>());
  }
  for (auto& w : writers_) {
    Writer* writer = w.get();
    writer->thread = std::thread([this, writer] { Run(*writer); });
  }
}

IngestService::~IngestService() {
  for (auto& w : writers_) {
    std::lock_guard lock(w->mutex);
    w->stopping = true;
    w->wake.notify_all();
  }
  for (auto& w : writers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

IngestService::Writer& IngestService::WriterFor(const std::string& table) {
  return *writers_[std::hash<std::string>{}(table) % writers_.size()];
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
  Writer& writer = WriterFor(job.table);
  std::lock_guard lock(writer.mutex);
  writer.queue.push_back(std::move(job));
  writer.wake.notify_one();
  return true;
}

void IngestService::Run(Writer& writer) {
  for (;;) {
    std::vector<IngestJob> group;
    {
      std::unique_lock lock(writer.mutex);
      writer.wake.wait(lock, [&] { return writer.stopping || !writer.queue.empty(); });
      if (writer.queue.empty()) return;  // stopping, and everything queued is written
      // The oldest request, and the requests behind it for the same table while they fit.
      std::string table = writer.queue.front().table;
      std::size_t events = 0;
      for (auto it = writer.queue.begin(); it != writer.queue.end();) {
        if (it->table != table ||
            (!group.empty() && events + it->events.size() > config_.batch_max_events)) {
          ++it;
          continue;
        }
        events += it->events.size();
        group.push_back(std::move(*it));
        it = writer.queue.erase(it);
      }
    }
    WriteGroup(writer, group);
  }
}

void IngestService::WriteEvents(Writer& writer, std::vector<IngestJob>& group, std::uint64_t events,
                                std::vector<IngestOutcome>* outcomes_out, std::string* error_out) {
  const std::string& table = group.front().table;
  std::vector<IngestOutcome>& outcomes = *outcomes_out;
  std::string& error = *error_out;
  try {
    auto& slot = writer.tables[table];
    if (!slot) slot = std::make_unique<schema::IngestWriter>(dsn_, table);
    const std::int64_t duplicates_before = slot->StagedDuplicates();
    for (std::size_t j = 0; j < group.size(); ++j) {
      outcomes[j].refusals = std::move(group[j].refusals);
      for (auto& event : group[j].events) {
        std::string refusal;
        if (!slot->Stage(std::move(event), &refusal)) outcomes[j].refusals.push_back(refusal);
      }
    }
    const std::int64_t staged_duplicates = slot->StagedDuplicates() - duplicates_before;
    schema::SealedBatch batch = slot->Seal();
    schema::WriteCounts counts = slot->Write(batch);
    counters_.accepted.fetch_add(static_cast<std::uint64_t>(counts.loaded));
    counters_.duplicates.fetch_add(
        static_cast<std::uint64_t>(counts.duplicates + staged_duplicates));
    counters_.batches.fetch_add(1);
  } catch (const std::exception& e) {
    error = e.what();
    if (auto nl = error.find('\n'); nl != std::string::npos) error.resize(nl);
    writer.tables.erase(table);  // its learnt catalogue may be ahead of the database
    spdlog::error("ingest into {}: {} requests ({} events) not stored: {}", table, group.size(),
                  events, error);
  }
}

void IngestService::WriteGroup(Writer& writer, std::vector<IngestJob>& group) {
  std::uint64_t events = 0, bytes = 0;
  for (const auto& job : group) {
    events += job.events.size();
    bytes += job.bytes;
  }
  std::vector<IngestOutcome> outcomes(group.size());
  std::string error;
  if (events == 0) {  // only refused events: nothing to write
    for (std::size_t j = 0; j < group.size(); ++j)
      outcomes[j].refusals = std::move(group[j].refusals);
  } else {
    WriteEvents(writer, group, events, &outcomes, &error);
  }
  queued_events_.fetch_sub(events);
  queued_bytes_.fetch_sub(bytes);
  for (std::size_t j = 0; j < group.size(); ++j) {
    IngestOutcome& outcome = outcomes[j];
    if (error.empty()) {
      outcome.stored = true;
      counters_.requests.fetch_add(1);
      counters_.rejected.fetch_add(outcome.refusals.size());
    } else {
      outcome = IngestOutcome{false, {}, error};
      counters_.failures.fetch_add(1);
    }
    if (group[j].done) group[j].done(std::move(outcome));
  }
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
  counter("lqe_catalogue_conflicts_total",
          "Values stored whole although their type disagrees with the field catalogue.",
          static_cast<std::uint64_t>(schema::CatalogueConflictsTotal()));
  out << "# HELP lqe_ingest_queue_events Events waiting to be written.\n"
      << "# TYPE lqe_ingest_queue_events gauge\nlqe_ingest_queue_events " << queued_events_.load()
      << "\n"
      << "# HELP lqe_ingest_queue_bytes Bytes of events waiting to be written.\n"
      << "# TYPE lqe_ingest_queue_bytes gauge\nlqe_ingest_queue_bytes " << queued_bytes_.load()
      << "\n";
  return out.str();
}

}  // namespace lqe::gateway
