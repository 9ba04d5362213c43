// The ClickHouse functions the ClickHouse front end supports, each lowered to BigQuery AST the
// PostgreSQL emitter knows, with ClickHouse's semantics. Anything else is refused by name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ast/query.h"

namespace lqe::clickhouse {

// The call (its arguments already lowered) as BigQuery AST; throws a positioned error for a
// function not in the table or a call it cannot lower.
ast::ExprPtr LowerCall(ast::Call& call);
// The supported names, as ClickHouse spells them.
std::vector<std::string> FunctionNames();

}  // namespace lqe::clickhouse
