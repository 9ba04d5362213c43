// Array functions over PG arrays (an array literal, ARRAY(...) or a function's array) and, where
// they apply, REPEATED fields held as jsonb: ARRAY_LENGTH, ARRAY_TO_STRING, ARRAY_CONCAT,
// GENERATE_ARRAY, ARRAY_REVERSE, ARRAY_FIRST/LAST, ARRAY_SLICE and ARRAY_INCLUDES(_ANY/_ALL). NULL
// elements never match, as in BigQuery.
#include "pg/function_table.h"
#include "pg/size_caps.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

Value PgArrayArg(Emitter& e, const ast::Call& call, std::size_t i) {
  Value v = e.EmitExpr(*call.args[i]);
  if (IsKind(v.type, K::kUnknown)) return v;
  if (!IsKind(v.type, K::kArray)) {
    Fail(DiagCode::kType, call.args[i]->span,
         Upper(call.name.name) + " expects an ARRAY, got " + TypeName(*v.type));
  }
  if (v.json_array) {
    Fail(DiagCode::kUnsupported, call.args[i]->span,
         Upper(call.name.name) + " needs an array literal, ARRAY(...) or a function's array");
  }
  return v;
}

TypePtr ElementType(const Value& array) {
  return IsKind(array.type, K::kArray) ? array.type->element : Type::Scalar(K::kUnknown);
}

}  // namespace

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
  RequireNumberArgs(call, args);
  const TypePtr t = Common(args, 0);
  const std::string pg = std::string(PgTypeName(IsKind(t, K::kUnknown) ? K::kInt64 : t->kind));
  std::string sql =
      "bq.generate_array((" + args[0].sql + ")::" + pg + ", (" + args[1].sql + ")::" + pg;
  if (args.size() > 2) sql += ", (" + args[2].sql + ")::" + pg;
  return MakeValue(sql + ")", Type::Array(IsKind(t, K::kUnknown) ? Type::Scalar(K::kInt64) : t));
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

Value EmitArrayFirstLast(Emitter& e, const ast::Call& call) {
  const Value a = PgArrayArg(e, call, 0);
  const bool first = Upper(call.name.name) == "ARRAY_FIRST";
  return MakeValue(std::string(first ? "bq.array_first(" : "bq.array_last(") + a.sql + ")",
                   ElementType(a));
}

Value EmitArraySlice(Emitter& e, const ast::Call& call) {
  const Value a = PgArrayArg(e, call, 0);
  const Value from = e.EmitExpr(*call.args[1]);
  const Value to = e.EmitExpr(*call.args[2]);
  for (std::size_t i = 1; i < 3; ++i) {
    const Value& v = i == 1 ? from : to;
    if (!IsKind(v.type, K::kInt64) && !IsKind(v.type, K::kUnknown)) {
      Fail(DiagCode::kType, call.args[i]->span,
           "ARRAY_SLICE expects INT64 offsets, got " + TypeName(*v.type));
    }
  }
  // 0-based inclusive offsets, negative ones counted from the end, clamped to the array.
  const std::string n = "coalesce(cardinality(" + a.sql + "), 0)";
  auto offset = [&](const Value& v) {
    return "CASE WHEN (" + v.sql + ")::bigint < 0 THEN " + n + " + (" + v.sql + ")::bigint ELSE (" +
           v.sql + ")::bigint END";
  };
  const std::string lo = "least(greatest(" + offset(from) + ", 0) + 1, " + n + " + 1)::integer";
  const std::string hi = "greatest(least(" + offset(to) + ", " + n + " - 1) + 1, 0)::integer";
  Value v = a;
  // A NULL offset gives NULL (greatest/least would skip it).
  v.sql = "CASE WHEN " + from.sql + " IS NULL OR " + to.sql + " IS NULL THEN NULL ELSE (" + a.sql +
          ")[" + lo + ":" + hi + "] END";
  return v;
}

Value EmitArrayIncludes(Emitter& e, const ast::Call& call) {
  const Value a = PgArrayArg(e, call, 0);
  const Value x = e.EmitExpr(*call.args[1]);
  // x = ANY(a) is NULL when a holds a NULL and nothing matches: BigQuery says false.
  return MakeValue("CASE WHEN " + a.sql + " IS NULL OR " + x.sql + " IS NULL THEN NULL ELSE " +
                       "coalesce(" + x.sql + " = ANY(" + a.sql + "), false) END",
                   K::kBool);
}

Value EmitArrayIncludesAnyAll(Emitter& e, const ast::Call& call) {
  const Value a = PgArrayArg(e, call, 0);
  const Value b = PgArrayArg(e, call, 1);
  // PG's && and @> never match a NULL element, as BigQuery's functions.
  const bool any = Upper(call.name.name) == "ARRAY_INCLUDES_ANY";
  // Both sides in one array type (an INT64 array literal is int4[] in PG).
  const TypePtr element = CommonType(ElementType(a), ElementType(b));
  const std::string cast = element && element->kind != K::kUnknown && element->kind != K::kArray &&
                                   element->kind != K::kRecord
                               ? "::" + std::string(PgTypeName(element->kind)) + "[]"
                               : "";
  return MakeValue(
      "((" + a.sql + ")" + cast + (any ? " && " : " @> ") + "(" + b.sql + ")" + cast + ")",
      K::kBool);
}

}  // namespace lqe::pg
