#include "resolve/scope.h"

#include <algorithm>
#include <cctype>

#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::resolve {
namespace {

// ASCII case folding: BigQuery names are case-insensitive ASCII; std::tolower's locale lookup
// showed up in profiles.
char Fold(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const std::size_t cost = Fold(a[i - 1]) == Fold(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      diag = up;
    }
  }
  return row[b.size()];
}

// Text of a scalar read out of JSON as `text_sql` (a ->> or #>> expression), cast to its type.
// Stored values may disagree with the catalogue (the loader keeps them, see
// logs.catalogue_conflicts), so the casts that can fail on such text read NULL instead.
std::string CastJsonText(const std::string& text_sql, TypeKind kind) {
  if (kind == TypeKind::kString || kind == TypeKind::kUnknown) return text_sql;
  if (kind == TypeKind::kInt64) return "bq.json_int64(" + text_sql + ")";
  if (kind == TypeKind::kFloat64) return "bq.json_float64(" + text_sql + ")";
  if (kind == TypeKind::kBool) return "bq.safe_cast_bool(" + text_sql + ")";
  if (kind == TypeKind::kTimestamp) return "bq.safe_cast_timestamp(" + text_sql + ")";
  return "(" + text_sql + ")::" + std::string(pg::PgTypeName(kind));
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

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return Fold(x) == Fold(y); });
}

std::string Suggest(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = EditDistance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string s = Suggest(name, candidates);
  return s.empty() ? std::string() : "Did you mean \"" + s + "\"?";
}

Value ColumnValue(const RangeVar& var, const Column& c) {
  Value v;
  v.sql = var.pg_alias + "." + pg::QuoteLabel(c.name);
  v.type = c.type;
  v.json_array = c.json_array;
  v.path = c.name;
  v.metadata_column = EqualsIgnoreCase(c.name, "metadata") && pg::IsKind(c.type, TypeKind::kRecord);
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
                     DidYouMean(name.name, names));
  }
  const std::string key = pg::QuoteLiteral(f->name);
  const std::string path = record.path.empty() ? f->name : record.path + "." + f->name;
  return TypedFromJson("(" + record.sql + " -> " + key + ")",
                       "(" + record.sql + " ->> " + key + ")", f->type, path);
}

Value FromJson(std::string json_sql, const TypePtr& type, std::string path) {
  return TypedFromJson(json_sql, "(" + json_sql + " #>> '{}')", type, std::move(path));
}

Lookup LookupName(const Scope& scope, const ast::Identifier& name) {
  for (const Scope* s = &scope; s; s = s->parent) {
    // Tier 1: range variables. Tier 2: columns of rows. Tier 3: fields of UNNEST elements.
    for (const auto& var : s->vars) {
      if (!var.name.empty() && EqualsIgnoreCase(var.name, name.name)) return {&var, {}, true};
    }
    for (const auto& u : s->using_columns) {
      if (!EqualsIgnoreCase(u, name.name)) continue;
      for (const auto& var : s->vars) {
        for (const auto& c : var.columns) {
          if (EqualsIgnoreCase(c.name, name.name)) {
            Value v = ColumnValue(var, c);
            v.sql = pg::QuoteIdent(c.name);
            return {nullptr, v, true};
          }
        }
      }
    }
    Lookup found;
    for (const auto& var : s->vars) {
      for (const auto& c : var.columns) {
        if (!EqualsIgnoreCase(c.name, name.name)) continue;
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

}  // namespace lqe::resolve
