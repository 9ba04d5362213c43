// Conditional functions: IF, IFNULL, NULLIF, COALESCE, GREATEST and LEAST. GREATEST/LEAST return
// NULL when any argument is NULL (BigQuery), unlike PG's which skip NULLs.
#include "pg/function_table.h"
#include "pg/type_table.h"

namespace lqe::pg {

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
