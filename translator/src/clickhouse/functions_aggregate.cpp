// ClickHouse aggregates: uniq / uniqExact as COUNT(DISTINCT x); quantile(p)(x) and
// quantiles(p, ...)(x) with ClickHouse's linear interpolation between the sorted values (its
// reservoir holds every value up to 8192 rows, where it is exact); any, argMax, argMin and
// groupArray as ANY_VALUE, MAX_BY, MIN_BY and ARRAY_AGG, all ignoring NULLs as ClickHouse does.
#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions_internal.h"
#include "translate_error.h"

namespace lqe::clickhouse {
namespace {

using translator::Fail;

void NoParameters(const ast::Call& call) {
  if (!call.parameters.empty()) {
    Fail(DiagCode::kUnsupported, call.parameters.front()->span,
         call.name.name + " takes no parameters here");
  }
}

ast::ExprPtr Rename(ast::Call& call, std::string_view name) {
  NoParameters(call);
  return Call(name, call.span, std::move(call.args));
}

// The level p of quantile(p): a number literal in [0, 1], as its text.
std::string Level(const ast::Expr& e) {
  const auto* lit = e.Is<ast::Literal>() ? &e.As<ast::Literal>() : nullptr;
  const bool number = lit != nullptr && (lit->literal_kind == ast::Literal::Kind::kInt ||
                                         lit->literal_kind == ast::Literal::Kind::kFloat);
  if (!number) Fail(DiagCode::kUnsupported, e.span, "a quantile level must be a number literal");
  const double p = std::stod(lit->text);
  if (p < 0 || p > 1) Fail(DiagCode::kType, e.span, "a quantile level must be between 0 and 1");
  return lit->text;
}

// x as FLOAT64, from a copy of the argument.
ast::ExprPtr Value(const ast::Call& call) {
  return Cast(CopyOf(call, 0), TypeKind::kFloat64, call.span);
}

// ARRAY_AGG(x IGNORE NULLS ORDER BY x)[SAFE_OFFSET(index)]
ast::ExprPtr SortedAt(const ast::Call& call, ast::ExprPtr index) {
  const ast::SourceSpan span = call.span;
  ast::ExprList args;
  args.push_back(Value(call));
  auto agg = Call("ARRAY_AGG", span, std::move(args));
  auto& c = agg->As<ast::Call>();
  c.null_handling = ast::Call::NullHandling::kIgnoreNulls;
  c.order_by.push_back({Value(call), false, ast::OrderItem::Nulls::kDefault});
  auto sub = std::make_unique<ast::Subscript>(span);
  sub->base = std::move(agg);
  sub->mode = ast::Subscript::Mode::kSafeOffset;
  sub->index = Cast(std::move(index), TypeKind::kInt64, span);
  return sub;
}

ast::ExprPtr OneArg(std::string_view name, ast::ExprPtr arg, ast::SourceSpan span) {
  ast::ExprList args;
  args.push_back(std::move(arg));
  return Call(name, span, std::move(args));
}

// p * (count(x) - 1): the fractional index of level p among the sorted non-NULL values.
ast::ExprPtr Index(const ast::Call& call, const std::string& level) {
  const ast::SourceSpan span = call.span;
  auto count = OneArg("COUNT", CopyOf(call, 0), span);
  return Multiply(FloatLiteral(level, span),
                  Binary(ast::Binary::Op::kSub, std::move(count), IntLiteral(1, span), span), span);
}

// ClickHouse's interpolation: with i = index and l = floor(i), the value is
// v[l] * (l + 1 - i) + v[l + 1] * (i - l), where a missing v[l + 1] (i is the last index) counts
// 0; NULL over no values (ClickHouse's nan, which its JSON writes as null).
ast::ExprPtr QuantileAt(const ast::Call& call, const std::string& level) {
  const ast::SourceSpan span = call.span;
  const auto floor = [&] { return OneArg("FLOOR", Index(call, level), span); };
  const auto next = [&] {
    return Binary(ast::Binary::Op::kAdd, floor(), FloatLiteral("1.0", span), span);
  };
  auto left = Multiply(SortedAt(call, floor()),
                       Binary(ast::Binary::Op::kSub, next(), Index(call, level), span), span);
  ast::ExprList upper;
  upper.push_back(SortedAt(call, next()));
  upper.push_back(FloatLiteral("0.0", span));
  auto right = Multiply(Call("IFNULL", span, std::move(upper)),
                        Binary(ast::Binary::Op::kSub, Index(call, level), floor(), span), span);
  return Binary(ast::Binary::Op::kAdd, std::move(left), std::move(right), span);
}

}  // namespace

ast::ExprPtr LowerUniq(ast::Call& call) {
  NoParameters(call);
  if (call.args.size() != 1) {
    Fail(DiagCode::kUnsupported, call.span, call.name.name + " supports one argument");
  }
  auto out = Call("COUNT", call.span, std::move(call.args));
  out->As<ast::Call>().distinct = true;
  return out;
}

ast::ExprPtr LowerQuantile(ast::Call& call) {
  if (call.parameters.size() != 1) {
    Fail(DiagCode::kType, call.span, "quantile expects one level: quantile(0.5)(x)");
  }
  return QuantileAt(call, Level(*call.parameters[0]));
}

ast::ExprPtr LowerQuantiles(ast::Call& call) {
  if (call.parameters.empty()) {
    Fail(DiagCode::kType, call.span, "quantiles expects levels: quantiles(0.5, 0.9)(x)");
  }
  auto out = std::make_unique<ast::ArrayCtor>(call.span);
  for (const auto& p : call.parameters) out->elements.push_back(QuantileAt(call, Level(*p)));
  return out;
}

ast::ExprPtr LowerAny(ast::Call& call) {
  return Rename(call, "ANY_VALUE");
}

ast::ExprPtr LowerArgMax(ast::Call& call) {
  return Rename(call, "MAX_BY");
}

ast::ExprPtr LowerArgMin(ast::Call& call) {
  return Rename(call, "MIN_BY");
}

// groupArray(x): the non-NULL values.
ast::ExprPtr LowerGroupArray(ast::Call& call) {
  auto agg = Rename(call, "ARRAY_AGG");
  agg->As<ast::Call>().null_handling = ast::Call::NullHandling::kIgnoreNulls;
  return agg;
}

}  // namespace lqe::clickhouse
