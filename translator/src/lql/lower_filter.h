// One LQL filter rule, typed against the CTE's row, to a boolean AST expression.
#pragma once

#include "ast/expr.h"
#include "lql/fields.h"
#include "lql/rules.h"
#include "lql/timestamp.h"

namespace lqe::lql {

struct FilterContext {
  const CteInfo* cte = nullptr;
  Micros now = 0;
};

// Throws LqlError for unknown fields, ill-typed values and operators the field cannot take.
ast::ExprPtr LowerFilter(const FilterRule& rule, const FilterContext& context);

// A path expression on the CTE: <cte>.<names...>.
ast::ExprPtr FieldPath(const CteInfo& cte, const ResolvedField& field, SourceSpan span);

}  // namespace lqe::lql
