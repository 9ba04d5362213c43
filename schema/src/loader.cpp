// The loader runs as a two-stage pipeline: this thread reads and checks lines and builds COPY
// text, a writer thread sends the previous batch to PostgreSQL. Parsing then overlaps with the
// server's work instead of waiting for it.
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

#include "batch_writer.h"
#include "lqe/schema/catalogue_evolution.h"
#include "lqe/schema/copy_row.h"
#include "lqe/schema/event.h"
#include "pg_conn.h"

namespace lqe::schema {
namespace {

namespace json = boost::json;

std::atomic<std::int64_t> conflicts_total{0};

bool ValidSourceName(const std::string& name) {
  if (name.empty() || name.size() > 48) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Hands sealed batches to the writer thread, one in flight while the next one fills.
class WriterStage {
 public:
  explicit WriterStage(BatchWriter& writer) : writer_(writer), thread_([this] { Run(); }) {}
  ~WriterStage() { Finish(); }

  // Blocks while the previous batch is still queued. False once the writer has failed.
  bool Push(Batch batch) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !queued_ || failure_; });
    if (failure_) return false;
    queued_ = std::move(batch);
    cv_.notify_all();
    return true;
  }
  // Waits for the writer to drain; rethrows its failure.
  void Finish() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
      cv_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }
  std::exception_ptr failure() const { return failure_; }
  BatchWriter::Result totals() const { return totals_; }
  std::int64_t conflicts() const { return conflicts_; }

 private:
  void Run() {
    while (true) {
      std::optional<Batch> batch;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return queued_ || done_; });
        if (!queued_) return;
        batch = std::move(queued_);
        queued_.reset();
        cv_.notify_all();
      }
      try {
        Write(*batch);
      } catch (...) {
        std::lock_guard lock(mutex_);
        failure_ = std::current_exception();
        cv_.notify_all();
        return;
      }
    }
  }
  void Write(Batch& batch) {
    const std::int64_t first = batch.rows().empty() ? 0 : batch.rows().front().line_no;
    const std::int64_t last = batch.rows().empty() ? 0 : batch.rows().back().line_no;
    try {
      const auto result = writer_.Write(batch);
      std::int64_t conflicts = 0;
      for (const auto& c : batch.conflicts) conflicts += c.count;
      conflicts_total += conflicts;
      std::lock_guard lock(mutex_);
      totals_.loaded += result.loaded;
      totals_.duplicates += result.duplicates;
      conflicts_ += conflicts;
    } catch (const PgError& e) {
      throw LoadError("database error loading lines " + std::to_string(first) + "-" +
                      std::to_string(last) + " (not loaded): " + e.what());
    }
  }

  BatchWriter& writer_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<Batch> queued_;
  bool done_ = false;
  std::exception_ptr failure_;
  BatchWriter::Result totals_;
  std::int64_t conflicts_ = 0;
  std::thread thread_;  // last: starts after the members it uses exist
};

class Loader {
 public:
  Loader(const LoadOptions& options, std::ostream& errors, LoadStats* stats)
      : options_(options), errors_(errors), stats_(stats), conn_(options.dsn) {
    CheckSource();
    const auto catalogue = ReadCatalogue();
    metadata_ = std::make_unique<CatalogueEvolver>(catalogue, "metadata");
    extra_ = std::make_unique<CatalogueEvolver>(catalogue, "extra");
    form_.now_micros = options.now_micros ? options.now_micros : NowMicros;
    form_.new_id = [this] { return uuids_.Next(); };
  }

  // Reads every line, then waits for the writer. Throws LoadError on a database failure.
  void Run(std::istream& in);

 private:
  void CheckSource();
  std::vector<CatalogEntry> ReadCatalogue();
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
  PgConn conn_;
  std::unique_ptr<CatalogueEvolver> metadata_;
  std::unique_ptr<CatalogueEvolver> extra_;
  UuidGenerator uuids_;
  EventFormOptions form_;
  // (path, seen type) -> (catalogue type, values), for the report after the load.
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::int64_t>> conflicts_;
  Batch batch_;
  std::vector<unsigned char> json_buffer_ = std::vector<unsigned char>(64 * 1024);
};

void Loader::CheckSource() {
  if (!ValidSourceName(options_.source)) {
    throw LoadError("invalid source name \"" + options_.source + "\"");
  }
  const auto result = conn_.Exec(
      "SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE n.nspname = 'logs' AND c.relname = $1 AND c.relkind = 'p'",
      {options_.source});
  if (result.Rows() == 0) {
    throw LoadError("unknown source \"" + options_.source + "\": no table logs." + options_.source +
                    " (run lqe migrate first?)");
  }
}

std::vector<CatalogEntry> Loader::ReadCatalogue() {
  const auto result = conn_.Exec(
      "SELECT path, bq_type, mode FROM logs.field_catalogue WHERE source = $1", {options_.source});
  std::vector<CatalogEntry> rows;
  for (int i = 0; i < result.Rows(); ++i) {
    rows.push_back({options_.source, result.Text(i, 0), result.Text(i, 1), result.Text(i, 2)});
  }
  return rows;
}

void Loader::Line(std::int64_t line_no, std::string_view line) {
  json::monotonic_resource memory(json_buffer_.data(), json_buffer_.size());
  const json::storage_ptr storage(&memory);
  json::value value;
  FormedEvent event(storage);
  std::string error;
  ++stats_->lines;
  if (!ParseEventLine(line, storage, &value, form_, &event, &error) ||
      !metadata_->Observe(&event.metadata, &error) || !extra_->Observe(&event.extra, &error)) {
    Reject(line_no, error);
    return;
  }
  Row row;
  row.line_no = line_no;
  row.user_id = event.id_given;
  row.id = std::move(event.id);
  row.given_ts = event.timestamp_given;
  row.ts = event.timestamp_micros;
  AppendCopyRow(row.id, row.ts, event.event_message, event.project, json::serialize(event.metadata),
                json::serialize(event.extra), &row.copy_line);
  if (!batch_.Add(std::move(row))) ++stats_->duplicates;
}

// Moves the current batch (with its catalogue changes) to the writer.
bool Loader::Seal(WriterStage& stage) {
  batch_.changes = metadata_->TakeChanges();
  batch_.seen_paths = metadata_->TakeSeenPaths();
  batch_.conflicts = metadata_->TakeConflicts();
  for (auto& c : extra_->TakeChanges()) batch_.changes.push_back(std::move(c));
  for (auto& p : extra_->TakeSeenPaths()) batch_.seen_paths.push_back(std::move(p));
  for (auto& c : extra_->TakeConflicts()) batch_.conflicts.push_back(std::move(c));
  for (const auto& c : batch_.conflicts) {
    auto& [catalogue_type, count] = conflicts_[{c.path, c.seen_type}];
    catalogue_type = c.catalogue_type;
    count += c.count;
  }
  if (batch_.empty() && batch_.changes.empty() && batch_.conflicts.empty()) return true;
  const bool ok = stage.Push(std::move(batch_));
  batch_ = Batch();
  return ok;
}

void Loader::Run(std::istream& in) {
  BatchWriter writer(conn_, options_.source);
  WriterStage stage(writer);
  std::string line;
  std::int64_t line_no = 0;
  bool writing = true;
  while (writing && std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.size() > options_.max_event_bytes) {
      ++stats_->lines;
      Reject(line_no, "event is " + std::to_string(line.size()) + " bytes, over the limit of " +
                          std::to_string(options_.max_event_bytes) + " (--max-event-bytes)");
      continue;
    }
    Line(line_no, line);
    if (batch_.size() >= options_.batch_size) writing = Seal(stage);
  }
  if (writing) Seal(stage);
  stage.Finish();
  stats_->loaded += stage.totals().loaded;
  stats_->duplicates += stage.totals().duplicates;
  stats_->conflicts += stage.conflicts();
  if (stage.failure()) std::rethrow_exception(stage.failure());
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

std::int64_t CatalogueConflictsTotal() {
  return conflicts_total.load();
}

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
  } catch (const PgError& e) {
    throw LoadError(e.what());
  }
}

}  // namespace lqe::schema
