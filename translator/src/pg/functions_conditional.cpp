// Conditional functions: IF, IFNULL, NULLIF, COALESCE, GREATEST and LEAST. GREATEST/LEAST return
// NULL when any argument is NULL (BigQuery), unlike PG's which skip NULLs.
#include "pg/function_table.h"
#include "pg/type_table.h"

namespace lqe::pg {
namespace {

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

}  // namespace lqe::pg
