// Writes one batch: its day partitions (each in its own short transaction), then in one
// transaction the duplicate check, the catalogue changes, the type conflicts and the COPY. The
// unique index on (id, timestamp) holds against concurrent loaders: a batch that collides with one
// is rolled back and written again, when its duplicate check sees the other loader's rows.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "load_batch.h"
#include "pg_conn.h"

namespace lqe::schema {

class BatchWriter {
 public:
  BatchWriter(PgConn& conn, std::string source);

  struct Result {
    std::int64_t loaded = 0;
    std::int64_t duplicates = 0;
  };
  // Throws PgError; the batch's transaction is then rolled back by the server.
  Result Write(Batch& batch);
  // The writer counts its rows into the edge rollups itself (005_edge_rollup.sql): stage each row's
  // RollupInput in its batch.
  bool CountsEdgeRollups() const { return counts_edge_rollups_; }
  // Each transaction that writes rows also sends, on commit, NOTIFY `channel` with
  // {"t": table, "g": sender, "x": its transaction id, "lo", "hi": its rows' first and last
  // timestamps in microseconds}: enough for a listener to read exactly those rows back.
  void AnnounceCommits(std::string channel, std::string sender) {
    notify_channel_ = std::move(channel);
    notify_sender_ = std::move(sender);
  }

 private:
  void EnsurePartitions(const Batch& batch);
  // check: look up stored ids first (else the unique index finds them).
  Result WriteOnce(Batch& batch, bool check);
  std::vector<bool> FindDuplicates(Batch& batch);
  void WriteCatalogueChanges(const Batch& batch);
  void WriteConflicts(const Batch& batch);
  bool AnnounceRollupRows(const Batch& batch, std::int64_t rows);
  void CountRollupRows(const Batch& batch, const std::vector<bool>& duplicate);
  void RecordForDrains(const Batch& batch, const std::vector<bool>& duplicate);
  void Announce(const Batch& batch, const std::vector<bool>& duplicate);

  PgConn& conn_;
  std::string source_;
  std::string table_;
  bool counts_edge_rollups_ = false;
  std::string notify_channel_;  // empty: no announcement
  std::string notify_sender_;
  std::set<std::int64_t> known_days_;
  // When this writer last refreshed each catalogue path's last_seen.
  std::map<std::string, std::chrono::steady_clock::time_point> refreshed_;
};

}  // namespace lqe::schema
