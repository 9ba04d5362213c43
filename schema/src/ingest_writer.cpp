#include "lqe/schema/ingest_writer.h"

#include <atomic>
#include <boost/json/serializer.hpp>

#include "batch_writer.h"
#include "load_batch.h"
#include "lqe/base/suggest.h"
#include "lqe/schema/copy_row.h"
#include "pg_conn.h"

namespace lqe::schema {
namespace {

std::atomic<std::int64_t> conflicts_total{0};

bool ValidSourceName(const std::string& name) {
  if (name.empty() || name.size() > 48) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// The log tables (one per source), sorted; none before lqe migrate.
std::vector<std::string> SourceTables(PgConn& conn) {
  const auto result = conn.Exec(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE n.nspname = 'logs' AND c.relkind = 'p' AND NOT c.relispartition ORDER BY 1");
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(result.Rows()));
  for (int i = 0; i < result.Rows(); ++i) names.push_back(result.Text(i, 0));
  return names;
}

// "; did you mean \"edge\"?", or "" when no source is that near.
std::string DidYouMean(const std::string& source, const std::vector<std::string>& sources) {
  const std::string nearest = ClosestMatch(source, sources, SuggestionLimit(source));
  return nearest.empty() ? "" : "; did you mean \"" + nearest + "\"?";
}

void CheckSource(PgConn& conn, const std::string& source) {
  if (!ValidSourceName(source)) {
    throw IngestError("invalid source name \"" + source + "\"" +
                      DidYouMean(source, SourceTables(conn)));
  }
  const auto result = conn.Exec(
      "SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE n.nspname = 'logs' AND c.relname = $1 AND c.relkind = 'p' AND NOT c.relispartition",
      {source});
  if (result.Rows() > 0) return;
  const std::vector<std::string> sources = SourceTables(conn);
  std::string message = "unknown source \"" + source + "\": no table logs." + source;
  // Only a database without any log table needs lqe migrate.
  if (sources.empty()) {
    throw IngestError(message + " (the database has no lqe log tables: run lqe migrate)");
  }
  std::string hint = DidYouMean(source, sources);
  if (hint.empty()) {
    hint = "; the sources are ";
    for (std::size_t i = 0; i < sources.size(); ++i) hint += (i > 0 ? ", " : "") + sources[i];
  }
  throw IngestError(message + hint);
}

std::vector<CatalogEntry> ReadCatalogue(PgConn& conn, const std::string& source) {
  const auto result =
      conn.Exec("SELECT path, bq_type, mode FROM logs.field_catalogue WHERE source = $1", {source});
  std::vector<CatalogEntry> rows;
  rows.reserve(static_cast<std::size_t>(result.Rows()));
  for (int i = 0; i < result.Rows(); ++i) {
    rows.push_back({source, result.Text(i, 0), result.Text(i, 1), result.Text(i, 2)});
  }
  return rows;
}

const std::vector<TypeConflict> kNoConflicts;

// The edge rollup's reads of an event, as PostgreSQL makes them on the stored metadata:
// (metadata -> 'request') ->> 'url' is the string when `request` is an object holding a string
// `url`, NULL when either is missing or `request` is no object. False for a URL or path of
// another JSON type (->> would give its JSON text): the trigger counts such a batch itself.
bool ReadRollupInput(const boost::json::object& metadata, RollupInput* input) {
  constexpr std::size_t kMaxCell = std::size_t{1} << 30;  // a Row keeps sizes in 32 bits
  const auto* request = metadata.if_contains("request");
  if (request == nullptr || !request->is_object()) return true;
  auto read = [&](std::string_view key, std::optional<std::string_view>* cell) {
    const auto* value = request->get_object().if_contains(key);
    if (value == nullptr) return true;
    if (!value->is_string() || value->get_string().size() >= kMaxCell) return false;
    *cell = std::string_view(value->get_string());
    return true;
  };
  return read("url", &input->url) && read("path", &input->path);
}

void Serialize(const boost::json::object& object, std::string* out) {
  out->clear();
  boost::json::serializer serializer;
  serializer.reset(&object);
  char chunk[16384];
  while (!serializer.done()) out->append(serializer.read(chunk));
}

}  // namespace

SealedBatch::SealedBatch() = default;
SealedBatch::SealedBatch(std::unique_ptr<Batch> batch) : batch_(std::move(batch)) {}
SealedBatch::~SealedBatch() = default;
SealedBatch::SealedBatch(SealedBatch&&) noexcept = default;
SealedBatch& SealedBatch::operator=(SealedBatch&&) noexcept = default;

bool SealedBatch::Empty() const {
  return !batch_ || (batch_->empty() && batch_->changes.empty() && batch_->conflicts.empty());
}
std::size_t SealedBatch::Size() const {
  return batch_ ? batch_->size() : 0;
}
std::int64_t SealedBatch::FirstLine() const {
  return batch_ && !batch_->empty() ? batch_->rows().front().line_no : 0;
}
std::int64_t SealedBatch::LastLine() const {
  return batch_ && !batch_->empty() ? batch_->rows().back().line_no : 0;
}
const std::vector<TypeConflict>& SealedBatch::Conflicts() const {
  return batch_ ? batch_->conflicts : kNoConflicts;
}

IngestWriter::IngestWriter(const std::string& dsn, const std::string& source)
    : source_(source), open_(std::make_unique<Batch>()) {
  try {
    conn_ = std::make_unique<PgConn>(dsn);
    CheckSource(*conn_, source_);
    const auto catalogue = ReadCatalogue(*conn_, source_);
    metadata_ = std::make_unique<CatalogueEvolver>(catalogue, "metadata");
    extra_ = std::make_unique<CatalogueEvolver>(catalogue, "extra");
    writer_ = std::make_unique<BatchWriter>(*conn_, source_);
  } catch (const PgError& e) {
    throw IngestError(e.what(), e.sqlstate());
  }
}

IngestWriter::~IngestWriter() = default;

bool IngestWriter::Stage(const FormedEvent& event, std::string* refusal, std::int64_t line_no) {
  if (!metadata_->Observe(&event.metadata, refusal) || !extra_->Observe(&event.extra, refusal)) {
    return false;
  }
  // Serialised into buffers kept across events, and the row appended to the batch's one text:
  // no allocation per event once they have grown.
  Serialize(event.metadata, &metadata_text_);
  Serialize(event.extra, &extra_text_);
  AppendCopyRow(event.id, event.timestamp_micros, event.event_message, event.project,
                metadata_text_, extra_text_, &open_->text());
  RollupInput rollup;
  if (writer_->CountsEdgeRollups() && !ReadRollupInput(event.metadata, &rollup)) {
    open_->rollup_inputs_exact = false;
  }
  if (!open_->Add(event.id, event.timestamp_micros, event.timestamp_given, line_no, rollup)) {
    ++staged_duplicates_;
  }
  return true;
}

std::size_t IngestWriter::Staged() const {
  return open_->size();
}

SealedBatch IngestWriter::Seal() {
  Batch& batch = *open_;
  batch.changes = metadata_->TakeChanges();
  batch.seen_paths = metadata_->TakeSeenPaths();
  batch.conflicts = metadata_->TakeConflicts();
  for (auto& c : extra_->TakeChanges()) batch.changes.push_back(std::move(c));
  for (auto& p : extra_->TakeSeenPaths()) batch.seen_paths.push_back(std::move(p));
  for (auto& c : extra_->TakeConflicts()) batch.conflicts.push_back(std::move(c));
  // The next batch's text is probably about as large: reserved at once instead of grown by copies.
  const std::size_t text_bytes = batch.Text().size();
  SealedBatch sealed(std::move(open_));
  open_ = std::make_unique<Batch>(text_bytes + text_bytes / 8);
  return sealed;
}

WriteCounts IngestWriter::Write(SealedBatch& sealed) {
  WriteCounts counts;
  if (sealed.Empty()) return counts;
  try {
    const auto result = writer_->Write(*sealed.batch_);
    counts.loaded = result.loaded;
    counts.duplicates = result.duplicates;
  } catch (const PgError& e) {
    throw IngestError(e.what(), e.sqlstate());
  }
  for (const auto& c : sealed.batch_->conflicts) counts.conflicts += c.count;
  conflicts_total += counts.conflicts;
  return counts;
}

void IngestWriter::AnnounceCommits(const std::string& channel, const std::string& sender) {
  writer_->AnnounceCommits(channel, sender);
}

std::int64_t CatalogueConflictsTotal() {
  return conflicts_total.load();
}

}  // namespace lqe::schema
