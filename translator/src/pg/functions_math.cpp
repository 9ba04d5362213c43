// Numeric functions. ROUND rounds half away from zero via numeric; the SAFE_ arithmetic
// functions are NULL on overflow and IEEE_DIVIDE gives Infinity/NaN where division raises
// (bq.* of migration 065); trigonometry raises outside its domain, as in BigQuery.
#include "lqe/base/ascii.h"
#include "pg/function_table.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

TypePtr NumberType(const std::vector<Value>& args) {
  TypePtr t;
  for (const auto& a : args) t = CommonType(t, a.type);
  if (!t || t->kind == K::kUnknown) return Type::Scalar(K::kInt64);
  return t;
}

// A PG array (not a REPEATED record held as jsonb) or NULL.
void RequirePgArray(const ast::Call& call, const Value& v, std::size_t i) {
  if (IsKind(v.type, K::kUnknown)) return;
  if (!IsKind(v.type, K::kArray) || v.json_array) {
    Fail(DiagCode::kUnsupported, call.args[i]->span,
         Upper(call.name.name) + " needs an array literal, ARRAY(...) or a function's array");
  }
}

}  // namespace

Value EmitSafeDivide(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  if (IsKind(Common(args, 0), K::kNumeric)) {
    return MakeValue("(" + args[0].sql + " / NULLIF(" + args[1].sql + ", 0))", K::kNumeric);
  }
  return MakeValue("(" + AsDouble(args[0]) + " / NULLIF(" + AsDouble(args[1]) + ", 0))",
                   K::kFloat64);
}

Value EmitDiv(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  if (IsKind(Common(args, 0), K::kNumeric)) {
    return MakeValue("div(" + JoinSql(args) + ")", K::kNumeric);
  }
  // PG bigint division truncates toward zero, as BigQuery's DIV does.
  return MakeValue("((" + args[0].sql + ")::bigint / (" + args[1].sql + ")::bigint)", K::kInt64);
}

Value EmitMod(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  if (IsKind(Common(args, 0), K::kNumeric)) {
    return MakeValue("mod(" + JoinSql(args) + ")", K::kNumeric);
  }
  return MakeValue("mod((" + args[0].sql + ")::bigint, (" + args[1].sql + ")::bigint)", K::kInt64);
}

Value EmitRound(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  const std::string digits = args.size() > 1 ? ", (" + args[1].sql + ")::integer" : "";
  const std::string fn = Upper(call.name.name) == "TRUNC" ? "trunc" : "round";
  if (IsKind(args[0].type, K::kNumeric)) {
    return MakeValue(fn + "(" + args[0].sql + digits + ")", K::kNumeric);
  }
  // On the double's exact value, not PG's 15-digit float8 -> numeric (migration 065).
  return MakeValue("bq." + fn + "_float(" + AsDouble(args[0]) + digits + ")", K::kFloat64);
}

Value EmitTrunc(Emitter& e, const ast::Call& call) {
  return EmitRound(e, call);
}

Value EmitCeilFloor(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  const std::string fn = Upper(call.name.name) == "FLOOR" ? "floor" : "ceil";
  if (IsKind(args[0].type, K::kNumeric)) {
    return MakeValue(fn + "(" + args[0].sql + ")", K::kNumeric);
  }
  return MakeValue(fn + "(" + AsDouble(args[0]) + ")", K::kFloat64);
}

Value EmitAbs(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  return Typed("abs(" + args[0].sql + ")", args, 0);
}

Value EmitSign(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  if (IsKind(args[0].type, K::kInt64)) {
    return MakeValue("(sign(" + args[0].sql + "))::bigint", K::kInt64);
  }
  return Typed("sign(" + args[0].sql + ")", args, 0);
}

Value EmitPow(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  return MakeValue("power(" + AsDouble(args[0]) + ", " + AsDouble(args[1]) + ")", K::kFloat64);
}

Value EmitFloatFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  std::string fn = Upper(call.name.name);
  for (auto& c : fn) c = ascii::ToLower(c);
  if (fn == "log10") fn = "log";  // PG log(x) is base 10
  return MakeValue(fn + "(" + AsDouble(args[0]) + ")", K::kFloat64);
}

Value EmitLog(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  // BigQuery LOG(x) is the natural log; LOG(x, base) any base.
  if (args.size() == 1) return MakeValue("ln(" + AsDouble(args[0]) + ")", K::kFloat64);
  return MakeValue("(ln(" + AsDouble(args[0]) + ") / ln(" + AsDouble(args[1]) + "))", K::kFloat64);
}

Value EmitRand(Emitter&, const ast::Call&) {
  return MakeValue("random()", K::kFloat64);
}

Value EmitSafeArith(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  const std::string op = LowerName(call).substr(5);  // add, subtract, multiply, negate
  const TypePtr t = NumberType(args);
  std::string a;
  for (const auto& v : args) {
    a += (a.empty() ? "" : ", ") + (t->kind == K::kInt64     ? AsBigint(v)
                                    : t->kind == K::kNumeric ? "(" + v.sql + ")::numeric"
                                                             : AsDouble(v));
  }
  return MakeValue("bq.safe_" + op + "(" + a + ")", t);
}

Value EmitIeeeDivide(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  return MakeValue("bq.ieee_divide(" + AsDouble(args[0]) + ", " + AsDouble(args[1]) + ")",
                   K::kFloat64);
}

Value EmitIsNanInf(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  const std::string x = AsDouble(args[0]);
  if (LowerName(call) == "is_nan") return MakeValue("(" + x + " = 'NaN')", K::kBool);
  return MakeValue("(" + x + " IN ('Infinity', '-Infinity'))", K::kBool);
}

Value EmitBitCount(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kInt64, K::kBytes}, "INT64 or BYTES");
  if (IsKind(args[0].type, K::kBytes)) {
    return MakeValue("bit_count(" + args[0].sql + ")", K::kInt64);
  }
  // Two's complement bits of the INT64.
  return MakeValue("bit_count((" + args[0].sql + ")::bigint::bit(64))::bigint", K::kInt64);
}

Value EmitTrig(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  std::string a;
  for (const auto& v : args) a += (a.empty() ? "" : ", ") + AsDouble(v);
  // An argument outside the domain (ACOS(2)) raises in PG as in BigQuery.
  return MakeValue(LowerName(call) + "(" + a + ")", K::kFloat64);
}

Value EmitRangeBucket(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kInt64, K::kFloat64, K::kNumeric}, "a number");
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

}  // namespace lqe::pg
