// Catalogue evolution: checks each event's metadata (or extra) against one source's field
// catalogue, adds new field paths, widens INT64 to FLOAT64 and records type conflicts without
// changing the catalogue or costing the event. Pure (no database): the loader writes the changes
// and conflicts it reports in the same transaction as the events.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lqe/catalog.h"

namespace lqe::schema {

struct FieldChange {
  std::string path;      // "metadata.request.cf.asn"
  std::string type;      // STRING, INT64, FLOAT64, BOOL, TIMESTAMP, RECORD
  std::string mode;      // NULLABLE or REPEATED
  bool widened = false;  // INT64 became FLOAT64 (otherwise: a new path)
  bool operator==(const FieldChange&) const = default;
};

// Values whose JSON type disagrees with the catalogue, per path and seen type.
struct TypeConflict {
  std::string path;            // "metadata.status"
  std::string catalogue_type;  // "STRING", "REPEATED RECORD"; "NONE" for a path not catalogued
  std::string seen_type;       // "INT64", "REPEATED RECORD"; "MIXED" for clashing values
  std::int64_t count = 0;      // values seen since the last TakeConflicts
  std::string example;         // the first such value as JSON (at most 200 bytes)
};

class CatalogueEvolver {
 public:
  // `rows`: the catalogue of one source; only `root` and "<root>.*" paths matter ("metadata" for
  // the metadata column, "extra" for the other top-level keys).
  explicit CatalogueEvolver(const std::vector<CatalogEntry>& rows,
                            const std::string& root = "metadata");
  ~CatalogueEvolver();
  CatalogueEvolver(const CatalogueEvolver&) = delete;
  CatalogueEvolver& operator=(const CatalogueEvolver&) = delete;

  // Checks one event's object (null: none) and records its new fields and widenings. A value
  // whose type disagrees with the catalogue (e.g. catalogue STRING, event INT64 at
  // metadata.status) is recorded as a conflict and leaves that path's catalogue row alone; the
  // rest of the event is still learnt. New values that clash among themselves in one event
  // (an array and a single value, an INT64 and a STRING) are a conflict with catalogue type NONE
  // and are not catalogued. Returns false (and records nothing) only for a field name that is
  // empty or contains '.', or a string with a NUL character, setting *error. JSON nulls match
  // any type.
  bool Observe(const boost::json::object* object, std::string* error);

  // Changes since the last call, in the order they happened.
  std::vector<FieldChange> TakeChanges();
  // Conflicts since the last call, one per path and seen type, sorted by path.
  std::vector<TypeConflict> TakeConflicts();
  // Paths (existing or new) that events used since the last call.
  std::vector<std::string> TakeSeenPaths();
  // The current catalogue rows under metadata, sorted by path.
  std::vector<CatalogEntry> Rows(const std::string& source) const;

  struct Node;

 private:
  struct Pending;
  std::unique_ptr<Node> root_;
  std::vector<FieldChange> changes_;
  std::vector<TypeConflict> conflicts_;
};

}  // namespace lqe::schema
