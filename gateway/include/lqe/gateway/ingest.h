// HTTP ingest's write side: a bounded queue of formed events and writer threads, each with its
// own Postgres connections (never the query pool). A writer takes the oldest request and every
// other queued request for the same table (up to batch_max_events) and writes them in one
// transaction and one COPY: group commit, so throughput does not depend on client batch size.
// A request is answered only after its transaction commits. Up to writers_per_table threads
// write one table at once (each over its own connection): while one commits, the next takes what
// queued meanwhile. Concurrent batches with the same ids are resolved by the unique index on
// (id, timestamp): the later one is rolled back and written again without the stored events.
#pragma once

#include <atomic>
#include <boost/json/memory_resource.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "lqe/gateway/config.h"
#include "lqe/gateway/rollup_compactor.h"
#include "lqe/schema/event_form.h"

namespace lqe::schema {
class IngestWriter;
}

namespace lqe::gateway {

struct IngestOutcome {
  bool stored = false;                // false: nothing of the request was stored
  std::vector<std::string> refusals;  // events not stored, with why (the rest were)
  std::string error;                  // why nothing was stored
  bool retryable = true;  // false: PostgreSQL refused the data itself; sending it again fails
  // Stored events whose timestamp could not be read (stored at the ingest time, marked in extra).
  std::size_t timestamps_inferred = 0;
};

struct IngestJob {
  // The arena the events' JSON lives in (the request's parsed body): first, so it goes last.
  std::unique_ptr<boost::json::memory_resource> memory;
  std::string table;
  std::string source;  // the source's name, for the per-source counters
  std::vector<schema::FormedEvent> events;
  std::vector<std::string> refusals;        // events already refused while forming
  std::size_t bytes = 0;                    // counted against ingest.queue_max_bytes
  std::function<void(IngestOutcome)> done;  // called once, on a writer thread
};

// Told of every request's events once their transaction has committed (the live tail); runs on
// a writer thread, so it must be quick.
using StoredEventsObserver =
    std::function<void(const std::string& table, const std::vector<schema::FormedEvent>& events)>;

class IngestService {
 public:
  // `dsn`: the writer role's connection string. Starts config.pool_size writer threads.
  // `commit_sender` (non-empty): every committed batch is announced on kCommitChannel under this
  // name, for the live tails of other gateways (tail/remote_feed.h).
  IngestService(const IngestConfig& config, std::string dsn, StoredEventsObserver observer = {},
                std::string commit_sender = {});
  static constexpr const char* kCommitChannel = "lqe_ingest_commits";
  ~IngestService();  // writes what is queued, then joins the writers
  IngestService(const IngestService&) = delete;
  IngestService& operator=(const IngestService&) = delete;

  // Queues the job; false (and job.done not called) when the queue is full.
  bool Submit(IngestJob job);
  int RetryAfterSeconds() const { return config_.retry_after_seconds; }
  // Prometheus lines for the ingest counters and the catalogue conflicts counter.
  std::string RenderMetrics() const;
  std::uint64_t QueuedEvents() const { return queued_events_.load(); }

  struct Counters {
    std::atomic<std::uint64_t> accepted{0};    // events committed
    std::atomic<std::uint64_t> rejected{0};    // events refused (406 reasons)
    std::atomic<std::uint64_t> duplicates{0};  // events already stored (retries)
    std::atomic<std::uint64_t> batches{0};     // group commits
    std::atomic<std::uint64_t> requests{0};    // requests committed
    std::atomic<std::uint64_t> queue_full{0};  // requests answered 429
    std::atomic<std::uint64_t> failures{0};    // requests answered 503
  };
  Counters& counters() { return counters_; }
  // Events stored with an inferred timestamp (event_form.h), per source name.
  std::map<std::string, std::uint64_t> TimestampsInferred() const;

  // The source named `name`, created with a log table of its own when there is none
  // (logs.ensure_source; OTLP ingest for a service.name that names no source), for `key`. A
  // refusal carries the HTTP status and the reason. Remembered for a few seconds, until the
  // gateway's configuration snapshot lists the source.
  struct SourceRefusal {
    int status = 0;
    std::string message;
  };
  std::variant<IngestSource, SourceRefusal> EnsureSource(const std::string& name,
                                                         const ApiKey& key);

 private:
  struct Writer;
  void Run(Writer& writer);
  // Under mutex_: takes the oldest job whose table has a free writer slot, with the jobs queued
  // behind it for the same table (up to batch_max_events). Empty when no table has one.
  std::vector<IngestJob> TakeGroup();
  void WriteGroup(Writer& writer, std::vector<IngestJob>& group);
  // Stages and writes the jobs' events in one transaction, with each job's catalogue refusals
  // in *refusals. False when nothing was stored: *error says why, *data_refused whether the
  // data itself was refused.
  bool WriteEvents(Writer& writer, const std::vector<IngestJob*>& jobs,
                   std::vector<std::vector<std::string>>* refusals, std::string* error,
                   bool* data_refused);

  IngestConfig config_;
  std::string dsn_;
  StoredEventsObserver observer_;
  std::string commit_sender_;
  std::atomic<std::uint64_t> queued_events_{0};
  std::atomic<std::uint64_t> queued_bytes_{0};
  Counters counters_;
  mutable std::mutex inferred_mutex_;
  std::map<std::string, std::uint64_t> inferred_;  // under inferred_mutex_
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<IngestJob> queue_;
  std::map<std::string, int> writing_;  // table -> writers busy with it
  std::mutex created_mutex_;
  struct Created {
    IngestSource source;
    std::chrono::steady_clock::time_point at;
  };
  std::map<std::string, Created, std::less<>> created_;  // by name, under created_mutex_
  bool stopping_ = false;
  std::vector<std::unique_ptr<Writer>> writers_;
  RollupCompactor compactor_;  // last, so it stops first (after the writers are joined)
};

}  // namespace lqe::gateway
