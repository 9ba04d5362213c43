// The one write path for formed events, used by `lqe load` and by HTTP ingest: checks each event
// against its source's field catalogue, stages it as a COPY row, and writes a batch in one
// transaction (partitions, duplicate check on (id, timestamp), catalogue changes, type conflicts,
// COPY).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lqe/schema/catalogue_evolution.h"
#include "lqe/schema/event_form.h"

namespace lqe::schema {

class Batch;
class BatchWriter;
class PgConn;

// A database failure (or an unknown source); the batch being written is not stored.
class IngestError : public std::runtime_error {
 public:
  explicit IngestError(const std::string& what, std::string sqlstate = "")
      : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
  // The server's SQLSTATE ("22P05"); empty for connection and client-side failures.
  const std::string& sqlstate() const { return sqlstate_; }
  // The data itself was refused (SQLSTATE class 22 data exception or 54 limit exceeded):
  // writing the same events again fails again.
  bool DataRefused() const { return sqlstate_.starts_with("22") || sqlstate_.starts_with("54"); }

 private:
  std::string sqlstate_;
};

struct WriteCounts {
  std::int64_t loaded = 0;      // events inserted
  std::int64_t duplicates = 0;  // events whose (id, timestamp) was stored already
  std::int64_t conflicts = 0;   // values stored whole although their type disagrees
};

// Staged events ready for IngestWriter::Write; moves only.
class SealedBatch {
 public:
  SealedBatch();
  explicit SealedBatch(std::unique_ptr<Batch> batch);
  ~SealedBatch();
  SealedBatch(SealedBatch&&) noexcept;
  SealedBatch& operator=(SealedBatch&&) noexcept;

  bool Empty() const;  // no rows, no catalogue changes, no conflicts: nothing to write
  std::size_t Size() const;
  // Line numbers of the first and last staged event (0 when none were given).
  std::int64_t FirstLine() const;
  std::int64_t LastLine() const;
  const std::vector<TypeConflict>& Conflicts() const;

 private:
  friend class IngestWriter;
  std::unique_ptr<Batch> batch_;
};

// One source over one connection. Stage and Seal may run on one thread while Write runs on
// another (the loader's pipeline); each of the two sides is single-threaded.
class IngestWriter {
 public:
  // Connects, checks that `source` names a log table and reads its catalogue. Throws IngestError.
  IngestWriter(const std::string& dsn, const std::string& source);
  ~IngestWriter();
  IngestWriter(const IngestWriter&) = delete;
  IngestWriter& operator=(const IngestWriter&) = delete;

  const std::string& Source() const { return source_; }

  // Checks the event against the catalogue and stages it. Returns false with *refusal for an
  // event the catalogue cannot take (an empty or dotted field name, a NUL character). An event
  // whose id and timestamp repeat one already staged is dropped and counted as a duplicate.
  bool Stage(const FormedEvent& event, std::string* refusal, std::int64_t line_no = 0);
  std::size_t Staged() const;
  // Events dropped by Stage as repeats since the writer was made.
  std::int64_t StagedDuplicates() const { return staged_duplicates_; }
  // Takes the staged events (and the catalogue changes they made) out as one batch.
  SealedBatch Seal();
  // Writes a batch in one transaction. Throws IngestError: nothing of the batch is stored, and
  // the catalogue the writer learnt may be ahead of the database, so discard the writer then.
  WriteCounts Write(SealedBatch& batch);
  // Each committed write also sends NOTIFY `channel` with the table, `sender`, the transaction
  // id and the rows' time range (see BatchWriter::AnnounceCommits).
  void AnnounceCommits(const std::string& channel, const std::string& sender);

 private:
  std::string source_;
  std::unique_ptr<PgConn> conn_;
  std::unique_ptr<CatalogueEvolver> metadata_;
  std::unique_ptr<CatalogueEvolver> extra_;
  std::unique_ptr<BatchWriter> writer_;
  std::unique_ptr<Batch> open_;
  std::int64_t staged_duplicates_ = 0;
  std::string metadata_text_;  // Stage's serialisation buffers
  std::string extra_text_;
};

// Type conflicts committed in this process since it started (a counter for /metrics).
std::int64_t CatalogueConflictsTotal();

}  // namespace lqe::schema
