// The field catalogue: a BigQuery-style schema for each log source.
//
// It is stored in Postgres (table logs.field_catalogue, one row per field path) and seeded from
// schema/catalogue_seed.tsv. The translator reads it to type every nested field; the loader
// (schema/) evolves it. This header is the read side and has no database code.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/types.h"

namespace lqe {

// One row of the catalogue, e.g. {"edge", "metadata.response.status_code", "INT64", "NULLABLE"}.
// Types: STRING, INT64, FLOAT64, BOOL, TIMESTAMP, RECORD. Modes: NULLABLE, REPEATED.
// A RECORD with mode NULLABLE is one JSON object (BigQuery clients see it as a one-element
// repeated record); REPEATED means a JSON array.
struct CatalogEntry {
  std::string source;
  std::string path;
  std::string type;
  std::string mode = "NULLABLE";
  // A promoted field's typed column on the source table (logs.promoted_fields.column_name), set
  // only once it is backfilled: it then holds exactly the field's jsonb read, and queries read it.
  std::string column = {};
};

// Field path under metadata (lower-case) -> the typed column holding it: "status" -> p_status;
// a field inside a nested (REPEATED) record, "response.status_code", -> the base name of its
// p_response_status_code_min / _max columns (lowest and highest value over the elements).
using PromotedColumns = std::map<std::string, std::string, std::less<>>;

struct SourceSchema {
  std::string name;          // "edge"
  std::string pg_schema;     // "logs"
  std::string pg_table;      // "edge"
  TypePtr row;               // RECORD of the top-level columns: id, timestamp, event_message, ...
  PromotedColumns promoted;  // scalar fields of metadata read from a typed column instead
};

class Catalog {
 public:
  // Builds the catalogue from rows in any order. Parents are implied by children's paths.
  // Returns an error message naming the row for an unknown type or a path that conflicts
  // (a field that is a scalar in one row and a record parent in another).
  static Catalog FromEntries(const std::vector<CatalogEntry>& entries, std::string* error);
  // Parses the seed format: tab-separated source, path, type, mode; '#' comments; blank lines.
  static std::vector<CatalogEntry> ParseTsv(std::string_view text, std::string* error);

  // Looks a source up by its table name ("edge"), case-insensitively.
  const SourceSchema* FindSource(std::string_view name) const;
  std::vector<std::string> SourceNames() const;
  bool empty() const { return sources_.empty(); }

 private:
  std::map<std::string, SourceSchema, std::less<>> sources_;  // key: lower-case name
};

}  // namespace lqe
