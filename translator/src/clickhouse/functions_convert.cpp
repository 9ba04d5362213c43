// ClickHouse's to<Type>OrZero / to<Type>OrNull: the text read as the type when it is exactly a
// value of it (no spaces, the type's range), else 0 / NULL; a NULL argument gives NULL.
#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions_internal.h"

namespace lqe::clickhouse {
namespace {

struct Target {
  TypeKind kind;
  const char* pattern;  // the text ClickHouse reads as a value of the type
  long long low;        // range, when low < high
  long long high;
};

constexpr const char* kSigned = "^[+-]?[0-9]+$";
constexpr const char* kUnsigned = "^[+]?[0-9]+$";
constexpr const char* kFloat = "^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$";
constexpr Target kInt32{TypeKind::kInt64, kSigned, -2147483648LL, 2147483647LL};
constexpr Target kInt64{TypeKind::kInt64, kSigned, 0, 0};
constexpr Target kUInt32{TypeKind::kInt64, kUnsigned, 0, 4294967295LL};
constexpr Target kUInt64{TypeKind::kInt64, kUnsigned, 0, 9223372036854775807LL};
constexpr Target kFloat64{TypeKind::kFloat64, kFloat, 0, 0};

// CASE WHEN s IS NULL THEN NULL WHEN matches(s) [AND SAFE_CAST(s) BETWEEN low AND high]
// THEN SAFE_CAST(s) ELSE fallback END. SAFE_CAST is NULL beyond INT64.
ast::ExprPtr Convert(ast::Call& call, const Target& t, ast::ExprPtr fallback) {
  const ast::SourceSpan span = call.span;
  ast::ExprList match_args;
  match_args.push_back(CopyOf(call, 0));
  match_args.push_back(StringLiteral(t.pattern, span));
  ast::ExprPtr valid = Call("REGEXP_CONTAINS", span, std::move(match_args));
  if (t.low < t.high) {
    auto range = std::make_unique<ast::Between>(span);
    range->operand = SafeCast(CopyOf(call, 0), t.kind, span);
    range->low = IntLiteral(t.low, span);
    range->high = IntLiteral(t.high, span);
    valid = Binary(ast::Binary::Op::kAnd, std::move(valid), std::move(range), span);
  } else {
    valid = Binary(ast::Binary::Op::kAnd, std::move(valid),
                   IsNull(SafeCast(CopyOf(call, 0), t.kind, span), true, span), span);
  }
  auto out = std::make_unique<ast::Case>(span);
  out->whens.push_back({IsNull(CopyOf(call, 0), false, span), NullLiteral(span)});
  out->whens.push_back({std::move(valid), SafeCast(std::move(call.args[0]), t.kind, span)});
  out->else_result = std::move(fallback);
  return out;
}

ast::ExprPtr Zero(const Target& t, ast::SourceSpan span) {
  if (t.kind == TypeKind::kFloat64) return FloatLiteral("0.0", span);
  return IntLiteral(0, span);
}

// Text ClickHouse reads as a DateTime: YYYY-MM-DD, YYYY-MM-DD hh:mm:ss, or with a 'T' between.
ast::ExprPtr ConvertDateTime(ast::Call& call, ast::ExprPtr fallback) {
  const ast::SourceSpan span = call.span;
  ast::ExprList match_args;
  match_args.push_back(CopyOf(call, 0));
  match_args.push_back(
      StringLiteral("^[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}:[0-9]{2})?$", span));
  ast::ExprList replace_args;
  replace_args.push_back(CopyOf(call, 0));
  replace_args.push_back(StringLiteral("T", span));
  replace_args.push_back(StringLiteral(" ", span));
  auto text = Call("REPLACE", span, std::move(replace_args));
  auto value = SafeCast(std::move(text), TypeKind::kTimestamp, span);
  auto out = std::make_unique<ast::Case>(span);
  out->whens.push_back({IsNull(CopyOf(call, 0), false, span), NullLiteral(span)});
  out->whens.push_back(
      {Binary(ast::Binary::Op::kAnd, Call("REGEXP_CONTAINS", span, std::move(match_args)),
              IsNull(Clone(*value), true, span), span),
       std::move(value)});
  out->else_result = std::move(fallback);
  return out;
}

}  // namespace

ast::ExprPtr LowerToInt32OrZero(ast::Call& call) {
  return Convert(call, kInt32, Zero(kInt32, call.span));
}
ast::ExprPtr LowerToInt32OrNull(ast::Call& call) {
  return Convert(call, kInt32, NullLiteral(call.span));
}
ast::ExprPtr LowerToInt64OrZero(ast::Call& call) {
  return Convert(call, kInt64, Zero(kInt64, call.span));
}
ast::ExprPtr LowerToInt64OrNull(ast::Call& call) {
  return Convert(call, kInt64, NullLiteral(call.span));
}
ast::ExprPtr LowerToUInt32OrZero(ast::Call& call) {
  return Convert(call, kUInt32, Zero(kUInt32, call.span));
}
ast::ExprPtr LowerToUInt32OrNull(ast::Call& call) {
  return Convert(call, kUInt32, NullLiteral(call.span));
}
ast::ExprPtr LowerToUInt64OrZero(ast::Call& call) {
  return Convert(call, kUInt64, Zero(kUInt64, call.span));
}
ast::ExprPtr LowerToUInt64OrNull(ast::Call& call) {
  return Convert(call, kUInt64, NullLiteral(call.span));
}
ast::ExprPtr LowerToFloat64OrZero(ast::Call& call) {
  return Convert(call, kFloat64, Zero(kFloat64, call.span));
}
ast::ExprPtr LowerToFloat64OrNull(ast::Call& call) {
  return Convert(call, kFloat64, NullLiteral(call.span));
}
ast::ExprPtr LowerToDateTimeOrZero(ast::Call& call) {
  ast::ExprList args;
  args.push_back(IntLiteral(0, call.span));
  return ConvertDateTime(call, Call("TIMESTAMP_SECONDS", call.span, std::move(args)));
}
ast::ExprPtr LowerToDateTimeOrNull(ast::Call& call) {
  return ConvertDateTime(call, NullLiteral(call.span));
}

}  // namespace lqe::clickhouse
