// Names and nested access: paths (columns, rows, UNNEST elements, record fields), field access
// on expressions, and subscripts (OFFSET 0-based, ORDINAL 1-based, SAFE_ variants NULL when out
// of range; a single record is a one-element array).
#include "lqe/base/ascii.h"
#include "pg/emitter.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;

// The value of an integer literal index, when the index is one.
std::optional<long long> LiteralIndex(const ast::Expr& e) {
  if (e.Is<ast::Literal>() && e.As<ast::Literal>().literal_kind == ast::Literal::Kind::kInt &&
      e.As<ast::Literal>().text.size() < 12) {
    return std::stoll(e.As<ast::Literal>().text);
  }
  if (e.Is<ast::Unary>() && e.As<ast::Unary>().op == ast::Unary::Op::kNegate) {
    if (auto v = LiteralIndex(*e.As<ast::Unary>().operand)) return -*v;
  }
  return std::nullopt;
}

}  // namespace

Value Emitter::EmitRowValue(const RangeVar& var) {
  std::vector<StructField> fields;
  // A log table's row is built from its catalogued columns: the table also has the typed
  // columns of promoted fields (p_*), which are not part of the BigQuery row.
  bool log_table = false;
  std::string pairs;
  for (const auto& c : var.columns) {
    fields.push_back({c.name, c.type});
    log_table = log_table || c.promoted != nullptr;
    pairs += (pairs.empty() ? "" : ", ") + QuoteLiteral(c.name) + ", " + var.pg_alias + "." +
             QuoteLabel(c.name);
  }
  Value v;
  v.sql = log_table ? "jsonb_build_object(" + pairs + ")" : "to_jsonb(" + var.pg_alias + ")";
  v.type = Type::Record(std::move(fields));
  v.path = var.name;
  return v;
}

Value Emitter::EmitValueField(const Value& base, const ast::Identifier& field,
                              const std::string& written) {
  if (IsKind(base.type, TypeKind::kRecord)) return FieldOf(base, field);
  if (IsRepeatedRecord(base.type)) {
    // BigQuery's rule and message: a field of a REPEATED record is read through UNNEST.
    const std::string array = written.empty() ? base.path : written;
    const std::string last = array.substr(array.rfind('.') + 1);
    const std::string alias(1, last.empty() ? 'x' : ascii::ToLower(last[0]));
    Fail(DiagCode::kType, field.span,
         "Cannot access field " + field.name + " on a value with type ARRAY<STRUCT<...>>" +
             (array.empty() ? "" : " (" + array + " is a repeated record)"),
         "UNNEST the repeated record: cross join unnest(" + array + ") as " + alias + " ... " +
             alias + "." + field.name);
  }
  if (IsKind(base.type, TypeKind::kJson)) {
    Value v;
    v.sql = "(" + base.sql + " -> " + QuoteLiteral(field.name) + ")";
    v.type = base.type;
    return v;
  }
  const std::string type = base.type ? TypeName(*base.type) : "NULL";
  const std::string where = base.path.empty() ? "" : " " + base.path;
  Fail(DiagCode::kType, field.span,
       "cannot access field \"" + field.name + "\" on" + where + " of type " + type,
       IsKind(base.type, TypeKind::kArray) ? "Use UNNEST, or [OFFSET(0)] for the first element."
                                           : "");
}

Value Emitter::EmitPath(const ast::Path& path) {
  const auto& first = path.parts.front();
  const Lookup lookup = LookupName(*scope_, first);
  if (!lookup.found) {
    if (select_.aliases_visible && select_.items && path.parts.size() == 1) {
      for (const auto& item : *select_.items) {
        if (names::EqualsIgnoreCase(item.name, first.name)) return item.value;
      }
    }
    std::vector<std::string> names = VisibleNames(*scope_);
    Fail(DiagCode::kUnknownName, first.span, "column \"" + first.name + "\" not found",
         names::DidYouMean(first.name, names));
  }
  Value v;
  std::size_t next = 1;
  if (lookup.var && lookup.var->kind == RangeVar::Kind::kRow) {
    if (path.parts.size() == 1) return EmitRowValue(*lookup.var);
    const auto& col = path.parts[1];
    const Column* found = nullptr;
    std::vector<std::string> names;
    for (const auto& c : lookup.var->columns) {
      names.push_back(c.name);
      if (names::EqualsIgnoreCase(c.name, col.name)) found = &c;
    }
    if (!found) {
      if (std::optional<Value> extra = ExtraColumnValue(*lookup.var, col)) {
        v = *extra;
        for (std::size_t i = 2; i < path.parts.size(); ++i) v = EmitValueField(v, path.parts[i]);
        return v;
      }
      Fail(DiagCode::kUnknownName, col.span,
           "column \"" + col.name + "\" not found in " + lookup.var->name,
           names::DidYouMean(col.name, names));
    }
    v = ColumnValue(*lookup.var, *found);
    next = 2;
  } else {
    v = lookup.var ? lookup.var->value : lookup.column;
  }
  std::string written;
  for (std::size_t i = 0; i < next; ++i) written += (i ? "." : "") + path.parts[i].name;
  for (; next < path.parts.size(); ++next) {
    v = EmitValueField(v, path.parts[next], written);
    written += "." + path.parts[next].name;
  }
  return v;
}

Value Emitter::EmitFieldAccess(const ast::FieldAccess& access) {
  return EmitValueField(EmitExpr(*access.base), access.field);
}

Value Emitter::EmitSubscript(const ast::Subscript& sub) {
  using M = ast::Subscript::Mode;
  const bool safe = sub.mode == M::kSafeOffset || sub.mode == M::kSafeOrdinal;
  const bool ordinal = sub.mode == M::kOrdinal || sub.mode == M::kSafeOrdinal;
  std::optional<long long> literal = LiteralIndex(*sub.index);
  if (literal && ordinal) *literal -= 1;
  // dates[0] where dates is a table alias: a positional column of that row.
  if (sub.base->Is<ast::Path>() && sub.base->As<ast::Path>().parts.size() == 1) {
    const auto lookup = LookupName(*scope_, sub.base->As<ast::Path>().parts[0]);
    if (lookup.var && lookup.var->kind == RangeVar::Kind::kRow) {
      const auto& cols = lookup.var->columns;
      if (!literal || *literal < 0 || *literal >= static_cast<long long>(cols.size())) {
        Fail(DiagCode::kType, sub.index->span,
             "a subscript on a row needs a literal position from 0 to " +
                 std::to_string(cols.size() - 1));
      }
      return ColumnValue(*lookup.var, cols[static_cast<std::size_t>(*literal)]);
    }
  }
  Value base = EmitExpr(*sub.base);
  const Value index = EmitExpr(*sub.index);
  if (!IsKind(index.type, TypeKind::kInt64) && !IsKind(base.type, TypeKind::kJson)) {
    Fail(DiagCode::kType, sub.index->span, "array subscript expects an INT64 index");
  }
  const std::string idx0 = literal   ? std::to_string(*literal)
                           : ordinal ? "(" + index.sql + " - 1)"
                                     : index.sql;
  const std::string safe_sql = safe ? "true" : "false";
  if (!base.single_sql.empty() && literal && *literal == 0) {
    return SingleElement(base);  // its one element
  }
  if (IsKind(base.type, TypeKind::kRecord)) {
    if (literal && *literal == 0) return base;
    if (literal && safe) return Value{"NULL::jsonb", base.type, false, false, base.path, {}};
    return FromJson("bq.jsonb_at(" + base.sql + ", " + idx0 + ", " + safe_sql + ")", base.type,
                    base.path);
  }
  if (IsKind(base.type, TypeKind::kArray)) {
    const TypePtr elem = base.type->element ? base.type->element : Type::Scalar(TypeKind::kUnknown);
    if (base.json_array) {
      return FromJson("bq.jsonb_at(" + base.sql + ", " + idx0 + ", " + safe_sql + ")", elem,
                      base.path);
    }
    return Value{"bq.array_at(" + base.sql + ", " + idx0 + ", " + safe_sql + ")",
                 elem,
                 false,
                 false,
                 base.path,
                 {}};
  }
  if (IsKind(base.type, TypeKind::kJson)) {
    return Value{"(" + base.sql + " -> " + index.sql + ")", base.type, false, false, "", {}};
  }
  Fail(DiagCode::kType, sub.span,
       "cannot subscript a value of type " + (base.type ? TypeName(*base.type) : "NULL"));
}

}  // namespace lqe::pg
