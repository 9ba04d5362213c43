// Functions added for coverage, round two: INSTR, REGEXP_INSTR, NORMALIZE, the NET. IP
// functions, RANGE_BUCKET, ARRAY_CONCAT_AGG (differential-tested in
// tests/oracle/cases/functions_more.sql) and MAX_BY / MIN_BY (which the reference lacks: checked
// in tests/sqllogic/functions_more.test). The bq.* helpers are in migration 066.
#include "lqe/regex.h"
#include "pg/function_table.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

K KindOf(const Value& v) {
  return v.type ? v.type->kind : K::kUnknown;
}

void Require(const ast::Call& call, const std::vector<Value>& args, std::size_t i,
             std::initializer_list<K> kinds, std::string_view what) {
  const K k = KindOf(args[i]);
  if (k == K::kUnknown) return;  // NULL
  for (K ok : kinds) {
    if (k == ok) return;
  }
  Fail(
      DiagCode::kType, call.args[i]->span,
      Upper(call.name.name) + " expects " + std::string(what) + ", got " + TypeName(*args[i].type));
}

std::string Int(const Value& v) {
  return "(" + v.sql + ")::bigint";
}

// Argument i as a bigint, or `fallback` when the call has fewer arguments.
std::string IntArgOr(const ast::Call& call, const std::vector<Value>& args, std::size_t i,
                     std::string_view fallback) {
  if (i >= args.size()) return std::string(fallback);
  Require(call, args, i, {K::kInt64}, "INT64");
  return Int(args[i]);
}

// A PG array (not a REPEATED record held as jsonb) or NULL.
void RequirePgArray(const ast::Call& call, const Value& v, std::size_t i) {
  if (IsKind(v.type, K::kUnknown)) return;
  if (!IsKind(v.type, K::kArray) || v.json_array) {
    Fail(DiagCode::kUnsupported, call.args[i]->span,
         Upper(call.name.name) + " needs an array literal, ARRAY(...) or a function's array");
  }
}

void NoDistinctOrLimit(const ast::Call& call) {
  if (call.distinct) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported DISTINCT in " + Upper(call.name.name));
  }
  if (call.limit) {
    Fail(DiagCode::kUnsupported, call.limit->span, "unsupported LIMIT in " + Upper(call.name.name));
  }
  if (call.null_handling != ast::Call::NullHandling::kDefault) {
    Fail(DiagCode::kUnsupported, call.span,
         "unsupported IGNORE/RESPECT NULLS in " + Upper(call.name.name));
  }
}

}  // namespace

Value EmitInstr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kString, K::kBytes}, "STRING or BYTES");
  Require(call, args, 1, {K::kString, K::kBytes}, "STRING or BYTES");
  const K k0 = KindOf(args[0]);
  const K k1 = KindOf(args[1]);
  if (k0 != K::kUnknown && k1 != K::kUnknown && k0 != k1) {
    Fail(DiagCode::kType, call.args[1]->span,
         "INSTR expects two STRING or two BYTES arguments, got " + TypeName(*args[0].type) +
             " and " + TypeName(*args[1].type));
  }
  return MakeValue("bq.instr(" + args[0].sql + ", " + args[1].sql + ", " +
                       IntArgOr(call, args, 2, "1") + ", " + IntArgOr(call, args, 3, "1") + ")",
                   K::kInt64);
}

Value EmitRegexpInstr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kString}, "STRING");
  const ast::Literal& lit = StringLiteralArg(call, 1, "pattern");
  const RegexConversion conv = ConvertRe2ToPosix(lit.text);
  if (!conv.error.empty()) {
    Fail(DiagCode::kUnsupported, lit.span, "unsupported regular expression: " + conv.error);
  }
  if (conv.capturing_groups > 1) {  // BigQuery's own error
    Fail(DiagCode::kType, lit.span,
         "Regular expressions passed into extraction functions must not have more than 1 "
         "capturing group");
  }
  return MakeValue("bq.regexp_instr(" + args[0].sql + ", " + QuoteLiteral(conv.pattern) + ", " +
                       IntArgOr(call, args, 2, "1") + ", " + IntArgOr(call, args, 3, "1") + ", " +
                       IntArgOr(call, args, 4, "0") + ", " + std::to_string(conv.capturing_groups) +
                       ")",
                   K::kInt64);
}

Value EmitNormalize(Emitter& e, const ast::Call& call) {
  const std::vector<Value> args = {e.EmitExpr(*call.args[0])};  // args[1] is a mode name
  Require(call, args, 0, {K::kString}, "STRING");
  std::string mode = "NFC";
  if (call.args.size() > 1) {
    const ast::Expr& m = *call.args[1];
    mode = m.Is<ast::Path>() && m.As<ast::Path>().parts.size() == 1
               ? Upper(m.As<ast::Path>().parts[0].name)
               : "";
    if (mode != "NFC" && mode != "NFKC" && mode != "NFD" && mode != "NFKD") {
      Fail(DiagCode::kType, m.span, "NORMALIZE expects a mode of NFC, NFKC, NFD or NFKD");
    }
  }
  return MakeValue("normalize(" + args[0].sql + ", " + mode + ")", K::kString);
}

Value EmitNetIpFromString(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kString}, "STRING");
  const bool safe = Upper(call.name.name) == "NET.SAFE_IP_FROM_STRING" || call.safe;
  return MakeValue(
      std::string(safe ? "bq.safe_ip_from_string(" : "bq.ip_from_string(") + args[0].sql + ")",
      K::kBytes);
}

Value EmitNetIpToString(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kBytes}, "BYTES");
  return MakeValue("bq.ip_to_string(" + args[0].sql + ")", K::kString);
}

Value EmitNetIpNetMask(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue(
      "bq.ip_net_mask(" + IntArgOr(call, args, 0, "") + ", " + IntArgOr(call, args, 1, "") + ")",
      K::kBytes);
}

Value EmitNetIpTrunc(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kBytes}, "BYTES");
  return MakeValue("bq.ip_trunc(" + args[0].sql + ", " + IntArgOr(call, args, 1, "") + ")",
                   K::kBytes);
}

Value EmitRangeBucket(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Require(call, args, 0, {K::kInt64, K::kFloat64, K::kNumeric}, "a number");
  RequirePgArray(call, args[1], 1);
  const TypePtr element = IsKind(args[1].type, K::kArray) ? args[1].type->element : nullptr;
  if (element && !IsNumber(element) && !IsKind(element, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[1]->span,
         "RANGE_BUCKET expects an array of numbers, got " + TypeName(*args[1].type));
  }
  // Compared in the common type of the point and the boundaries.
  const TypePtr common = CommonType(args[0].type, element);
  const std::string pg = IsKind(common, K::kFloat64)   ? "double precision"
                         : IsKind(common, K::kNumeric) ? "numeric"
                                                       : "bigint";
  return MakeValue(
      "bq.range_bucket((" + args[0].sql + ")::" + pg + ", (" + args[1].sql + ")::" + pg + "[])",
      K::kInt64);
}

Value EmitArrayConcatAgg(Emitter& e, const ast::Call& call) {
  NoDistinctOrLimit(call);
  const Value x = e.EmitExpr(*call.args[0]);
  if (!IsKind(x.type, K::kArray) && !IsKind(x.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[0]->span,
         "ARRAY_CONCAT_AGG expects an ARRAY, got " + TypeName(*x.type));
  }
  std::string sql =
      std::string(x.json_array ? "bq.json_array_concat_agg(" : "bq.array_concat_agg(") + x.sql;
  if (!call.order_by.empty()) sql += e.EmitOrderBy(call.order_by, nullptr);
  Value v = x;  // an array held as jsonb stays one
  v.sql = sql + ")" + Over(e, call);
  return v;
}

Value EmitMaxMinBy(Emitter& e, const ast::Call& call) {
  NoDistinctOrLimit(call);
  if (call.over) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported analytic " + Upper(call.name.name),
         "Use FIRST_VALUE(x) OVER (... ORDER BY y DESC) instead.");
  }
  const Value x = e.EmitExpr(*call.args[0]);
  const Value y = e.EmitExpr(*call.args[1]);
  if (IsKind(x.type, K::kArray) && !x.json_array) {
    Fail(DiagCode::kUnsupported, call.args[0]->span,
         Upper(call.name.name) + " of an ARRAY is not supported");
  }
  if (IsKind(y.type, K::kArray) || IsKind(y.type, K::kRecord) || IsKind(y.type, K::kJson)) {
    Fail(DiagCode::kType, call.args[1]->span,
         Upper(call.name.name) + " expects an orderable second argument, got " + TypeName(*y.type));
  }
  // ANY_VALUE(x HAVING MAX y): rows whose y is NULL are ignored.
  const std::string key = IsKind(y.type, K::kString) ? y.sql + " COLLATE \"C\"" : y.sql;
  const bool max = Upper(call.name.name) == "MAX_BY";
  return MakeValue("(array_agg(" + x.sql + " ORDER BY " + key + (max ? " DESC" : "") +
                       ") FILTER (WHERE " + y.sql + " IS NOT NULL))[1]",
                   x.type);
}

}  // namespace lqe::pg
