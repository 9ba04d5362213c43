// SELECT: FROM scope, select list (with * expansion), GROUP BY, HAVING, QUALIFY, WINDOW,
// ORDER BY with BigQuery's NULL ordering and byte-wise string order.
#include <algorithm>
#include <utility>

#include "pg/emitter.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;

std::string AndAll(const std::vector<std::string>& conditions) {
  std::string out;
  for (const auto& c : conditions) out += (out.empty() ? "" : " AND ") + c;
  return out;
}

// The BigQuery output name of an unaliased select item: the last path segment.
std::string ImplicitName(const ast::Expr& e) {
  if (e.Is<ast::Path>()) return e.As<ast::Path>().parts.back().name;
  if (e.Is<ast::FieldAccess>()) return e.As<ast::FieldAccess>().field.name;
  return "";
}

}  // namespace

std::string Emitter::EmitBool(const ast::Expr& expr, std::string_view clause) {
  return EmitBoolValue(expr, clause).sql;
}

Value Emitter::EmitBoolValue(const ast::Expr& expr, std::string_view clause) {
  Value v = EmitExpr(expr);
  if (v.type && v.type->kind != TypeKind::kBool && v.type->kind != TypeKind::kUnknown) {
    Fail(DiagCode::kType, expr.span,
         std::string(clause) + " expects BOOL, got " + TypeName(*v.type));
  }
  return v;
}

QueryOut Emitter::EmitSelect(const ast::Select& select, const std::vector<ast::OrderItem>* order_by,
                             bool final_output) {
  if (select.as_struct) Fail(DiagCode::kUnsupported, select.span, "unsupported SELECT AS STRUCT");
  const bool pass_promoted = std::exchange(pass_promoted_, false) && select.group_by.empty() &&
                             !select.distinct && !select.qualify;
  const bool split_listing = std::exchange(split_listing_, false);
  const int grouped_before = grouped_calls_;
  Scope scope{scope_, {}, {}};
  Scope* saved_scope = scope_;
  const SelectContext saved_select = select_;
  scope_ = &scope;
  select_ = {};
  std::vector<std::string> conditions;
  const std::string from = select.from ? EmitFrom(*select.from, conditions) : "";
  std::vector<std::pair<std::string, std::string>> lifted;
  if (select.where) {
    const Value where = EmitBoolValue(*select.where, "WHERE");
    conditions.insert(conditions.begin(), where.sql);
    // Row conditions the filter implies (promoted min/max columns): index conditions here, or
    // for an EXISTS around this query when the row is an outer query's.
    for (const auto& implied : ImpliedOf(where)) {
      const bool own = std::any_of(scope.vars.begin(), scope.vars.end(), [&](const RangeVar& v) {
        return v.kind == RangeVar::Kind::kRow && v.pg_alias == implied.first;
      });
      if (own) {
        conditions.push_back(implied.second);
      } else {
        lifted.push_back(implied);
      }
    }
  }
  std::vector<SelectItemOut> items;
  EmitSelectItems(select, items);
  select_.items = &items;
  std::string tail;
  if (!select.group_by.empty()) tail += EmitGroupBy(select, items);
  select_.aliases_visible = true;
  if (select.having) tail += " HAVING " + EmitBool(*select.having, "HAVING");
  std::string qualify;
  if (select.qualify) qualify = EmitBool(*select.qualify, "QUALIFY");
  if (!select.windows.empty()) {
    std::string w;
    for (const auto& nw : select.windows) {
      w += (w.empty() ? " WINDOW " : ", ") + QuoteIdent(nw.name.name) + " AS (" +
           EmitWindowSpec(nw.spec) + ")";
    }
    tail += w;
  }
  std::vector<std::string> select_sql;
  const bool distinct_ordered = select.distinct && order_by && !order_by->empty();
  QueryOut out = FinishOutput(items, final_output, select_sql, distinct_ordered, pass_promoted);
  std::string list;
  for (const auto& s : select_sql) list += (list.empty() ? "" : ", ") + s;
  std::string sql = std::string("SELECT ") + (select.distinct ? "DISTINCT " : "") + list;
  if (!qualify.empty()) sql += ", " + qualify + " AS _qualify";
  if (!from.empty()) sql += " FROM " + from;
  if (!conditions.empty()) sql += " WHERE " + AndAll(conditions);
  sql += tail;
  Scope outer{saved_scope, {}, {}};
  if (!qualify.empty()) {
    // PG has no QUALIFY: filter the select's rows in a wrapping query.
    std::string names;
    for (std::size_t i = 0; i < out.columns.size(); ++i) {
      const std::string col = "_q." + QuoteLabel(out.columns[i].name);
      names += (names.empty() ? "" : ", ") + col;
      items[i].value.sql = col;
    }
    sql = "SELECT " + names + " FROM (" + sql + ") AS _q WHERE _qualify";
    scope_ = &outer;
  }
  const std::string order_sql =
      order_by && !order_by->empty() ? EmitOrderBy(*order_by, &items) : "";
  sql += order_sql;
  if (split_listing && final_output && qualify.empty() && grouped_calls_ == grouped_before &&
      !order_sql.empty()) {
    split_ = SplitOnEquality(select, *order_by, items, select_sql, from, conditions, order_sql);
  }
  scope_ = saved_scope;
  select_ = saved_select;
  out.sql = std::move(sql);
  lifted_implied_ = std::move(lifted);
  return out;
}

void Emitter::EmitSelectItems(const ast::Select& select, std::vector<SelectItemOut>& out) {
  for (const auto& item : select.items) {
    if (item.kind != ast::SelectItem::Kind::kExpr) {
      ExpandStar(item, out);
      continue;
    }
    Value v = EmitExpr(*item.expr);
    std::string name = item.alias ? item.alias->name : ImplicitName(*item.expr);
    out.push_back({v.sql, std::move(name), std::move(v), item.span});
  }
}

void Emitter::ExpandStar(const ast::SelectItem& item, std::vector<SelectItemOut>& out) {
  std::vector<std::pair<std::string, Value>> cols;
  auto add_var = [&](const RangeVar& var) {
    if (var.kind == RangeVar::Kind::kRow) {
      for (const auto& c : var.columns) cols.emplace_back(c.name, ColumnValue(var, c));
    } else if (var.fields_visible) {
      for (const auto& f : var.value.type->fields) {
        cols.emplace_back(f.name, FieldOf(var.value, ast::Identifier{f.name, false, {}}));
      }
    } else if (!var.name.empty()) {
      cols.emplace_back(var.name, var.value);
    }
  };
  if (item.kind == ast::SelectItem::Kind::kStar) {
    if (scope_->vars.empty()) Fail(DiagCode::kSyntax, item.span, "SELECT * needs a FROM clause");
    for (const auto& var : scope_->vars) add_var(var);
  } else {
    const auto* path = item.expr->Is<ast::Path>() ? &item.expr->As<ast::Path>() : nullptr;
    const auto lookup =
        path && path->parts.size() == 1 ? LookupName(*scope_, path->parts[0]) : Lookup{};
    if (lookup.var) {
      add_var(*lookup.var);
    } else {
      const Value v = EmitExpr(*item.expr);
      if (!IsKind(v.type, TypeKind::kRecord)) {
        Fail(DiagCode::kType, item.expr->span, "the .* operator needs a record or a table alias");
      }
      for (const auto& f : v.type->fields) {
        cols.emplace_back(f.name, FieldOf(v, ast::Identifier{f.name, false, {}}));
      }
    }
  }
  for (const auto& ex : item.except) {
    bool found = false;
    for (auto it = cols.begin(); it != cols.end();) {
      if (names::EqualsIgnoreCase(it->first, ex.name)) {
        it = cols.erase(it);
        found = true;
      } else {
        ++it;
      }
    }
    if (!found) {
      Fail(DiagCode::kUnknownName, ex.span, "column \"" + ex.name + "\" in EXCEPT not found");
    }
  }
  for (const auto& rep : item.replace) {
    bool found = false;
    for (auto& c : cols) {
      if (names::EqualsIgnoreCase(c.first, rep.name.name)) {
        c.second = EmitExpr(*rep.expr);
        found = true;
      }
    }
    if (!found) {
      Fail(DiagCode::kUnknownName, rep.name.span,
           "column \"" + rep.name.name + "\" in REPLACE not found");
    }
  }
  for (auto& [name, v] : cols) out.push_back({v.sql, name, v, item.span});
}

const Emitter::SelectItemOut* Emitter::FindOutputAlias(const ast::Expr& expr,
                                                       std::vector<SelectItemOut>& items) {
  if (expr.Is<ast::Literal>() && expr.As<ast::Literal>().literal_kind == ast::Literal::Kind::kInt) {
    const std::string& digits = expr.As<ast::Literal>().text;
    const long n = digits.size() < 6 ? std::stol(digits) : -1;
    if (n < 1 || n > static_cast<long>(items.size())) {
      Fail(DiagCode::kSyntax, expr.span,
           "position " + digits + " is out of range of the select list (1 to " +
               std::to_string(items.size()) + ")");
    }
    return &items[static_cast<std::size_t>(n - 1)];
  }
  if (expr.Is<ast::Path>() && expr.As<ast::Path>().parts.size() == 1) {
    const auto& name = expr.As<ast::Path>().parts[0].name;
    for (const auto& item : items) {
      if (!item.name.empty() && names::EqualsIgnoreCase(item.name, name)) return &item;
    }
  }
  return nullptr;
}

}  // namespace lqe::pg
