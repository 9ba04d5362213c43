// The loader runs as a pipeline: this thread reads and checks lines and builds COPY text, while
// `jobs` writer threads, each over its own connection, send earlier batches to PostgreSQL.
// Parsing then overlaps with the server's work, and the server works on two batches at once.
#include "lqe/schema/loader.h"

#include <atomic>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <istream>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>

#include "lqe/schema/copy_row.h"
#include "lqe/schema/delivery_ids.h"
#include "lqe/schema/event.h"
#include "lqe/schema/ingest_writer.h"
#include "lqe/schema/rollup_compaction.h"
#include "pg_conn.h"

namespace lqe::schema {
namespace {

namespace json = boost::json;

std::int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Hands sealed batches to the writer threads: one waits while the others are written and the
// next one fills.
class WriterStage {
 public:
  // writers: one per thread (each has its own connection); the first may be the staging one.
  explicit WriterStage(std::vector<IngestWriter*> writers) : writers_(std::move(writers)) {
    for (IngestWriter* writer : writers_) threads_.emplace_back([this, writer] { Run(*writer); });
  }
  ~WriterStage() { Finish(); }
  WriterStage(const WriterStage&) = delete;
  WriterStage& operator=(const WriterStage&) = delete;

  // Blocks while the previous batch is still queued. False once a writer has failed.
  bool Push(SealedBatch batch) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !queued_ || failure_; });
    if (failure_) return false;
    queued_ = std::move(batch);
    cv_.notify_all();
    return true;
  }
  // Waits for the writers to drain.
  void Finish() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
      cv_.notify_all();
    }
    for (auto& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }
  std::exception_ptr Failure() const { return failure_; }
  WriteCounts Totals() const { return totals_; }

 private:
  void Run(IngestWriter& writer) {
    while (true) {
      std::optional<SealedBatch> batch;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return queued_ || done_ || failure_; });
        if (!queued_ || failure_) return;
        batch = std::move(queued_);
        queued_.reset();
        cv_.notify_all();
      }
      try {
        Write(writer, *batch);
      } catch (...) {
        // Of batches failing at once, the first in the file is reported (as with one writer).
        std::lock_guard lock(mutex_);
        if (!failure_ || batch->FirstLine() < failure_line_) {
          failure_ = std::current_exception();
          failure_line_ = batch->FirstLine();
        }
        cv_.notify_all();
        return;
      }
    }
  }
  void Write(IngestWriter& writer, SealedBatch& batch) {
    try {
      const auto result = writer.Write(batch);
      std::lock_guard lock(mutex_);
      totals_.loaded += result.loaded;
      totals_.duplicates += result.duplicates;
      totals_.conflicts += result.conflicts;
    } catch (const IngestError& e) {
      throw LoadError("database error loading lines " + std::to_string(batch.FirstLine()) + "-" +
                      std::to_string(batch.LastLine()) + " (not loaded): " + e.what());
    }
  }

  std::vector<IngestWriter*> writers_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<SealedBatch> queued_;
  bool done_ = false;
  std::exception_ptr failure_;
  std::int64_t failure_line_ = 0;
  WriteCounts totals_;
  std::vector<std::thread> threads_;  // last: they start after the members they use exist
};

class Loader {
 public:
  Loader(const LoadOptions& options, std::ostream& errors, LoadStats* stats)
      : options_(options), errors_(errors), stats_(stats), writer_(options.dsn, options.source) {
    form_.now_micros = options.now_micros ? options.now_micros : NowMicros;
    // An event without an id gets one from its line (text and number): loading the same file
    // again finds every event stored already (delivery_ids.h).
    form_.new_id = [this] { return DeliveryIds(options_.source, line_).At(line_no_); };
    for (int i = 1; i < options.jobs; ++i) {
      extra_writers_.push_back(std::make_unique<IngestWriter>(options.dsn, options.source));
    }
  }

  // Reads every line, then waits for the writer. Throws LoadError on a database failure.
  void Run(std::istream& in);

 private:
  void Line(std::int64_t line_no, std::string_view line);
  bool Seal(WriterStage& stage);
  void ReportConflicts();
  void Reject(std::int64_t line_no, const std::string& reason) {
    errors_ << "line " << line_no << ": " << reason << "\n";
    ++stats_->rejected;
  }

  const LoadOptions& options_;
  std::ostream& errors_;
  LoadStats* stats_;
  IngestWriter writer_;
  // The other writer threads' connections (the first thread writes over writer_'s).
  std::vector<std::unique_ptr<IngestWriter>> extra_writers_;
  std::string_view line_;     // the line being formed
  std::int64_t line_no_ = 0;  // and its number
  EventFormOptions form_;
  // (path, seen type) -> (catalogue type, values), for the report after the load.
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::int64_t>> conflicts_;
  std::vector<unsigned char> json_buffer_ = std::vector<unsigned char>(std::size_t{64} * 1024);
};

void Loader::Line(std::int64_t line_no, std::string_view line) {
  json::monotonic_resource memory(json_buffer_.data(), json_buffer_.size());
  const json::storage_ptr storage(&memory);
  json::value value(storage);  // in the arena too: assigning the parsed tree then moves it
  FormedEvent event(storage);
  std::string error;
  ++stats_->lines;
  line_ = line;
  line_no_ = line_no;
  if (!ParseEventLine(line, storage, &value, form_, &event, &error) ||
      !writer_.Stage(event, &error, line_no)) {
    Reject(line_no, error);
    return;
  }
  if (event.timestamp_inferred) {
    if (stats_->inferred_lines.size() < kMaxInferredLines) {
      stats_->inferred_lines.push_back(line_no);
    }
    ++stats_->timestamps_inferred;
  }
}

// Moves the current batch (with its catalogue changes) to the writer.
bool Loader::Seal(WriterStage& stage) {
  SealedBatch batch = writer_.Seal();
  for (const auto& c : batch.Conflicts()) {
    auto& [catalogue_type, count] = conflicts_[{c.path, c.seen_type}];
    catalogue_type = c.catalogue_type;
    count += c.count;
  }
  if (batch.Empty()) return true;
  return stage.Push(std::move(batch));
}

void Loader::Run(std::istream& in) {
  std::vector<IngestWriter*> writers = {&writer_};
  for (auto& w : extra_writers_) writers.push_back(w.get());
  WriterStage stage(std::move(writers));
  std::string line;
  std::int64_t line_no = 0;
  std::uint64_t bytes_read = 0;
  bool writing = true;
  while (writing && std::getline(in, line)) {
    ++line_no;
    bytes_read += line.size() + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.size() > options_.max_event_bytes) {
      ++stats_->lines;
      Reject(line_no, "event is " + std::to_string(line.size()) + " bytes, over the limit of " +
                          std::to_string(options_.max_event_bytes) + " (--max-event-bytes)");
      continue;
    }
    Line(line_no, line);
    if (writer_.Staged() >= options_.batch_size) {
      writing = Seal(stage);
      if (options_.progress) options_.progress(bytes_read, line_no);
    }
  }
  if (writing) Seal(stage);
  stage.Finish();
  stats_->loaded += stage.Totals().loaded;
  stats_->duplicates += stage.Totals().duplicates + writer_.StagedDuplicates();
  stats_->conflicts += stage.Totals().conflicts;
  if (stage.Failure()) std::rethrow_exception(stage.Failure());
  ReportConflicts();
}

void Loader::ReportConflicts() {
  for (const auto& [key, value] : conflicts_) {
    errors_ << "conflict: " << key.first << ": catalogue has " << value.first << ", event has "
            << key.second << " (" << value.second
            << " values stored as sent; see logs.catalogue_conflicts)\n";
  }
}

}  // namespace

void LoadNdjson(const LoadOptions& options, std::istream& in, std::ostream& errors,
                LoadStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  struct Timer {
    std::chrono::steady_clock::time_point start;
    LoadStats* stats;
    ~Timer() {
      stats->seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } timer{start, stats};
  try {
    Loader loader(options, errors, stats);
    loader.Run(in);
  } catch (const IngestError& e) {
    throw LoadError(e.what());
  }
  // The load's rollup counts wait in the delta (005_edge_rollup.sql); a finished load leaves none.
  if (options.source == "edge") {
    try {
      EdgeRollupCompactor(options.dsn).Compact();
    } catch (const PgError& e) {
      throw LoadError(std::string("events loaded, but compacting the edge rollup failed (charts "
                                  "stay exact; the gateway retries): ") +
                      e.what());
    }
  }
}

}  // namespace lqe::schema
