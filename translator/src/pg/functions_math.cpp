// Conditional, math and array functions. GREATEST/LEAST return NULL when any argument is NULL
// (BigQuery), unlike PG's which skip NULLs; ROUND rounds half away from zero via numeric.
#include "lqe/base/ascii.h"
#include "pg/function_table.h"
#include "pg/size_caps.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

TypePtr Common(const std::vector<Value>& args, std::size_t from) {
  TypePtr t;
  for (std::size_t i = from; i < args.size(); ++i) t = CommonType(t, args[i].type);
  return t ? t : Type::Scalar(K::kUnknown);
}

Value Typed(std::string sql, const std::vector<Value>& args, std::size_t from) {
  Value v = MakeValue(std::move(sql), Common(args, from));
  bool loose = true;
  bool json_array = false;
  for (std::size_t i = from; i < args.size(); ++i) {
    loose = loose && (args[i].loose_int || args[i].sql == "NULL");
    json_array = json_array || args[i].json_array;
  }
  v.loose_int = loose && IsKind(v.type, K::kInt64);
  v.json_array = json_array;
  return v;
}

void RequireNumbers(const ast::Call& call, const std::vector<Value>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!IsNumber(args[i].type)) {
      Fail(DiagCode::kType, call.args[i]->span,
           Upper(call.name.name) + " expects a number, got " + TypeName(*args[i].type));
    }
  }
}

std::string Float(const Value& v) {
  return "(" + v.sql + ")::double precision";
}

}  // namespace

Value EmitIf(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return Typed(
      "CASE WHEN " + args[0].sql + " THEN " + args[1].sql + " ELSE " + args[2].sql + " END", args,
      1);
}

Value EmitIfNull(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return Typed("COALESCE(" + JoinSql(args) + ")", args, 0);
}

Value EmitNullIf(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return Typed("NULLIF(" + JoinSql(args) + ")", args, 0);
}

Value EmitCoalesce(Emitter& e, const ast::Call& call) {
  return EmitIfNull(e, call);
}

Value EmitGreatestLeast(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  // NULL when any argument is, as in BigQuery (PG skips NULLs); num_nulls evaluates every
  // argument, so an overflow in one after a NULL still raises, as BigQuery's does.
  return Typed("CASE WHEN num_nulls(" + JoinSql(args) + ") > 0 THEN NULL ELSE " +
                   Upper(call.name.name) + "(" + JoinSql(args) + ") END",
               args, 0);
}

Value EmitSafeDivide(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  if (IsKind(Common(args, 0), K::kNumeric)) {
    return MakeValue("(" + args[0].sql + " / NULLIF(" + args[1].sql + ", 0))", K::kNumeric);
  }
  return MakeValue("(" + Float(args[0]) + " / NULLIF(" + Float(args[1]) + ", 0))", K::kFloat64);
}

Value EmitDiv(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  if (IsKind(Common(args, 0), K::kNumeric)) {
    return MakeValue("div(" + JoinSql(args) + ")", K::kNumeric);
  }
  // PG bigint division truncates toward zero, as BigQuery's DIV does.
  return MakeValue("((" + args[0].sql + ")::bigint / (" + args[1].sql + ")::bigint)", K::kInt64);
}

Value EmitMod(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  if (IsKind(Common(args, 0), K::kNumeric)) {
    return MakeValue("mod(" + JoinSql(args) + ")", K::kNumeric);
  }
  return MakeValue("mod((" + args[0].sql + ")::bigint, (" + args[1].sql + ")::bigint)", K::kInt64);
}

Value EmitRound(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  const std::string digits = args.size() > 1 ? ", (" + args[1].sql + ")::integer" : "";
  const std::string fn = Upper(call.name.name) == "TRUNC" ? "trunc" : "round";
  if (IsKind(args[0].type, K::kNumeric)) {
    return MakeValue(fn + "(" + args[0].sql + digits + ")", K::kNumeric);
  }
  // On the double's exact value, not PG's 15-digit float8 -> numeric (migration 065).
  return MakeValue("bq." + fn + "_float(" + Float(args[0]) + digits + ")", K::kFloat64);
}

Value EmitTrunc(Emitter& e, const ast::Call& call) {
  return EmitRound(e, call);
}

Value EmitCeilFloor(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  const std::string fn = Upper(call.name.name) == "FLOOR" ? "floor" : "ceil";
  if (IsKind(args[0].type, K::kNumeric)) {
    return MakeValue(fn + "(" + args[0].sql + ")", K::kNumeric);
  }
  return MakeValue(fn + "(" + Float(args[0]) + ")", K::kFloat64);
}

Value EmitAbs(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  return Typed("abs(" + args[0].sql + ")", args, 0);
}

Value EmitSign(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  if (IsKind(args[0].type, K::kInt64)) {
    return MakeValue("(sign(" + args[0].sql + "))::bigint", K::kInt64);
  }
  return Typed("sign(" + args[0].sql + ")", args, 0);
}

Value EmitPow(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  return MakeValue("power(" + Float(args[0]) + ", " + Float(args[1]) + ")", K::kFloat64);
}

Value EmitFloatFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  std::string fn = Upper(call.name.name);
  for (auto& c : fn) c = ascii::ToLower(c);
  if (fn == "log10") fn = "log";  // PG log(x) is base 10
  return MakeValue(fn + "(" + Float(args[0]) + ")", K::kFloat64);
}

Value EmitLog(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  // BigQuery LOG(x) is the natural log; LOG(x, base) any base.
  if (args.size() == 1) return MakeValue("ln(" + Float(args[0]) + ")", K::kFloat64);
  return MakeValue("(ln(" + Float(args[0]) + ") / ln(" + Float(args[1]) + "))", K::kFloat64);
}

Value EmitRand(Emitter&, const ast::Call&) {
  return MakeValue("random()", K::kFloat64);
}

Value EmitArrayLength(Emitter& e, const ast::Call& call) {
  const Value a = e.EmitExpr(*call.args[0]);
  if (IsKind(a.type, K::kRecord)) {
    return MakeValue("(CASE WHEN " + a.sql + " IS NULL THEN 0 ELSE 1 END)::bigint", K::kInt64);
  }
  if (!IsKind(a.type, K::kArray)) {
    Fail(DiagCode::kType, call.args[0]->span, "ARRAY_LENGTH expects an array");
  }
  return MakeValue(a.json_array ? "(jsonb_array_length(bq.json_array(" + a.sql + ")))::bigint"
                                : "(cardinality(" + a.sql + "))::bigint",
                   K::kInt64);
}

Value EmitArrayToString(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (!IsKind(args[0].type, K::kArray)) {
    Fail(DiagCode::kType, call.args[0]->span, "ARRAY_TO_STRING expects an array");
  }
  std::string arr = args[0].sql;
  if (args[0].json_array) {
    arr = "ARRAY(SELECT _e #>> '{}' FROM jsonb_array_elements(bq.json_array(" + arr + ")) AS _e)";
  }
  return MakeValue("array_to_string(" + arr + ", " + JoinSql(args, 1) + ")", K::kString);
}

Value EmitArrayConcat(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  std::string sql;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!IsKind(args[i].type, K::kArray) || args[i].json_array) {
      Fail(DiagCode::kUnsupported, call.args[i]->span,
           "ARRAY_CONCAT supports constructed arrays only");
    }
    sql += (sql.empty() ? "" : " || ") + args[i].sql;
  }
  return MakeValue("(" + sql + ")", args[0].type);
}

// bq.generate_array checks the element cap of size_caps.h at run time.
Value EmitGenerateArray(Emitter& e, const ast::Call& call) {
  CheckGenerateArrayCap(call);
  const auto args = EmitArgs(e, call);
  RequireNumbers(call, args);
  const TypePtr t = Common(args, 0);
  const std::string pg = std::string(PgTypeName(IsKind(t, K::kUnknown) ? K::kInt64 : t->kind));
  std::string sql =
      "bq.generate_array((" + args[0].sql + ")::" + pg + ", (" + args[1].sql + ")::" + pg;
  if (args.size() > 2) sql += ", (" + args[2].sql + ")::" + pg;
  return MakeValue(sql + ")", Type::Array(IsKind(t, K::kUnknown) ? Type::Scalar(K::kInt64) : t));
}

Value EmitGenerateUuid(Emitter&, const ast::Call&) {
  return MakeValue("(gen_random_uuid())::text", K::kString);
}

}  // namespace lqe::pg
