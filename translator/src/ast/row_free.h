// Questions about an expression as written, shared by the emitters: whether it reads no row.
#pragma once

#include <string_view>

#include "ast/query.h"  // expr.h needs Query complete where nodes are destroyed

namespace lqe::ast {

// A call of `name` with no SAFE., DISTINCT, IGNORE/RESPECT NULLS, ORDER BY, LIMIT or OVER.
bool IsPlainCall(const Expr& e, std::string_view name);

// An expression of parameters and literals only (casts and plain calls of them), e.g. a time
// bound: its value is the same for every row, so it can be evaluated once.
bool IsRowFree(const Expr& e);

}  // namespace lqe::ast
