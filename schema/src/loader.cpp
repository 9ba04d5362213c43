#include "lqe/schema/loader.h"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <istream>
#include <map>
#include <ostream>
#include <set>
#include <unordered_map>
#include <vector>

#include "lqe/schema/catalogue_evolution.h"
#include "lqe/schema/copy_row.h"
#include "lqe/schema/event.h"
#include "lqe/schema/timestamp.h"
#include "pg_conn.h"

namespace lqe::schema {
namespace {

namespace json = boost::json;

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

// One accepted event waiting for its batch's COPY.
struct Row {
  std::int64_t line_no = 0;
  std::string id;
  bool user_id = false;   // the id came with the event (so it may be a duplicate)
  bool given_ts = false;  // the timestamp came with the event
  std::int64_t ts = 0;
  std::string copy_line;
};

class Batch {
 public:
  // False when the batch already holds a duplicate of this event.
  bool Add(Row row) {
    if (row.user_id) {
      auto& stamps = ids_[row.id];
      for (const auto& [ts, given] : stamps) {
        if (!row.given_ts || ts == row.ts) return false;
      }
      stamps.emplace_back(row.ts, row.given_ts);
    }
    days_.insert(DayOfMicros(row.ts));
    rows_.push_back(std::move(row));
    return true;
  }
  std::vector<Row>& rows() { return rows_; }
  const std::set<std::int64_t>& days() const { return days_; }
  bool empty() const { return rows_.empty(); }
  std::size_t size() const { return rows_.size(); }
  void Clear() {
    rows_.clear();
    ids_.clear();
    days_.clear();
  }

 private:
  std::vector<Row> rows_;
  std::unordered_map<std::string, std::vector<std::pair<std::int64_t, bool>>> ids_;
  std::set<std::int64_t> days_;
};

class Loader {
 public:
  Loader(const LoadOptions& options, std::ostream& errors, LoadStats* stats)
      : options_(options), errors_(errors), stats_(stats), conn_(options.dsn) {
    table_ = "logs." + options.source;
    CheckSource();
    evolver_ = std::make_unique<CatalogueEvolver>(ReadCatalogue());
  }

  void Line(std::int64_t line_no, std::string_view line);
  void Flush();

 private:
  void CheckSource();
  std::vector<CatalogEntry> ReadCatalogue();
  void Reject(std::int64_t line_no, const std::string& reason) {
    errors_ << "line " << line_no << ": " << reason << "\n";
    ++stats_->rejected;
  }
  void EnsurePartitions();
  std::vector<bool> FindDuplicates();
  void WriteCatalogueChanges();

  const LoadOptions& options_;
  std::ostream& errors_;
  LoadStats* stats_;
  PgConn conn_;
  std::string table_;
  std::unique_ptr<CatalogueEvolver> evolver_;
  UuidGenerator uuids_;
  Batch batch_;
  std::set<std::int64_t> known_days_;
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
    throw LoadError("unknown source \"" + options_.source + "\": no table " + table_ +
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
  json::value value;
  Event event;
  std::string error;
  ++stats_->lines;
  if (!ParseEventLine(line, &memory, &value, &event, &error) ||
      !evolver_->Observe(event.metadata, &error)) {
    Reject(line_no, error);
    return;
  }
  Row row;
  row.line_no = line_no;
  row.user_id = event.id.has_value();
  row.id = row.user_id ? std::move(*event.id) : uuids_.Next();
  row.given_ts = event.timestamp_micros.has_value();
  row.ts = row.given_ts ? *event.timestamp_micros : NowMicros();
  const std::string metadata =
      event.metadata != nullptr ? json::serialize(*event.metadata) : std::string("{}");
  AppendCopyRow(row.id, row.ts, event.event_message, event.project, metadata, &row.copy_line);
  if (!batch_.Add(std::move(row))) {
    ++stats_->duplicates;
    return;
  }
  if (batch_.size() >= options_.batch_size) Flush();
}

void Loader::EnsurePartitions() {
  for (std::int64_t day : batch_.days()) {
    if (known_days_.count(day) > 0) continue;
    conn_.Exec("SELECT logs.ensure_partition($1, $2::date)", {options_.source, FormatDay(day)});
  }
}

// Marks the rows whose id (and given timestamp) is stored already. With a timestamp the lookup
// is pruned to that day's partition; without one every partition is searched.
std::vector<bool> Loader::FindDuplicates() {
  auto& rows = batch_.rows();
  std::vector<bool> duplicate(rows.size(), false);
  std::vector<std::optional<std::string>> ids_ts, stamps, index_ts, ids_any, index_any;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].user_id) continue;
    if (rows[i].given_ts) {
      ids_ts.push_back(rows[i].id);
      stamps.push_back(FormatTimestampMicros(rows[i].ts));
      index_ts.push_back(std::to_string(i));
    } else {
      ids_any.push_back(rows[i].id);
      index_any.push_back(std::to_string(i));
    }
  }
  auto mark = [&](const PgResult& result) {
    for (int r = 0; r < result.Rows(); ++r) duplicate[std::stoul(result.Text(r, 0))] = true;
  };
  if (!ids_ts.empty()) {
    mark(conn_.Exec(
        "SELECT u.i FROM unnest($1::text[], $2::timestamptz[], $3::int[]) "
        "AS u(id, ts, i) WHERE EXISTS (SELECT 1 FROM " +
            table_ + " t WHERE t.id = u.id AND t.\"timestamp\" = u.ts)",
        {TextArrayLiteral(ids_ts), TextArrayLiteral(stamps), TextArrayLiteral(index_ts)}));
  }
  if (!ids_any.empty()) {
    mark(
        conn_.Exec("SELECT u.i FROM unnest($1::text[], $2::int[]) AS u(id, i) "
                   "WHERE EXISTS (SELECT 1 FROM " +
                       table_ + " t WHERE t.id = u.id)",
                   {TextArrayLiteral(ids_any), TextArrayLiteral(index_any)}));
  }
  return duplicate;
}

void Loader::WriteCatalogueChanges() {
  // One row per path (a path added and then widened in one batch): the latest change wins.
  std::map<std::string, FieldChange> changes;
  for (auto& c : evolver_->TakeChanges()) changes[c.path] = std::move(c);
  const auto seen = evolver_->TakeSeenPaths();
  if (!changes.empty()) {
    std::vector<std::optional<std::string>> paths, types, modes;
    for (const auto& [path, c] : changes) {
      paths.push_back(c.path);
      types.push_back(c.type);
      modes.push_back(c.mode);
    }
    // Only INT64 -> FLOAT64 ever changes an existing row's type.
    conn_.Exec(
        "INSERT INTO logs.field_catalogue (source, path, bq_type, mode) "
        "SELECT $1, p, t, m FROM unnest($2::text[], $3::text[], $4::text[]) AS u(p, t, m) "
        "ON CONFLICT (source, path) DO UPDATE SET last_seen = now(), bq_type = CASE "
        "WHEN field_catalogue.bq_type = 'INT64' AND excluded.bq_type = 'FLOAT64' THEN 'FLOAT64' "
        "ELSE field_catalogue.bq_type END",
        {options_.source, TextArrayLiteral(paths), TextArrayLiteral(types),
         TextArrayLiteral(modes)});
  }
  if (!seen.empty()) {
    std::vector<std::optional<std::string>> paths(seen.begin(), seen.end());
    conn_.Exec(
        "UPDATE logs.field_catalogue SET last_seen = now() "
        "WHERE source = $1 AND path = ANY($2::text[])",
        {options_.source, TextArrayLiteral(paths)});
  }
}

void Loader::Flush() {
  if (batch_.empty()) return;
  const std::int64_t first_line = batch_.rows().front().line_no;
  const std::int64_t last_line = batch_.rows().back().line_no;
  try {
    conn_.Exec("BEGIN");
    EnsurePartitions();
    const auto duplicate = FindDuplicates();
    WriteCatalogueChanges();
    std::string data;
    std::int64_t copied = 0;
    for (std::size_t i = 0; i < batch_.rows().size(); ++i) {
      if (duplicate[i]) continue;
      data += batch_.rows()[i].copy_line;
      ++copied;
    }
    if (copied > 0) {
      conn_.CopyIn(
          "COPY " + table_ + " (id, \"timestamp\", event_message, project, metadata) FROM STDIN",
          data);
    }
    conn_.Exec("COMMIT");
    for (std::int64_t day : batch_.days()) known_days_.insert(day);
    stats_->loaded += copied;
    stats_->duplicates += static_cast<std::int64_t>(batch_.size()) - copied;
  } catch (const PgError& e) {
    throw LoadError("database error loading lines " + std::to_string(first_line) + "-" +
                    std::to_string(last_line) + " (not loaded): " + e.what());
  }
  batch_.Clear();
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
  std::unique_ptr<Loader> loader;
  try {
    loader = std::make_unique<Loader>(options, errors, stats);
  } catch (const PgError& e) {
    throw LoadError(e.what());
  }
  std::string line;
  std::int64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    loader->Line(line_no, line);
  }
  loader->Flush();
}

}  // namespace lqe::schema
