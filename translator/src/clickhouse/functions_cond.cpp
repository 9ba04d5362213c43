// ClickHouse's map and array tests, empty / notEmpty, coalesce / ifNull and intDiv. A map is a
// map column (log_attributes, resource_attributes); its values are never NULL, so a key is
// present when its value is not NULL.
#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions_internal.h"
#include "lqe/base/ascii.h"
#include "translate_error.h"

namespace lqe::clickhouse {
namespace {

using translator::Fail;

bool IsMapColumn(const ast::Expr& e) {
  if (!e.Is<ast::Path>()) return false;
  const std::string& name = e.As<ast::Path>().parts.back().name;
  return ascii::EqualsIgnoreCase(name, "log_attributes") ||
         ascii::EqualsIgnoreCase(name, "resource_attributes");
}

bool IsArray(const ast::Expr& e) {
  return e.Is<ast::ArrayCtor>() ||
         (e.Is<ast::Call>() && e.As<ast::Call>().name.name == "ARRAY_AGG");
}

// JSON_VALUE(m['key']) IS NOT NULL
ast::ExprPtr MapHas(ast::Call& call) {
  StringArg(call, 1);
  auto sub = std::make_unique<ast::Subscript>(call.span);
  sub->base = std::move(call.args[0]);
  sub->index = std::move(call.args[1]);
  ast::ExprList args;
  args.push_back(std::move(sub));
  return IsNull(Call("JSON_VALUE", call.span, std::move(args)), true, call.span);
}

// The emptiness test of a string, an array or a map; NULL for NULL.
ast::ExprPtr Empty(ast::Call& call, bool negated) {
  const ast::SourceSpan span = call.span;
  const auto op = negated ? ast::Binary::Op::kNe : ast::Binary::Op::kEq;
  if (IsMapColumn(*call.args[0])) {
    ast::ExprList args;
    args.push_back(std::move(call.args[0]));
    return Binary(op, Call("TO_JSON_STRING", span, std::move(args)), StringLiteral("{}", span),
                  span);
  }
  if (IsArray(*call.args[0])) {
    ast::ExprList args;
    args.push_back(std::move(call.args[0]));
    return Binary(op, Call("ARRAY_LENGTH", span, std::move(args)), IntLiteral(0, span), span);
  }
  return Binary(op, std::move(call.args[0]), StringLiteral("", span), span);
}

}  // namespace

ast::ExprPtr LowerMapContains(ast::Call& call) {
  if (!IsMapColumn(*call.args[0])) {
    Fail(DiagCode::kUnsupported, call.args[0]->span,
         "mapContains reads log_attributes or resource_attributes");
  }
  return MapHas(call);
}

// has(map, key) or has(array, x): x IN UNNEST(array).
ast::ExprPtr LowerHas(ast::Call& call) {
  if (IsMapColumn(*call.args[0])) return MapHas(call);
  auto in = std::make_unique<ast::In>(call.span);
  in->operand = std::move(call.args[1]);
  in->unnest_array = std::move(call.args[0]);
  return in;
}

ast::ExprPtr LowerEmpty(ast::Call& call) {
  return Empty(call, false);
}
ast::ExprPtr LowerNotEmpty(ast::Call& call) {
  return Empty(call, true);
}

ast::ExprPtr LowerCoalesce(ast::Call& call) {
  return Call("COALESCE", call.span, std::move(call.args));
}
ast::ExprPtr LowerIfNull(ast::Call& call) {
  return Call("IFNULL", call.span, std::move(call.args));
}

// intDiv(a, b): the quotient rounded toward zero (BigQuery's DIV).
ast::ExprPtr LowerIntDiv(ast::Call& call) {
  return Call("DIV", call.span, std::move(call.args));
}

}  // namespace lqe::clickhouse
