// Name resolution, part of the single binding+typing+emitting pass (see emitter.h): what a name
// in a query means (a column of a FROM item, a row used as a value, an UNNEST element, a CTE)
// and the PostgreSQL expression that reads it, with its BigQuery type.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ast/node.h"
#include "lqe/catalog.h"
#include "lqe/types.h"

namespace lqe::pg {

// An emitted PostgreSQL expression and its BigQuery type.
struct Value {
  std::string sql;
  TypePtr type;
  bool json_array = false;  // an ARRAY held as a jsonb array (catalogue REPEATED), not a PG array
  bool loose_int = false;   // an integer literal (PG int4) or arithmetic on them
  std::string path;         // where a record came from, for messages ("metadata.response")
  // A REPEATED record known to hold exactly one element (the metadata column: the loader stores
  // only an object there): that element's SQL. UNNEST then binds it without a join, so predicates
  // on its fields stay index-friendly; `sql` is the same value as a jsonb array.
  std::string single_sql;
  // The metadata element of a log table's row: its promoted fields are read from typed columns
  // (`promoted_row` is the row's qualifier) while `sql` is still exactly `promoted_sql`.
  const PromotedColumns* promoted = nullptr;
  std::string promoted_row = {};
  std::string promoted_sql = {};
  // The SQL of a column that is never NULL here (a log table's "timestamp", not on the outer
  // side of a join). It vouches for the value only while `sql` is still exactly this.
  std::string not_null_sql = {};
  // Inside a REPEATED record of that metadata element (an UNNEST element, or the record itself):
  // the lower-case path from metadata ("response"), for fields promoted as min/max columns.
  std::string promoted_prefix = {};
  // A scalar field inside a REPEATED record promoted as the lowest and highest value over the
  // row's elements: those columns, so a comparison on one element implies one on the row.
  std::string row_min = {};
  std::string row_max = {};
  std::string row_for = {};  // the `sql` these were set for: a wrapper changing it drops them
  // Conditions on a table row that are necessary for this BOOL to be true (a comparison on a
  // promoted element field, ANDed): WHERE adds them next to the exact predicate, as index
  // conditions. Each is (the row's qualifier, the condition).
  std::vector<std::pair<std::string, std::string>> implied = {};
  std::string implied_for = {};  // the `sql` they were set for (see row_for)
  // logs.otel's log_attributes (or a copy of it through a CTE or derived table): the SQL of its
  // row's logs.otel_event, from which logs.otel_attribute reads one key without building the
  // map. Valid while `sql` is still exactly `event_for`.
  std::string event_sql = {};
  std::string event_for = {};
};

// The row conditions `v` implies, unless an expression built on it changed its SQL.
inline std::vector<std::pair<std::string, std::string>> ImpliedOf(const Value& v) {
  return v.implied_for == v.sql ? v.implied : std::vector<std::pair<std::string, std::string>>{};
}
// True when `v` is an element field promoted as its row's min/max columns, as read.
inline bool HasRowRange(const Value& v) {
  return !v.row_min.empty() && v.row_for == v.sql;
}
// For a predicate `pred_sql` on the STRING element field `field` alone that is never true on NULL
// (a match, LIKE): an element matching means the row's values differ or its one value (max)
// matches too. Empty when not applicable.
std::vector<std::pair<std::string, std::string>> RowImpliedByMatch(const Value& field,
                                                                   const std::string& pred_sql);

struct Column {
  std::string name;  // BigQuery name as declared
  TypePtr type;
  bool json_array = false;
  bool single_record = false;  // holds the one element of a REPEATED record (see single_sql)
  const PromotedColumns* promoted = nullptr;  // a log table's metadata with promoted fields
  bool not_null = false;  // never NULL: a log table's NOT NULL "timestamp", or a copy of one
  // logs.otel's log_attributes: the PG column (of the same row) holding its logs.otel_event.
  std::string event_column = {};
};

// One FROM item visible by name.
struct RangeVar {
  enum class Kind : std::uint8_t { kRow, kValue };
  Kind kind = Kind::kRow;
  std::string name;             // BigQuery alias, matched case-insensitively; may be empty
  std::string pg_alias;         // kRow: the PG qualifier (already quoted)
  std::vector<Column> columns;  // kRow
  Value value;                  // kValue: the element (UNNEST alias, WITH OFFSET alias)
  bool fields_visible = false;  // kValue record from UNNEST: its fields resolve unqualified
};

struct Scope {
  const Scope* parent = nullptr;
  std::vector<RangeVar> vars;
  std::vector<std::string> using_columns;  // JOIN ... USING (c): c resolves unqualified
};

// Reads column `c` of a kRow range var.
Value ColumnValue(const RangeVar& var, const Column& c);
// Reads field `name` of a record-typed value; throws kUnknownName with a suggestion.
Value FieldOf(const Value& record, const ast::Identifier& name);
// A top-level key that ingest kept in the `extra` column (appname, severity, ...), read by its
// bare name as BigQuery (where it is a column) would: the row's extra.<name>, when the row has an
// `extra` record with that field. Nullopt otherwise.
std::optional<Value> ExtraColumnValue(const RangeVar& var, const ast::Identifier& name);
// A JSON value holding an element of `type` (from -> or jsonb_array_elements) as a typed Value.
Value FromJson(const std::string& json_sql, const TypePtr& type, std::string path);
// The one element of `record` (a single-record Value, see single_sql), keeping its promoted
// columns.
Value SingleElement(const Value& record);
// A REPEATED record's JSON as stored (an object, an array of objects, or absent): `v.sql`
// without the bq.json_records() that makes it an array, for bq.json_record_elements.
std::string RecordJson(const Value& v);
// True for ARRAY<STRUCT<...>>: a REPEATED record (every nested record, as in Logflare's schema).
bool IsRepeatedRecord(const TypePtr& type);

// The result of looking up the first name of a path.
struct Lookup {
  const RangeVar* var = nullptr;  // the name is a range variable
  Value column;                   // otherwise: the column or implicit field it names
  bool found = false;
};
// Looks `name` up through the scope chain; throws on ambiguity. found=false when absent.
Lookup LookupName(const Scope& scope, const ast::Identifier& name);
// Every name visible from `scope`, for suggestions.
std::vector<std::string> VisibleNames(const Scope& scope);

}  // namespace lqe::pg
