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
constexpr const char* kFloat = "^[+-]?(?:[0-9]+[.]?[0-9]*|[.][0-9]+)(?:[eE][+-]?[0-9]+)?$";
constexpr Target kInt32{TypeKind::kInt64, kSigned, -2147483648LL, 2147483647LL};
constexpr Target kInt64{TypeKind::kInt64, kSigned, 0, 0};
constexpr Target kUInt32{TypeKind::kInt64, kUnsigned, 0, 4294967295LL};
constexpr Target kUInt64{TypeKind::kInt64, kUnsigned, 0, 9223372036854775807LL};
constexpr Target kFloat64{TypeKind::kFloat64, kFloat, 0, 0};

ast::ExprPtr Coalesce(ast::ExprPtr value, ast::ExprPtr fallback, ast::SourceSpan span) {
  ast::ExprList args;
  args.push_back(std::move(value));
  args.push_back(std::move(fallback));
  return Call("COALESCE", span, std::move(args));
}

// SAFE_CAST(REGEXP_EXTRACT(s, pattern) AS type): the value when the whole text is one (NULL
// beyond INT64), else NULL. Reads s once.
ast::ExprPtr Parsed(ast::ExprPtr s, const char* pattern, TypeKind kind, ast::SourceSpan span) {
  ast::ExprList args;
  args.push_back(std::move(s));
  args.push_back(StringLiteral(pattern, span));
  return SafeCast(Call("REGEXP_EXTRACT", span, std::move(args)), kind, span);
}

// The value, or `fallback` when s is not one; NULL when s is NULL (an argument that is never
// NULL skips that test).
ast::ExprPtr Finish(ast::Call& call, ast::ExprPtr value, ast::ExprPtr fallback) {
  const ast::SourceSpan span = call.span;
  const bool fallback_null = fallback->Is<ast::Literal>() &&
                             fallback->As<ast::Literal>().literal_kind == ast::Literal::Kind::kNull;
  ast::ExprPtr out =
      fallback_null ? std::move(value) : Coalesce(std::move(value), std::move(fallback), span);
  if (NeverNull(*call.args[0]) || fallback_null) return out;
  return IfThen(IsNull(std::move(call.args[0]), false, span), NullLiteral(span), std::move(out),
                span);
}

// REGEXP_CONTAINS(s, pattern).
ast::ExprPtr Matches(ast::ExprPtr s, const char* pattern, ast::SourceSpan span) {
  ast::ExprList args;
  args.push_back(std::move(s));
  args.push_back(StringLiteral(pattern, span));
  return Call("REGEXP_CONTAINS", span, std::move(args));
}

// Whether `e` reads a column somewhere (then PostgreSQL cannot fold it while planning). Kinds not
// listed answer false, which only costs the slower safe form.
bool ReadsAColumn(const ast::Expr& e) {
  switch (e.kind) {
    case ast::NodeKind::kPath:
      return true;
    case ast::NodeKind::kSubscript:
      return ReadsAColumn(*e.As<ast::Subscript>().base);
    case ast::NodeKind::kCall:
      for (const auto& a : e.As<ast::Call>().args) {
        if (ReadsAColumn(*a)) return true;
      }
      return false;
    case ast::NodeKind::kBinary:
      return ReadsAColumn(*e.As<ast::Binary>().left) || ReadsAColumn(*e.As<ast::Binary>().right);
    default:
      return false;
  }
}

ast::ExprPtr Convert(ast::Call& call, const Target& t, ast::ExprPtr fallback) {
  const ast::SourceSpan span = call.span;
  ast::ExprPtr value;
  if (t.low < t.high) {
    // In range or NULL: CASE WHEN v BETWEEN low AND high THEN v END.
    auto range = std::make_unique<ast::Between>(span);
    range->operand = Parsed(CopyOf(call, 0), t.pattern, t.kind, span);
    range->low = IntLiteral(t.low, span);
    range->high = IntLiteral(t.high, span);
    value = IfThen(std::move(range), Parsed(CopyOf(call, 0), t.pattern, t.kind, span),
                   NullLiteral(span), span);
  } else {
    value = Parsed(CopyOf(call, 0), t.pattern, t.kind, span);
  }
  if (t.kind == TypeKind::kInt64) {
    // Up to nine digits is a value of every integer type: regular-expression matches and a plain
    // cast, the common case (a status code), instead of the exact path above (SAFE_CAST, a
    // PL/pgSQL call, twice for a range), which only longer digit strings take. Text that reads
    // no column is cast through its match: PostgreSQL folds a cast of a constant (a literal, a
    // parameter) while planning, even in a CASE arm that is not taken.
    const char* short_number = t.pattern == kSigned ? "^[+-]?[0-9]{1,9}$" : "^[+]?[0-9]{1,9}$";
    ast::ExprPtr digits = CopyOf(call, 0);
    if (!ReadsAColumn(*call.args[0])) {
      ast::ExprList extract;
      extract.push_back(std::move(digits));
      extract.push_back(StringLiteral(short_number, span));
      digits = Call("REGEXP_EXTRACT", span, std::move(extract));
    }
    value = IfThen(Matches(CopyOf(call, 0), short_number, span),
                   Cast(std::move(digits), TypeKind::kInt64, span),
                   IfThen(Matches(CopyOf(call, 0), t.pattern, span), std::move(value),
                          NullLiteral(span), span),
                   span);
  }
  return Finish(call, std::move(value), std::move(fallback));
}

ast::ExprPtr Zero(const Target& t, ast::SourceSpan span) {
  if (t.kind == TypeKind::kFloat64) return FloatLiteral("0.0", span);
  return IntLiteral(0, span);
}

// Text ClickHouse reads as a DateTime: YYYY-MM-DD, YYYY-MM-DD hh:mm:ss, or with a 'T' between.
ast::ExprPtr ConvertDateTime(ast::Call& call, ast::ExprPtr fallback) {
  const ast::SourceSpan span = call.span;
  ast::ExprList extract_args;
  extract_args.push_back(CopyOf(call, 0));
  extract_args.push_back(
      StringLiteral("^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[ T][0-9]{2}:[0-9]{2}:[0-9]{2})?$", span));
  ast::ExprList replace_args;
  replace_args.push_back(Call("REGEXP_EXTRACT", span, std::move(extract_args)));
  replace_args.push_back(StringLiteral("T", span));
  replace_args.push_back(StringLiteral(" ", span));
  auto value = SafeCast(Call("REPLACE", span, std::move(replace_args)), TypeKind::kTimestamp, span);
  return Finish(call, std::move(value), std::move(fallback));
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
