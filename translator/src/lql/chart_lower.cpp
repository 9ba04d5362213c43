#include "lql/chart_lower.h"

#include <utility>

#include "lql/ast_build.h"
#include "lql/fields.h"
#include "lql/lower_filter.h"
#include "lql/unnest_paths.h"

namespace lqe::lql {
namespace {

[[noreturn]] void Fail(DiagCode code, std::string message, SourceSpan span) {
  throw LqlError{MakeDiag(code, std::move(message), span.begin, span.end - span.begin)};
}

const char* PeriodName(Period period) {
  switch (period) {
    case Period::kSecond:
      return "SECOND";
    case Period::kMinute:
      return "MINUTE";
    case Period::kHour:
      return "HOUR";
    case Period::kDay:
      return "DAY";
  }
  return "MINUTE";
}

const char* AggregateName(Aggregate aggregate) {
  switch (aggregate) {
    case Aggregate::kCount:
    case Aggregate::kCountDistinct:
      return "count";
    case Aggregate::kAvg:
      return "avg";
    case Aggregate::kSum:
      return "sum";
    case Aggregate::kMax:
      return "max";
    case Aggregate::kP50:
      return "p50";
    case Aggregate::kP95:
      return "p95";
    case Aggregate::kP99:
      return "p99";
  }
  return "count";
}

int Percentile(Aggregate aggregate) {
  return aggregate == Aggregate::kP50 ? 50 : aggregate == Aggregate::kP95 ? 95 : 99;
}

bool NeedsNumber(Aggregate a) {
  return a == Aggregate::kAvg || a == Aggregate::kSum || a == Aggregate::kP50 ||
         a == Aggregate::kP95 || a == Aggregate::kP99;
}

void CheckType(const ChartRule& chart, const ResolvedField& field) {
  const Type& type = *field.type;
  const std::string agg =
      chart.aggregate == Aggregate::kCountDistinct ? "countd" : AggregateName(chart.aggregate);
  if (NeedsNumber(chart.aggregate) && !type.IsNumeric()) {
    Fail(DiagCode::kType,
         agg + " needs a numeric field, but " + field.display + " is " + ShortTypeName(type),
         chart.path_span);
  }
  if (chart.aggregate != Aggregate::kCount &&
      (type.kind == TypeKind::kRecord || type.kind == TypeKind::kArray)) {
    Fail(DiagCode::kType,
         agg + " needs a scalar field, but " + field.display + " is " + ShortTypeName(type),
         chart.path_span);
  }
}

ast::ExprPtr AggregateExpr(const ChartRule& chart, ast::ExprPtr field) {
  const SourceSpan span = chart.span;
  if (!field) {
    auto count = build::Call("COUNT", {}, span);
    count->As<ast::Call>().star = true;
    return count;
  }
  ast::ExprList args;
  args.push_back(std::move(field));
  switch (chart.aggregate) {
    case Aggregate::kCount:
      return build::Call("COUNT", std::move(args), span);
    case Aggregate::kCountDistinct: {
      auto call = build::Call("COUNT", std::move(args), span);
      call->As<ast::Call>().distinct = true;
      return call;
    }
    case Aggregate::kAvg:
      return build::Call("AVG", std::move(args), span);
    case Aggregate::kSum:
      return build::Call("SUM", std::move(args), span);
    case Aggregate::kMax:
      return build::Call("MAX", std::move(args), span);
    case Aggregate::kP50:
    case Aggregate::kP95:
    case Aggregate::kP99: {
      args.push_back(build::Int("100", span));
      auto sub = std::make_unique<ast::Subscript>(span);
      sub->base = build::Call("APPROX_QUANTILES", std::move(args), span);
      sub->index = build::Int(std::to_string(Percentile(chart.aggregate)), span);
      sub->mode = ast::Subscript::Mode::kOffset;
      return sub;
    }
  }
  return nullptr;
}

ast::SelectItem Item(ast::ExprPtr expr, std::string alias, SourceSpan span) {
  ast::SelectItem item;
  item.expr = std::move(expr);
  item.alias = ast::Identifier{std::move(alias), false, span};
  item.span = span;
  return item;
}

ast::OrderItem Ordinal1() {
  ast::OrderItem item;
  item.expr = build::Int("1", {});
  return item;
}

}  // namespace

std::string ChartColumnName(Aggregate aggregate, const std::string& field) {
  if (aggregate == Aggregate::kCount) {
    return "count";
  }
  const std::string prefix =
      aggregate == Aggregate::kCountDistinct ? "countd" : AggregateName(aggregate);
  return prefix + "_" + field;
}

ast::QueryPtr BuildChartQuery(const Rules& rules, const CteInfo& cte, ast::ExprPtr where) {
  const ChartRule& chart = *rules.chart;
  if (!rules.selects.empty()) {
    Fail(DiagCode::kUnsupported, "s: cannot be combined with a chart (c:)",
         rules.selects.front().span);
  }
  const StructField* ts = cte.row->FindField("timestamp");
  if (!ts || ts->type->kind != TypeKind::kTimestamp) {
    Fail(DiagCode::kUnknownName, "charts need a TIMESTAMP column named timestamp in " + cte.name,
         chart.span);
  }
  ast::ExprPtr field;
  std::string field_name;
  ElementJoins joins(cte);
  if (!chart.path.empty()) {
    const ResolvedField resolved = ResolveField(cte, chart.path, chart.path_span);
    CheckType(chart, resolved);
    field = joins.Path(resolved, chart.path_span);
    field_name = resolved.names.back();
  }
  ast::ExprList trunc_args;
  trunc_args.push_back(build::Path({cte.name, ts->name}, chart.span));
  trunc_args.push_back(build::Path({PeriodName(chart.period)}, chart.span));
  auto select = std::make_unique<ast::Select>(chart.span);
  select->items.push_back(
      Item(build::Call("TIMESTAMP_TRUNC", std::move(trunc_args), chart.span), "timestamp", {}));
  select->items.push_back(Item(AggregateExpr(chart, std::move(field)),
                               ChartColumnName(chart.aggregate, field_name), chart.span));
  select->from = joins.From();
  select->where = std::move(where);
  select->group_by.push_back(build::Int("1", {}));
  auto query = std::make_unique<ast::Query>(chart.span);
  query->body = std::move(select);
  query->order_by.push_back(Ordinal1());
  return query;
}

}  // namespace lqe::lql
