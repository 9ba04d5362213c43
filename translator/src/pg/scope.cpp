#include "pg/scope.h"

#include "names.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

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
  } else if (type->kind == TypeKind::kArray) {
    v.sql = json_sql;
    v.json_array = true;
  } else {
    v.sql = CastJsonText(text_sql, type->kind);
  }
  return v;
}

}  // namespace

Value ColumnValue(const RangeVar& var, const Column& c) {
  Value v;
  v.sql = var.pg_alias + "." + QuoteLabel(c.name);
  v.type = c.type;
  v.json_array = c.json_array;
  v.path = c.name;
  v.metadata_column =
      names::EqualsIgnoreCase(c.name, "metadata") && IsKind(c.type, TypeKind::kRecord);
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

Value FromJson(std::string json_sql, const TypePtr& type, std::string path) {
  return TypedFromJson(json_sql, "(" + json_sql + " #>> '{}')", type, std::move(path));
}

Lookup LookupName(const Scope& scope, const ast::Identifier& name) {
  for (const Scope* s = &scope; s; s = s->parent) {
    // Tier 1: range variables. Tier 2: columns of rows. Tier 3: fields of UNNEST elements.
    for (const auto& var : s->vars) {
      if (!var.name.empty() && names::EqualsIgnoreCase(var.name, name.name))
        return {&var, {}, true};
    }
    for (const auto& u : s->using_columns) {
      if (!names::EqualsIgnoreCase(u, name.name)) continue;
      for (const auto& var : s->vars) {
        for (const auto& c : var.columns) {
          if (names::EqualsIgnoreCase(c.name, name.name)) {
            Value v = ColumnValue(var, c);
            v.sql = QuoteIdent(c.name);
            return {nullptr, v, true};
          }
        }
      }
    }
    Lookup found;
    for (const auto& var : s->vars) {
      for (const auto& c : var.columns) {
        if (!names::EqualsIgnoreCase(c.name, name.name)) continue;
        if (found.found) {
          translator::Fail(DiagCode::kUnknownName, name.span,
                           "column name \"" + name.name + "\" is ambiguous",
                           "Qualify it with a table alias.");
        }
        found = {nullptr, ColumnValue(var, c), true};
      }
    }
    if (found.found) return found;
    for (const auto& var : s->vars) {
      if (!var.fields_visible || !var.value.type || !var.value.type->FindField(name.name)) continue;
      if (found.found) {
        translator::Fail(DiagCode::kUnknownName, name.span,
                         "column name \"" + name.name + "\" is ambiguous",
                         "Qualify it with the UNNEST alias.");
      }
      found = {nullptr, FieldOf(var.value, name), true};
    }
    if (found.found) return found;
    // Tier 4: top-level keys kept in a row's `extra` column.
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
