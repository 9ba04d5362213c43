// The checks of a rollup declaration that need no database.
#include <set>
#include <string_view>

#include "lqe/schema/migrate.h"
#include "lqe/schema/rollups.h"

namespace lqe::schema {
namespace {

bool IsLower(char c) {
  return c >= 'a' && c <= 'z';
}
bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsLetter(char c) {
  return IsLower(c) || (c >= 'A' && c <= 'Z');
}

// [a-z_][a-z0-9_]* of 1 to max_length characters (first_may_be_underscore: else [a-z] first).
bool IsLowerIdentifier(std::string_view s, std::size_t max_length, bool first_may_be_underscore) {
  if (s.empty() || s.size() > max_length) return false;
  if (!IsLower(s[0]) && !(first_may_be_underscore && s[0] == '_')) return false;
  for (const char c : s) {
    if (!IsLower(c) && !IsDigit(c) && c != '_') return false;
  }
  return true;
}

// Names of [A-Za-z_][A-Za-z0-9_]* joined by single dots.
bool IsFieldPath(std::string_view s) {
  bool at_start = true;
  for (const char c : s) {
    if (c == '.') {
      if (at_start) return false;
      at_start = true;
    } else if (IsLetter(c) || c == '_' || (!at_start && IsDigit(c))) {
      at_start = false;
    } else {
      return false;
    }
  }
  return !at_start;
}

[[noreturn]] void Refuse(const RollupDef& def, const std::string& message) {
  throw SchemaError("rollup " + def.name + ": " + message);
}

// A column is a field at the top of the event; anything deeper lies in metadata or extra.
void CheckFieldPath(const RollupDef& def, const std::string& what, const std::string& field) {
  if (!IsFieldPath(field)) {
    Refuse(def, what + ": field '" + field +
                    "' is not a field path (names of letters, digits and _ joined by dots)");
  }
  const bool nested = field.starts_with("metadata.") || field.starts_with("extra.");
  if (!nested && field != "project" && field != "id" && field != "event_message") {
    Refuse(def, what + ": field '" + field +
                    "' is not project, id, event_message or a path under metadata. or extra.");
  }
}

void CheckColumnName(const RollupDef& def, const std::string& name, std::set<std::string>& taken) {
  if (!IsLowerIdentifier(name, 63, true)) {
    Refuse(def, "column name '" + name + "' must be a lower-case identifier");
  }
  if (name == "timestamp") Refuse(def, "column name 'timestamp' is the bucket's own column");
  if (!taken.insert(name).second) Refuse(def, "column name '" + name + "' is used twice");
}

void CheckMeasure(const RollupDef& def, const RollupMeasure& m) {
  const std::string what = "measure " + m.name;
  switch (m.agg) {
    case RollupAgg::kCount:
      if (!m.field.empty()) Refuse(def, what + ": count takes no field (it counts events)");
      break;
    case RollupAgg::kCountIf: {
      if (!m.field.empty()) Refuse(def, what + ": countif takes its field inside where");
      if (m.where.field.empty()) Refuse(def, what + ": countif needs where: {field, op, value}");
      CheckFieldPath(def, what, m.where.field);
      static const std::set<std::string> ops = {
          "=", "!=", "<", "<=", ">", ">=", "is_null", "is_not_null"};
      if (!ops.contains(m.where.op)) {
        Refuse(def, what + ": op '" + m.where.op +
                        "' is not one of =, !=, <, <=, >, >=, is_null, is_not_null");
      }
      break;
    }
    case RollupAgg::kSum:
    case RollupAgg::kMin:
    case RollupAgg::kMax:
      if (m.field.empty()) Refuse(def, what + ": sum, min and max need a field");
      CheckFieldPath(def, what, m.field);
      break;
  }
}

}  // namespace

void CheckRollupShape(const RollupDef& def) {
  if (!IsLowerIdentifier(def.name, 40, false)) {
    throw SchemaError("rollup name '" + def.name +
                      "' must be a lower-case identifier of at most 40 characters");
  }
  static const std::set<std::string> sources = {
      "edge",     "postgres", "function_edge", "function_events", "auth",
      "realtime", "storage",  "restapi",       "pooler"};
  if (!sources.contains(def.source)) {
    Refuse(def, "source '" + def.source +
                    "' is not a log table (edge, postgres, function_edge, function_events, auth, "
                    "realtime, storage, restapi, pooler)");
  }
  static const std::set<std::string> buckets = {"second", "minute", "hour", "day"};
  if (!buckets.contains(def.bucket)) {
    Refuse(def, "bucket '" + def.bucket + "' is not one of second, minute, hour, day");
  }
  if (def.measures.empty()) Refuse(def, "at least one measure is needed");
  std::set<std::string> taken;
  for (const RollupDimension& d : def.dimensions) {
    CheckColumnName(def, d.name, taken);
    CheckFieldPath(def, "dimension " + d.name, d.field);
  }
  for (const RollupMeasure& m : def.measures) {
    CheckColumnName(def, m.name, taken);
    CheckMeasure(def, m);
  }
}

}  // namespace lqe::schema
