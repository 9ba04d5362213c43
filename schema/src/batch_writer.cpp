#include "batch_writer.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>

#include "lqe/schema/edge_rollup_counts.h"

namespace lqe::schema {
namespace {

// A concurrent loader committed the same (id, timestamp), or the two waited on each other.
bool LostARace(const PgError& e) {
  return e.sqlstate() == "23505" || e.sqlstate() == "40P01";
}
// Each retry follows another loader's commit, so this bounds pathological contention only.
constexpr int kMaxAttempts = 10;
constexpr auto kLastSeenInterval = std::chrono::minutes(1);

}  // namespace

BatchWriter::BatchWriter(PgConn& conn, std::string source)
    : conn_(conn), source_(std::move(source)), table_("logs." + source_) {
  // Rows of most sources pass TOAST's 2 KB threshold and get compressed as they are written;
  // PostgreSQL's default, pglz, was 13 % of the backend's time during a COPY of edge events,
  // lz4 writes (and reads) the same documents about 20 % faster. The setting only chooses how
  // new values are compressed, so a server built without lz4 keeps its default.
  try {
    conn_.Exec("SET default_toast_compression = lz4");
  } catch (const PgError&) {  // NOLINT(bugprone-empty-catch): pglz stays, which works too
  }
  // Only logs.edge has the built-in rollup trigger. A database without
  // logs.add_written_edge_rollup_counts, or whose trigram rules differ from EdgeRollupCounts' (its
  // LC_CTYPE), keeps the trigger counting every batch itself.
  counts_edge_rollups_ =
      source_ == "edge" &&
      conn_.Exec("SELECT to_regproc('logs.add_written_edge_rollup_counts') IS NOT NULL")
              .Text(0, 0) == "t" &&
      EdgeRollupRulesMatch(conn_);
}

// Outside the batch's transaction, so creating a partition (and the lock it takes) does not
// wait for or hold up other loaders' batches.
void BatchWriter::EnsurePartitions(const Batch& batch) {
  for (std::int64_t day : batch.days()) {
    if (known_days_.count(day) > 0) continue;
    conn_.Exec("SELECT logs.ensure_partition($1, $2::date)", {source_, FormatDay(day)});
    known_days_.insert(day);
  }
}

// Marks the rows whose id (and given timestamp) is stored already. With a timestamp the lookup
// is pruned to that day's partition; without one every partition is searched.
std::vector<bool> BatchWriter::FindDuplicates(Batch& batch) {
  const auto& rows = batch.rows();
  std::vector<bool> duplicate(rows.size(), false);
  // An event without a timestamp is stored with the load time, which no unique index can
  // match: loaders serialise these checks per source instead, until their batch commits.
  const bool untimed =
      std::any_of(rows.begin(), rows.end(), [](const Row& r) { return !r.given_ts; });
  if (untimed) {
    conn_.Exec("SELECT pg_advisory_xact_lock(hashtext('lqe.load.untimed.' || $1))", {source_});
  }
  std::vector<std::optional<std::string>> ids_ts, stamps, index_ts, ids_any, index_any;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].given_ts) {
      ids_ts.emplace_back(batch.Id(rows[i]));
      stamps.push_back(FormatTimestampMicros(rows[i].ts));
      index_ts.push_back(std::to_string(i));
    } else {
      ids_any.emplace_back(batch.Id(rows[i]));
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

void BatchWriter::WriteCatalogueChanges(const Batch& batch) {
  // One row per path (a path added and then widened in one batch): the latest change wins.
  std::map<std::string, const FieldChange*> changes;
  for (const auto& c : batch.changes) changes[c.path] = &c;
  if (!changes.empty()) {
    std::vector<std::optional<std::string>> paths, types, modes;
    for (const auto& [path, c] : changes) {
      paths.push_back(c->path);
      types.push_back(c->type);
      modes.push_back(c->mode);
    }
    // Only INT64 -> FLOAT64 ever changes an existing row's type.
    conn_.Exec(
        "INSERT INTO logs.field_catalogue (source, path, bq_type, mode) "
        "SELECT $1, p, t, m FROM unnest($2::text[], $3::text[], $4::text[]) AS u(p, t, m) "
        "ON CONFLICT (source, path) DO UPDATE SET last_seen = now(), bq_type = CASE "
        "WHEN field_catalogue.bq_type = 'INT64' AND excluded.bq_type = 'FLOAT64' THEN 'FLOAT64' "
        "ELSE field_catalogue.bq_type END",
        {source_, TextArrayLiteral(paths), TextArrayLiteral(types), TextArrayLiteral(modes)});
  }
  // last_seen is refreshed at most once a minute per path and writer: the UPDATE locks the
  // catalogue rows until commit, so refreshing them in every batch would make concurrent writers
  // of one source wait for each other's commit.
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::optional<std::string>> paths;
  for (const auto& path : batch.seen_paths) {
    auto [it, added] = refreshed_.try_emplace(path, now);
    if (!added && now - it->second < kLastSeenInterval) continue;
    it->second = now;
    paths.emplace_back(path);
  }
  if (!paths.empty()) {
    conn_.Exec(
        "UPDATE logs.field_catalogue SET last_seen = now() "
        "WHERE source = $1 AND path = ANY($2::text[])",
        {source_, TextArrayLiteral(paths)});
  }
}

// Counts add up per (source, path, seen type); the first example and catalogue type stay.
void BatchWriter::WriteConflicts(const Batch& batch) {
  if (batch.conflicts.empty()) return;
  std::vector<std::optional<std::string>> paths, catalogue_types, seen_types, counts, examples;
  for (const auto& c : batch.conflicts) {
    paths.push_back(c.path);
    catalogue_types.push_back(c.catalogue_type);
    seen_types.push_back(c.seen_type);
    counts.push_back(std::to_string(c.count));
    examples.push_back(c.example);
  }
  conn_.Exec(
      "INSERT INTO logs.catalogue_conflicts "
      "(source, path, catalogue_type, seen_type, count, example) "
      "SELECT $1, p, ct, st, n, e FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], "
      "$6::text[]) AS u(p, ct, st, n, e) "
      "ON CONFLICT (source, path, seen_type) DO UPDATE SET "
      "count = catalogue_conflicts.count + excluded.count, last_seen = now()",
      {source_, TextArrayLiteral(paths), TextArrayLiteral(catalogue_types),
       TextArrayLiteral(seen_types), TextArrayLiteral(counts), TextArrayLiteral(examples)});
}

// Step 1 of the handshake of logs.add_edge_rollups: the trigger will skip the COPY's `rows` rows.
// Their transition table is kept in memory: at PostgreSQL's default work_mem (4 MB) a batch of edge
// rows spilled to a temporary file, 7 % of the backend's time in a COPY. False when the trigger is
// to count.
bool BatchWriter::AnnounceRollupRows(const Batch& batch, std::int64_t rows) {
  if (!counts_edge_rollups_ || !batch.rollup_inputs_exact || rows == 0) return false;
  constexpr std::size_t kMinKb = 4096;
  constexpr std::size_t kMaxKb = 262144;
  const std::size_t kb = std::clamp(batch.Text().size() * 2 / 1024, kMinKb, kMaxKb);
  conn_.Exec(
      "SELECT set_config('lqe.edge_rollup_rows', $1, true), "
      "set_config('work_mem', $2, true)",
      {std::to_string(rows), std::to_string(kb) + "kB"});
  return true;
}

// Step 3: the written rows counted here (EdgeRollupCounts) and added by
// logs.add_written_edge_rollup_counts, which adds nothing when the trigger counted them itself.
void BatchWriter::CountRollupRows(const Batch& batch, const std::vector<bool>& duplicate) {
  EdgeRollupCounts counts;
  const auto& rows = batch.rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto url = batch.Url(rows[i]);
    if (duplicate[i] || !url) continue;  // a row without a URL counts nothing
    counts.Add(rows[i].ts, *url, batch.Path(rows[i]));
  }
  conn_.Exec(
      "SELECT logs.add_written_edge_rollup_counts($1::timestamptz[], $2::text[], $3::bigint[], "
      "$4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::timestamptz[], $9::text[])",
      counts.Arguments());
}

// While any drain rule exists, the written events' keys go to the drains' outbox in this
// transaction (021_drain_delivery.sql), so a drain sees the batch exactly when it commits.
void BatchWriter::RecordForDrains(const Batch& batch, const std::vector<bool>& duplicate) {
  if (conn_.Exec("SELECT logs.drains_active()").Text(0, 0) != "t") return;
  std::vector<std::optional<std::string>> ids;
  std::vector<std::optional<std::string>> stamps;
  ids.reserve(batch.size());
  stamps.reserve(batch.size());
  for (std::size_t i = 0; i < batch.rows().size(); ++i) {
    if (duplicate[i]) continue;
    ids.emplace_back(batch.Id(batch.rows()[i]));
    stamps.push_back(FormatTimestampMicros(batch.rows()[i].ts));
  }
  conn_.Exec("SELECT logs.record_drained_batch($1, $2::text[], $3::timestamptz[])",
             {source_, TextArrayLiteral(ids), TextArrayLiteral(stamps)});
}

void BatchWriter::Announce(const Batch& batch, const std::vector<bool>& duplicate) {
  if (notify_channel_.empty()) return;
  std::int64_t low = std::numeric_limits<std::int64_t>::max();
  std::int64_t high = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < batch.rows().size(); ++i) {
    if (duplicate[i]) continue;
    low = std::min(low, batch.rows()[i].ts);
    high = std::max(high, batch.rows()[i].ts);
  }
  if (low > high) return;
  // Delivered when (and only if) the transaction commits.
  conn_.Exec(
      "SELECT pg_notify($1, json_build_object('t', $2::text, 'g', $3::text, 'x', "
      "pg_current_xact_id()::text, 'lo', $4::bigint, 'hi', $5::bigint)::text)",
      {notify_channel_, source_, notify_sender_, std::to_string(low), std::to_string(high)});
}

BatchWriter::Result BatchWriter::Write(Batch& batch) {
  EnsurePartitions(batch);
  // First without looking for stored ids: when every row has its own timestamp, the unique
  // index on (id, timestamp) finds exactly the rows the lookup would, and a batch none of whose
  // events is stored yet (the usual case) then costs PostgreSQL no lookups. A unique violation
  // (a retried batch, or a concurrent writer of the same events) rolls back and writes again,
  // this time without the stored events.
  bool check = std::any_of(batch.rows().begin(), batch.rows().end(),
                           [](const Row& r) { return !r.given_ts; });
  for (int attempt = 1;; ++attempt) {
    try {
      return WriteOnce(batch, check);
    } catch (const PgError& e) {
      if (!LostARace(e) || attempt == kMaxAttempts) throw;
      check = true;
    }
  }
}

BatchWriter::Result BatchWriter::WriteOnce(Batch& batch, bool check) {
  Result result;
  conn_.Exec("BEGIN");
  try {
    const auto duplicate = check ? FindDuplicates(batch) : std::vector<bool>(batch.size(), false);
    WriteCatalogueChanges(batch);
    WriteConflicts(batch);
    // The rows to write, as runs of the batch's text (one run when none is a duplicate).
    std::vector<std::string_view> runs;
    const std::string_view text = batch.Text();
    std::size_t run_start = 0;
    std::size_t run_end = 0;
    for (std::size_t i = 0; i < batch.rows().size(); ++i) {
      if (duplicate[i]) continue;
      const Row& row = batch.rows()[i];
      if (row.text_offset != run_end) {
        if (run_end > run_start) runs.push_back(text.substr(run_start, run_end - run_start));
        run_start = row.text_offset;
      }
      run_end = row.text_offset + row.text_size;
      ++result.loaded;
    }
    if (run_end > run_start) runs.push_back(text.substr(run_start, run_end - run_start));
    if (!runs.empty()) {
      const bool counted = AnnounceRollupRows(batch, result.loaded);
      conn_.CopyIn("COPY " + table_ +
                       " (id, \"timestamp\", event_message, project, metadata, extra) FROM STDIN",
                   runs);
      if (counted) CountRollupRows(batch, duplicate);
      RecordForDrains(batch, duplicate);
      Announce(batch, duplicate);
    }
    conn_.Exec("COMMIT");
  } catch (const PgError&) {
    try {
      conn_.Exec("ROLLBACK");
    } catch (
        const PgError&) {  // NOLINT(bugprone-empty-catch): the first error is the one to report
    }
    throw;
  }
  result.duplicates = static_cast<std::int64_t>(batch.size()) - result.loaded;
  return result;
}

}  // namespace lqe::schema
