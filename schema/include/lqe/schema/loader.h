// lqe load: NDJSON events into one log table with COPY, evolving the field catalogue.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "lqe/schema/ingest_writer.h"  // CatalogueConflictsTotal

namespace lqe::schema {

struct LoadOptions {
  std::string dsn;
  std::string source;              // "edge", ...
  std::size_t batch_size = 10000;  // events per COPY and transaction
  // Batches written at once, each over its own connection. Concurrent batches that share ids
  // are resolved by the unique index on (id, timestamp), as between concurrent loads.
  int jobs = 2;
  // Longer lines are rejected unparsed: an oversized event would ride along in every listing.
  std::size_t max_event_bytes = 1 << 20;
  // Ingest time for events without a usable timestamp, and the reference for "more than 1 h in
  // the future". Unset: the system clock. Tests inject a fixed clock.
  std::function<std::int64_t()> now_micros;
  // Told after each batch is handed to the writers: the bytes and the lines read so far.
  std::function<void(std::uint64_t bytes_read, std::int64_t lines_read)> progress;
};

struct LoadStats {
  std::int64_t lines = 0;       // non-blank lines read
  std::int64_t loaded = 0;      // events inserted
  std::int64_t duplicates = 0;  // events skipped because their id was already loaded
  std::int64_t rejected = 0;    // lines reported on the error stream
  // Values stored whole although their JSON type disagrees with the catalogue (recorded in
  // logs.catalogue_conflicts and summarised on the error stream, one line per path and type).
  std::int64_t conflicts = 0;
  // Events whose timestamp could not be read, stored at the ingest time with the value as sent
  // in extra.timestamp_original; the first kMaxInferredLines of their line numbers.
  std::int64_t timestamps_inferred = 0;
  std::vector<std::int64_t> inferred_lines;
  double seconds = 0;
};

inline constexpr std::size_t kMaxInferredLines = 20;

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads NDJSON from `in`; each line is one posted object formed by FormEvent (event_form.h). Each
// rejected line (invalid JSON, not an object, refused by FormEvent, or longer than
// max_event_bytes) is reported to `errors` as "line N: reason" and the other lines are loaded.
// Type conflicts never reject a line: after loading, each (path, seen type) is reported once as
// "conflict: <path>: catalogue has T, event has U (N values stored as sent)". An event is a
// duplicate when an event with its id is stored already with the same timestamp, or with any
// timestamp when the event has none. A line whose timestamp cannot be read is loaded at the
// ingest time (event_form.h) and counted in stats->timestamps_inferred. Throws LoadError for an
// unknown source or a database failure (events of committed batches stay loaded); *stats holds the
// counts so far either way.
void LoadNdjson(const LoadOptions& options, std::istream& in, std::ostream& errors,
                LoadStats* stats);

}  // namespace lqe::schema
