// GROUP BY, ORDER BY and window specifications.
#include "pg/emitter.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

// PostgreSQL reads a bare constant in ORDER BY as an error ("non-integer constant"), or as an
// ordinal when it is an integer, so a select item that emitted as one is sorted by position.
bool IsBareConstant(const Value& v) {
  const std::string& sql = v.sql;
  if (sql.empty() || sql[0] == '\'' || v.loose_int) return true;
  if (sql == "NULL" || sql == "true" || sql == "false") return true;
  if (sql[0] != '-' && sql[0] != '.' && !(sql[0] >= '0' && sql[0] <= '9')) return false;
  for (std::size_t i = 1; i < sql.size(); ++i) {
    const char c = sql[i];
    if (!(c >= '0' && c <= '9') && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string Emitter::EmitGroupBy(const ast::Select& select, std::vector<SelectItemOut>& items) {
  std::string sql;
  for (const auto& e : select.group_by) {
    std::string part;
    // Output aliases and ordinals become PG ordinals: PG would prefer an input column of the
    // same name, BigQuery prefers the alias.
    if (const SelectItemOut* item = FindOutputAlias(*e, items)) {
      part = std::to_string(item - items.data() + 1);
    } else {
      part = EmitExpr(*e).sql;
    }
    sql += (sql.empty() ? " GROUP BY " : ", ") + part;
  }
  return sql;
}

Emitter::OrderKey Emitter::EmitOrderKey(const ast::OrderItem& item,
                                        std::vector<SelectItemOut>* items) {
  std::string sql;
  TypePtr type;
  bool not_null = false;
  const SelectItemOut* alias = items ? FindOutputAlias(*item.expr, *items) : nullptr;
  if (alias) {
    type = alias->value.type;
    not_null = !alias->value.not_null_sql.empty() && alias->value.sql == alias->value.not_null_sql;
    // A constant cannot be a PG sort key expression; its position can.
    sql =
        IsBareConstant(alias->value) ? std::to_string(alias - items->data() + 1) : alias->value.sql;
  } else {
    const Value v = EmitExpr(*item.expr);
    sql = v.sql;
    type = v.type;
    not_null = !v.not_null_sql.empty() && v.sql == v.not_null_sql;
  }
  OrderKey key{sql, "", alias && sql[0] >= '0' && sql[0] <= '9'};
  // BigQuery compares strings byte-wise.
  if (IsKind(type, TypeKind::kString) && !key.ordinal) key.sql += " COLLATE \"C\"";
  key.direction = item.descending ? " DESC" : " ASC";
  // Without NULLs, PostgreSQL's default (DESC NULLS FIRST, ASC NULLS LAST) is the same order,
  // and it is the order of the day partitions and of their (project, "timestamp" DESC) indexes:
  // PostgreSQL 15 then reads the partitions one after the other, newest first, and stops at the
  // LIMIT (an ordered Append), instead of merging every partition in range.
  if (not_null) return key;
  using N = ast::OrderItem::Nulls;
  const bool nulls_first =
      item.nulls == N::kFirst || (item.nulls == N::kDefault && !item.descending);
  key.direction += nulls_first ? " NULLS FIRST" : " NULLS LAST";
  return key;
}

std::string Emitter::EmitOrderItem(const ast::OrderItem& item, std::vector<SelectItemOut>* items) {
  const OrderKey key = EmitOrderKey(item, items);
  return key.sql + key.direction;
}

std::string Emitter::EmitOrderBy(const std::vector<ast::OrderItem>& order_by,
                                 std::vector<SelectItemOut>* items) {
  std::string sql;
  for (const auto& item : order_by) {
    sql += (sql.empty() ? " ORDER BY " : ", ") + EmitOrderItem(item, items);
  }
  return sql;
}

// RANGE with n PRECEDING/FOLLOWING needs one numeric ORDER BY key, in BigQuery as in PostgreSQL
// (which would otherwise fail with 0A000 when the query runs).
void Emitter::CheckRangeOffsetOrder(const ast::WindowSpec& spec) {
  using B = ast::WindowFrame::BoundKind;
  const ast::WindowFrame& f = *spec.frame;
  auto has_offset = [](const ast::WindowFrame::Bound& b) {
    return b.kind == B::kPreceding || b.kind == B::kFollowing;
  };
  if (f.unit != ast::WindowFrame::Unit::kRange ||
      !(has_offset(f.start) || (f.end && has_offset(*f.end)))) {
    return;
  }
  if (spec.base_name && spec.order_by.empty()) return;  // ordered by the named window
  if (spec.order_by.size() != 1) {
    translator::Fail(DiagCode::kUnsupported, f.span,
                     "RANGE with PRECEDING or FOLLOWING needs exactly one ORDER BY expression",
                     "Use ROWS, or order the window by a single numeric expression.");
  }
  const Value key = EmitExpr(*spec.order_by.front().expr);
  if (!IsKind(key.type, TypeKind::kInt64) && !IsKind(key.type, TypeKind::kFloat64) &&
      !IsKind(key.type, TypeKind::kNumeric) && !key.loose_int) {
    translator::Fail(DiagCode::kUnsupported, f.span,
                     "RANGE with PRECEDING or FOLLOWING needs a numeric ORDER BY expression, got " +
                         (key.type ? TypeName(*key.type) : std::string("an untyped value")),
                     "Order by a number, e.g. UNIX_SECONDS(timestamp), or use ROWS.");
  }
}

std::string Emitter::EmitWindowSpec(const ast::WindowSpec& spec) {
  std::string sql;
  auto add = [&sql](const std::string& part) { sql += (sql.empty() ? "" : " ") + part; };
  if (spec.base_name) add(QuoteIdent(spec.base_name->name));
  if (!spec.partition_by.empty()) {
    std::string p;
    for (const auto& e : spec.partition_by) p += (p.empty() ? "" : ", ") + EmitExpr(*e).sql;
    add("PARTITION BY " + p);
  }
  if (!spec.order_by.empty()) add(EmitOrderBy(spec.order_by, nullptr).substr(1));
  if (spec.frame) {
    using B = ast::WindowFrame::BoundKind;
    CheckRangeOffsetOrder(spec);
    auto bound = [this](const ast::WindowFrame::Bound& b) -> std::string {
      switch (b.kind) {
        case B::kUnboundedPreceding:
          return "UNBOUNDED PRECEDING";
        case B::kPreceding:
          return EmitExpr(*b.offset).sql + " PRECEDING";
        case B::kCurrentRow:
          return "CURRENT ROW";
        case B::kFollowing:
          return EmitExpr(*b.offset).sql + " FOLLOWING";
        case B::kUnboundedFollowing:
          return "UNBOUNDED FOLLOWING";
      }
      return "CURRENT ROW";
    };
    std::string f = spec.frame->unit == ast::WindowFrame::Unit::kRows ? "ROWS " : "RANGE ";
    f += spec.frame->end ? "BETWEEN " + bound(spec.frame->start) + " AND " + bound(*spec.frame->end)
                         : bound(spec.frame->start);
    add(f);
  }
  return sql;
}

}  // namespace lqe::pg
