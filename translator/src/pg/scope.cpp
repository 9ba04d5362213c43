#include "pg/scope.h"

#include "lqe/base/ascii.h"
#include "names.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

constexpr std::string_view kRecordsCall = "bq.json_records(";

// Text of a scalar read out of JSON as `text_sql` (a ->> or #>> expression), cast to its type.
// Stored values may disagree with the catalogue (the loader keeps them, see
// logs.catalogue_conflicts), so the casts that can fail on such text read NULL instead.
std::string CastJsonText(const std::string& text_sql, TypeKind kind) {
  if (kind == TypeKind::kString || kind == TypeKind::kUnknown) return text_sql;
  if (kind == TypeKind::kInt64) return "bq.json_int64(" + text_sql + ")";
  if (kind == TypeKind::kFloat64) return "bq.json_float64(" + text_sql + ")";
  if (kind == TypeKind::kBool) return "bq.safe_cast_bool(" + text_sql + ")";
  if (kind == TypeKind::kTimestamp) return "bq.safe_cast_timestamp(" + text_sql + ")";
  return "(" + text_sql + ")::" + std::string(PgTypeName(kind));
}

Value TypedFromJson(const std::string& json_sql, const std::string& text_sql, const TypePtr& type,
                    std::string path) {
  Value v;
  v.type = type;
  v.path = std::move(path);
  if (type->kind == TypeKind::kRecord || type->kind == TypeKind::kJson) {
    v.sql = json_sql;
  } else if (IsRepeatedRecord(type)) {
    // Stored as sent: an object (one element), an array of objects, or absent (BigQuery's []).
    v.sql = std::string(kRecordsCall) + json_sql + ")";
    v.json_array = true;
  } else if (type->kind == TypeKind::kArray) {
    v.sql = "COALESCE(" + json_sql + ", '[]'::jsonb)";  // a missing REPEATED field is []
    v.json_array = true;
  } else {
    v.sql = CastJsonText(text_sql, type->kind);
  }
  return v;
}

}  // namespace

bool IsRepeatedRecord(const TypePtr& type) {
  return IsKind(type, TypeKind::kArray) && IsKind(type->element, TypeKind::kRecord);
}

std::string RecordJson(const Value& v) {
  const std::string_view sql = v.sql;
  if (!sql.starts_with(kRecordsCall)) return v.sql;
  // Only when the call's closing parenthesis ends the text (quotes in literals balance out).
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = kRecordsCall.size() - 1; i < sql.size(); ++i) {
    if (sql[i] == '\'') quoted = !quoted;
    if (quoted) continue;
    depth += sql[i] == '(' ? 1 : sql[i] == ')' ? -1 : 0;
    if (depth == 0) {
      if (i + 1 != sql.size()) return v.sql;
      return std::string(sql.substr(kRecordsCall.size(), i - kRecordsCall.size()));
    }
  }
  return v.sql;
}

Value ColumnValue(const RangeVar& var, const Column& c) {
  Value v;
  v.sql = var.pg_alias + "." + QuoteLabel(c.name);
  v.type = c.type;
  v.json_array = c.json_array;
  v.path = c.name;
  if (c.not_null) v.not_null_sql = v.sql;
  if (!c.event_column.empty()) {
    v.event_sql = var.pg_alias + "." + QuoteIdent(c.event_column);
    v.event_for = v.sql;
  }
  if (c.single_record) {
    v.single_sql = v.sql;
    v.sql = "jsonb_build_array(" + v.single_sql + ")";
    v.json_array = true;
    if (c.promoted && !c.promoted->empty()) {
      v.promoted = c.promoted;
      v.promoted_row = var.pg_alias;
      v.promoted_sql = v.single_sql;
    }
  }
  return v;
}

Value SingleElement(const Value& record) {
  Value v = FromJson(record.single_sql, record.type->element, record.path);
  if (record.promoted && v.sql == record.promoted_sql) {
    v.promoted = record.promoted;
    v.promoted_row = record.promoted_row;
    v.promoted_sql = record.promoted_sql;
  }
  return v;
}

Value FieldOf(const Value& record, const ast::Identifier& name) {
  const StructField* f = record.type ? record.type->FindField(name.name) : nullptr;
  if (!f) {
    std::vector<std::string> names;
    if (record.type) {
      for (const auto& field : record.type->fields) names.push_back(field.name);
    }
    const std::string where = record.path.empty() ? "the record" : record.path;
    translator::Fail(DiagCode::kUnknownName, name.span,
                     "field \"" + name.name + "\" not found in " + where,
                     names::DidYouMean(name.name, names));
  }
  const std::string key = QuoteLiteral(f->name);
  const std::string path = record.path.empty() ? f->name : record.path + "." + f->name;
  if (record.promoted && record.sql == record.promoted_sql && f->type) {
    std::string lower(f->name);
    for (char& c : lower) c = ascii::ToLower(c);
    const std::string promoted_path =
        record.promoted_prefix.empty() ? lower : record.promoted_prefix + "." + lower;
    const bool scalar = f->type->kind != TypeKind::kRecord && f->type->kind != TypeKind::kArray;
    const auto it = scalar ? record.promoted->find(promoted_path) : record.promoted->end();
    if (it != record.promoted->end() && record.promoted_prefix.empty()) {
      // A promoted field: its column holds exactly the jsonb read below (filled on insert).
      Value v;
      v.sql = record.promoted_row + "." + QuoteIdent(it->second);
      v.type = f->type;
      v.path = path;
      return v;
    }
    Value v = TypedFromJson("(" + record.sql + " -> " + key + ")",
                            "(" + record.sql + " ->> " + key + ")", f->type, path);
    if (it != record.promoted->end()) {
      // Inside a REPEATED record: the row's lowest and highest value over its elements.
      v.row_min = record.promoted_row + "." + QuoteIdent(it->second + "_min");
      v.row_max = record.promoted_row + "." + QuoteIdent(it->second + "_max");
      v.row_for = v.sql;
    } else if (IsRepeatedRecord(f->type)) {
      v.promoted = record.promoted;
      v.promoted_row = record.promoted_row;
      v.promoted_sql = v.sql;
      v.promoted_prefix = promoted_path;
    }
    return v;
  }
  return TypedFromJson("(" + record.sql + " -> " + key + ")",
                       "(" + record.sql + " ->> " + key + ")", f->type, path);
}

std::optional<Value> ExtraColumnValue(const RangeVar& var, const ast::Identifier& name) {
  if (var.kind != RangeVar::Kind::kRow) return std::nullopt;
  for (const auto& c : var.columns) {
    if (!names::EqualsIgnoreCase(c.name, "extra") || !IsKind(c.type, TypeKind::kRecord)) continue;
    if (c.type->FindField(name.name) == nullptr) return std::nullopt;
    return FieldOf(ColumnValue(var, c), name);
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> RowImpliedByMatch(const Value& field,
                                                                   const std::string& pred_sql) {
  if (!HasRowRange(field) || !IsKind(field.type, TypeKind::kString)) return {};
  std::string on_row;
  std::size_t from = 0;
  for (std::size_t at = pred_sql.find(field.sql); at != std::string::npos;
       at = pred_sql.find(field.sql, from)) {
    // In the read's own collation: a regex class can depend on it, the column is "C".
    on_row.append(pred_sql, from, at - from).append("(" + field.row_max + " COLLATE \"default\")");
    from = at + field.sql.size();
  }
  if (from == 0) return {};
  on_row.append(pred_sql, from);
  // <> compares the values themselves (deterministic collations).
  return {{field.row_min.substr(0, field.row_min.rfind('.')),
           "(" + field.row_min + " <> " + field.row_max + " OR " + on_row + ")"}};
}

Value FromJson(const std::string& json_sql, const TypePtr& type, std::string path) {
  return TypedFromJson(json_sql, "(" + json_sql + " #>> '{}')", type, std::move(path));
}

Lookup LookupName(const Scope& scope, const ast::Identifier& name) {
  for (const Scope* s = &scope; s; s = s->parent) {
    // Tier 1: range variables. Tier 2: columns and fields of UNNEST elements. Tier 3: extra.
    for (const auto& var : s->vars) {
      if (!var.name.empty() && names::EqualsIgnoreCase(var.name, name.name)) {
        return {&var, {}, true};
      }
    }
    for (const auto& u : s->using_columns) {
      if (!names::EqualsIgnoreCase(u, name.name)) continue;
      for (const auto& var : s->vars) {
        for (const auto& c : var.columns) {
          if (names::EqualsIgnoreCase(c.name, name.name)) {
            Value v = ColumnValue(var, c);
            if (c.single_record) {
              v.single_sql = QuoteIdent(c.name);
              v.sql = "jsonb_build_array(" + v.single_sql + ")";
            } else {
              v.sql = QuoteIdent(c.name);
            }
            return {nullptr, v, true};
          }
        }
      }
    }
    // Tier 2: columns of rows and fields of UNNESTed records, one namespace as in BigQuery: a
    // name that is both a column and a field of an UNNEST element is ambiguous.
    Lookup found;
    std::string found_where;
    auto take = [&](Value v, std::string where) {
      if (found.found) {
        std::string message = "column name \"";
        message.append(name.name).append("\" is ambiguous: ").append(found_where);
        message.append(" and ").append(where);
        translator::Fail(DiagCode::kUnknownName, name.span, std::move(message),
                         "Qualify it with a table or UNNEST alias.");
      }
      found = {nullptr, std::move(v), true};
      found_where = std::move(where);
    };
    for (const auto& var : s->vars) {
      for (const auto& c : var.columns) {
        if (!names::EqualsIgnoreCase(c.name, name.name)) continue;
        take(ColumnValue(var, c), var.name.empty() ? "a column" : "a column of " + var.name);
      }
    }
    for (const auto& var : s->vars) {
      if (!var.fields_visible || !var.value.type || !var.value.type->FindField(name.name)) continue;
      take(FieldOf(var.value, name),
           var.name.empty() ? "a field of an UNNEST element" : "a field of " + var.name);
    }
    if (found.found) return found;
    // Tier 3: top-level keys kept in a row's `extra` column.
    for (const auto& var : s->vars) {
      std::optional<Value> extra = ExtraColumnValue(var, name);
      if (!extra) continue;
      if (found.found) {
        translator::Fail(DiagCode::kUnknownName, name.span,
                         "column name \"" + name.name + "\" is ambiguous",
                         "Qualify it with a table alias.");
      }
      found = {nullptr, *extra, true};
    }
    if (found.found) return found;
  }
  return {};
}

std::vector<std::string> VisibleNames(const Scope& scope) {
  std::vector<std::string> names;
  for (const Scope* s = &scope; s; s = s->parent) {
    for (const auto& var : s->vars) {
      if (!var.name.empty()) names.push_back(var.name);
      for (const auto& c : var.columns) names.push_back(c.name);
      if (var.fields_visible && var.value.type) {
        for (const auto& f : var.value.type->fields) names.push_back(f.name);
      }
    }
  }
  return names;
}

}  // namespace lqe::pg
