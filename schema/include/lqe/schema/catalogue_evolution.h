// Catalogue evolution: checks each event's metadata against one source's field catalogue,
// adds new field paths, widens INT64 to FLOAT64 and rejects real type conflicts. Pure (no
// database): the loader writes the changes it reports in the same transaction as the events.
#pragma once

#include <boost/json/object.hpp>
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

class CatalogueEvolver {
 public:
  // `rows`: the catalogue of one source; only "metadata" and "metadata.*" paths matter.
  explicit CatalogueEvolver(const std::vector<CatalogEntry>& rows);
  ~CatalogueEvolver();
  CatalogueEvolver(const CatalogueEvolver&) = delete;
  CatalogueEvolver& operator=(const CatalogueEvolver&) = delete;

  // Checks one event's metadata (null: no metadata). On success records its new fields and
  // widenings and returns true. On a conflict changes nothing, sets *error (e.g.
  // "metadata.status: type conflict: catalogue has STRING, event has INT64") and returns false.
  // JSON nulls match any type.
  bool Observe(const boost::json::object* metadata, std::string* error);

  // Changes since the last call, in the order they happened.
  std::vector<FieldChange> TakeChanges();
  // Paths (existing or new) that events used since the last call.
  std::vector<std::string> TakeSeenPaths();
  // The current catalogue rows under metadata, sorted by path.
  std::vector<CatalogEntry> Rows(const std::string& source) const;

  struct Node;

 private:
  struct Pending;
  std::unique_ptr<Node> root_;
  std::vector<FieldChange> changes_;
};

}  // namespace lqe::schema
