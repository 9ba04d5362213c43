// Functions added for coverage of BigQuery's reference (each differential-tested in
// tests/oracle/cases/coverage.sql): SAFE_ arithmetic, IEEE_DIVIDE, IS_NAN/IS_INF, BIT_COUNT,
// trigonometry, ASCII/CHR/code points, TRANSLATE, FROM_BASE64, LAST_DAY, DATE_FROM_UNIX_DATE,
// ARRAY_REVERSE, the BIT_ and covariance aggregates and NET.HOST / NET.IPV4_*. The bq.*
// helpers are in migration 065.
#include "lqe/base/ascii.h"
#include "pg/function_table.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

std::string LowerName(const ast::Call& call) {
  std::string out(call.name.name);
  for (auto& c : out) c = ascii::ToLower(c);
  return out;
}

void Require(const ast::Call& call, const std::vector<Value>& args, std::size_t i,
             std::initializer_list<K> kinds, std::string_view what) {
  const K k = args[i].type ? args[i].type->kind : K::kUnknown;
  if (k == K::kUnknown) return;  // NULL
  for (K ok : kinds) {
    if (k == ok) return;
  }
  Fail(
      DiagCode::kType, call.args[i]->span,
      Upper(call.name.name) + " expects " + std::string(what) + ", got " + TypeName(*args[i].type));
}

void RequireNumbers(const ast::Call& call, const std::vector<Value>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    Require(call, args, i, {K::kInt64, K::kFloat64, K::kNumeric}, "a number");
  }
}

std::string Float(const Value& v) {
  return "(" + v.sql + ")::double precision";
}

std::string Int(const Value& v) {
  return "(" + v.sql + ")::bigint";
}

TypePtr NumberType(const std::vector<Value>& args) {
  TypePtr t;
  for (const auto& a : args) t = CommonType(t, a.type);
  if (!t || t->kind == K::kUnknown) return Type::Scalar(K::kInt64);
  return t;
}

}  // namespace

Value EmitSafeArith(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  const std::string op = LowerName(call).substr(5);  // add, subtract, multiply, negate
  const TypePtr t = NumberType(args);
  std::string a;
  for (const auto& v : args) {
    a += (a.empty() ? "" : ", ") + (t->kind == K::kInt64     ? Int(v)
                                    : t->kind == K::kNumeric ? "(" + v.sql + ")::numeric"
                                                             : Float(v));
  }
  return MakeValue("bq.safe_" + op + "(" + a + ")", t);
}

Value EmitIeeeDivide(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  return MakeValue("bq.ieee_divide(" + Float(args[0]) + ", " + Float(args[1]) + ")", K::kFloat64);
}

Value EmitIsNanInf(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  const std::string x = Float(args[0]);
  if (LowerName(call) == "is_nan") return MakeValue("(" + x + " = 'NaN')", K::kBool);
  return MakeValue("(" + x + " IN ('Infinity', '-Infinity'))", K::kBool);
}

Value EmitBitCount(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kInt64, K::kBytes}, "INT64 or BYTES");
  if (IsKind(args[0].type, K::kBytes)) {
    return MakeValue("bit_count(" + args[0].sql + ")", K::kInt64);
  }
  // Two's complement bits of the INT64.
  return MakeValue("bit_count((" + args[0].sql + ")::bigint::bit(64))::bigint", K::kInt64);
}

Value EmitTrig(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  std::string a;
  for (const auto& v : args) a += (a.empty() ? "" : ", ") + Float(v);
  // An argument outside the domain (ACOS(2)) raises in PG as in BigQuery.
  return MakeValue(LowerName(call) + "(" + a + ")", K::kFloat64);
}

Value EmitAscii(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kString, K::kBytes}, "STRING or BYTES");
  if (IsKind(args[0].type, K::kBytes)) {
    return MakeValue("CASE WHEN length(" + args[0].sql + ") = 0 THEN 0 ELSE get_byte(" +
                         args[0].sql + ", 0) END::bigint",
                     K::kInt64);
  }
  return MakeValue("bq.ascii(" + args[0].sql + ")", K::kInt64);
}

Value EmitChr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kInt64}, "INT64");
  return MakeValue("bq.chr(" + Int(args[0]) + ")", K::kString);
}

Value EmitCodePointsToString(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("bq.code_points_to_string(" + args[0].sql + ")", K::kString);
}

Value EmitToCodePoints(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kString, K::kBytes}, "STRING or BYTES");
  if (IsKind(args[0].type, K::kBytes)) {
    return MakeValue("ARRAY(SELECT get_byte(" + args[0].sql +
                         ", _i - 1)::bigint FROM generate_series(1, length(" + args[0].sql +
                         ")) AS _i ORDER BY _i)",
                     Type::Array(Type::Scalar(K::kInt64)));
  }
  return MakeValue("ARRAY(SELECT ascii(substr(" + args[0].sql +
                       ", _i, 1))::bigint FROM generate_series(1, length(" + args[0].sql +
                       ")) AS _i ORDER BY _i)",
                   Type::Array(Type::Scalar(K::kInt64)));
}

Value EmitTranslate(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  for (std::size_t i = 0; i < 3; ++i) Require(call, args, i, {K::kString}, "STRING");
  return MakeValue("bq.translate(" + JoinSql(args) + ")", K::kString);
}

Value EmitFromBase64(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kString}, "STRING");
  return MakeValue("bq.from_base64(" + args[0].sql + ")", K::kBytes);
}

Value EmitLastDay(Emitter& e, const ast::Call& call) {
  const std::vector<Value> args = {e.EmitExpr(*call.args[0])};  // args[1] is a date part
  Require(call, args, 0, {K::kDate, K::kDatetime}, "DATE or DATETIME");
  const std::string d = "(" + args[0].sql + ")::date";
  const DatePart part = call.args.size() > 1 ? ReadDatePart(*call.args[1]) : DatePart{"MONTH"};
  std::string sql;
  if (part.name == "MONTH" || part.name == "QUARTER" || part.name == "YEAR") {
    const std::string unit = part.name == "MONTH"     ? "month"
                             : part.name == "QUARTER" ? "quarter"
                                                      : "year";
    sql = "(date_trunc('" + unit + "', " + d + ") + interval '1 " +
          (unit == "quarter" ? std::string("month") : unit) + "'" +
          (unit == "quarter" ? " * 3" : "") + " - interval '1 day')::date";
  } else if (part.name == "WEEK" || part.name == "ISOWEEK") {
    // The last day of the week starting on Sunday (WEEK), Monday (ISOWEEK) or WEEK(<day>).
    const int start = part.name == "ISOWEEK" ? 1 : (part.weekday < 0 ? 0 : part.weekday);
    sql = "(" + d + " + (6 - ((EXTRACT(DOW FROM " + d + ")::int - " + std::to_string(start) +
          " + 7) % 7)))";
  } else if (part.name == "ISOYEAR") {
    sql = "(make_date(EXTRACT(ISOYEAR FROM " + d + ")::int + 1, 1, 4) - (EXTRACT(ISODOW FROM " +
          "make_date(EXTRACT(ISOYEAR FROM " + d + ")::int + 1, 1, 4))::int))";
  } else {
    Fail(DiagCode::kType, call.args[1]->span, "LAST_DAY does not support part " + part.name);
  }
  return MakeValue(sql, K::kDate);
}

Value EmitDateFromUnixDate(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kInt64}, "INT64");
  return MakeValue("(DATE '1970-01-01' + (" + args[0].sql + ")::integer)", K::kDate);
}

Value EmitArrayReverse(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (!IsKind(args[0].type, K::kArray) || args[0].json_array) {
    Fail(DiagCode::kUnsupported, call.args[0]->span,
         "ARRAY_REVERSE needs an array literal, ARRAY(...) or a function's array");
  }
  Value v = args[0];
  v.sql = "ARRAY(SELECT _e FROM unnest(" + args[0].sql +
          ") WITH ORDINALITY AS _u(_e, _i) ORDER BY _i DESC)";
  v.sql = "CASE WHEN " + args[0].sql + " IS NULL THEN NULL ELSE " + v.sql + " END";
  return v;
}

Value EmitBitAgg(Emitter& e, const ast::Call& call) {
  const Value x = e.EmitExpr(*call.args[0]);
  if (!IsKind(x.type, K::kInt64) && !IsKind(x.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[0]->span,
         Upper(call.name.name) + " expects INT64, got " + TypeName(*x.type));
  }
  const std::string sql =
      LowerName(call) + "(" + std::string(call.distinct ? "DISTINCT " : "") + Int(x) + ")";
  return MakeValue(sql + Over(e, call), K::kInt64);
}

Value EmitCovariance(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  if (call.distinct) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported DISTINCT in " + Upper(call.name.name));
  }
  // PG's corr/covar take (Y, X); both orders give the same value.
  const std::string pair = Float(args[0]) + ", " + Float(args[1]);
  const std::string over = Over(e, call);
  if (LowerName(call) == "corr") {
    // BigQuery: NaN when a side has no variance (PG: NULL), NULL below two pairs.
    return MakeValue("CASE WHEN regr_count(" + pair + ")" + over + " >= 2 THEN coalesce(corr(" +
                         pair + ")" + over + ", 'NaN') END",
                     K::kFloat64);
  }
  return MakeValue(LowerName(call) + "(" + pair + ")" + over, K::kFloat64);
}

Value EmitNetHost(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kString}, "STRING");
  return MakeValue("bq.net_host(" + args[0].sql + ")", K::kString);
}

Value EmitNetIpv4ToInt64(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kBytes}, "BYTES");
  return MakeValue("bq.net_ipv4_to_int64(" + args[0].sql + ")", K::kInt64);
}

Value EmitNetIpv4FromInt64(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kInt64}, "INT64");
  return MakeValue("bq.net_ipv4_from_int64(" + Int(args[0]) + ")", K::kBytes);
}

}  // namespace lqe::pg
