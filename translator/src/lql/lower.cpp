// LQL to the consumer query AST: pick the CTE, lower each filter, then build the list query
// (timestamp, id, event_message and s: fields, newest first) or the chart query.
#include <set>
#include <utility>

#include "lqe/lql.h"
#include "lql/ast_build.h"
#include "lql/chart_lower.h"
#include "lql/lower_filter.h"
#include "lql/parser.h"
#include "lql/unnest_paths.h"

namespace lqe::lql {
namespace {

std::string NameList(const std::vector<CteInfo>& ctes) {
  std::string out;
  for (const auto& cte : ctes) {
    if (!out.empty()) {
      out += ", ";
    }
    out += cte.name;
  }
  return out;
}

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (fold(a[i]) != fold(b[i])) {
      return false;
    }
  }
  return true;
}

const CteInfo& PickCte(const Rules& rules, const LowerContext& context) {
  const auto& ctes = context.ctes;
  if (ctes.empty()) {
    throw LqlError{MakeDiag(DiagCode::kSandbox, "no CTEs found in the endpoint's query", 0, 1)};
  }
  if (!rules.from) {
    if (ctes.size() == 1) {
      return ctes.front();
    }
    throw LqlError{
        MakeDiag(DiagCode::kUnknownName,
                 "multiple CTEs available (" + NameList(ctes) + "): pick one with f:name", 0, 1)};
  }
  for (const auto& cte : ctes) {
    if (SameName(cte.name, rules.from->name)) {
      return cte;
    }
  }
  std::vector<std::string> names;
  names.reserve(ctes.size());
  for (const auto& cte : ctes) {
    names.push_back(cte.name);
  }
  Diagnostic d = MakeDiag(DiagCode::kUnknownName,
                          "table " + QuoteForMessage(rules.from->name) +
                              " not found in available CTEs: " + NameList(ctes),
                          rules.from->span.begin, rules.from->span.end - rules.from->span.begin);
  const std::string close = ClosestName(rules.from->name, names);
  if (!close.empty()) {
    d.hint = "Did you mean f:" + close + "?";
  }
  throw LqlError{std::move(d)};
}

ast::SelectItem Item(ast::ExprPtr expr, const std::string& alias, SourceSpan span) {
  ast::SelectItem item;
  item.expr = std::move(expr);
  if (!alias.empty()) {
    item.alias = ast::Identifier{alias, false, span};
  }
  item.span = span;
  return item;
}

// timestamp, id, event_message when the CTE has them (all its columns when it has none), then
// each s: field named by its alias or last segment.
void ListItems(const Rules& rules, const CteInfo& cte, ElementJoins& joins, ast::Select& select) {
  std::set<std::string> names;
  for (const char* column : {"timestamp", "id", "event_message"}) {
    if (const StructField* f = cte.row->FindField(column)) {
      select.items.push_back(Item(build::Path({cte.name, f->name}, {}), "", {}));
      names.insert(column);
    }
  }
  if (select.items.empty()) {
    for (const auto& f : cte.row->fields) {
      select.items.push_back(Item(build::Path({cte.name, f.name}, {}), "", {}));
      names.insert(f.name);
    }
  }
  for (const auto& rule : rules.selects) {
    if (rule.path.empty()) {
      continue;  // s:* adds nothing to the default columns
    }
    const ResolvedField field = ResolveField(cte, rule.path, rule.span);
    const std::string name = rule.alias.empty() ? field.names.back() : rule.alias;
    if (names.contains(name)) {
      if (rule.alias.empty() && field.names.size() == 1) {
        continue;  // s:id is already there
      }
      throw LqlError{MakeDiag(DiagCode::kSyntax,
                              "duplicate output column " + QuoteForMessage(name) +
                                  ": name one of them with s:path@alias",
                              rule.span.begin, rule.span.end - rule.span.begin)};
    }
    names.insert(name);
    select.items.push_back(Item(joins.Path(field, rule.span), name, rule.span));
  }
}

ast::QueryPtr BuildQuery(const Rules& rules, const LowerContext& context) {
  const CteInfo& cte = PickCte(rules, context);
  const FilterContext filter_context{
      &cte, std::chrono::duration_cast<std::chrono::microseconds>(context.now.time_since_epoch())
                .count()};
  ast::ExprList conditions;
  for (const auto& rule : rules.filters) {
    conditions.push_back(LowerFilter(rule, filter_context));
  }
  if (rules.chart) {
    return BuildChartQuery(rules, cte, build::AndAll(std::move(conditions)));
  }

  auto select = std::make_unique<ast::Select>(ast::SourceSpan{});
  ElementJoins joins(cte);
  ListItems(rules, cte, joins, *select);
  select->from = joins.From();
  select->where = build::AndAll(std::move(conditions));
  auto query = std::make_unique<ast::Query>(ast::SourceSpan{});
  if (const StructField* ts = cte.row->FindField("timestamp")) {
    ast::OrderItem newest;
    newest.expr = build::Path({cte.name, ts->name}, {});
    newest.descending = true;
    query->order_by.push_back(std::move(newest));
  }
  query->body = std::move(select);
  return query;
}

}  // namespace

std::variant<ast::QueryPtr, Diagnostic> Lower(std::string_view text, const LowerContext& context) {
  auto parsed = Parse(text);
  if (auto* diag = std::get_if<Diagnostic>(&parsed)) {
    return std::move(*diag);
  }
  try {
    return BuildQuery(std::get<Rules>(parsed), context);
  } catch (LqlError& e) {
    return std::move(e.diag);
  }
}

}  // namespace lqe::lql
