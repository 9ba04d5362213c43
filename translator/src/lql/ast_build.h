// Small constructors for the AST nodes LQL lowering produces (ast/expr.h, ast/query.h).
#pragma once

#include <string>
#include <vector>

#include "ast/query.h"

namespace lqe::lql::build {

using ast::ExprPtr;
using ast::SourceSpan;

ExprPtr Path(const std::vector<std::string>& parts, SourceSpan span);
ExprPtr Null(SourceSpan span);
ExprPtr String(std::string value, SourceSpan span);
ExprPtr Int(std::string digits, SourceSpan span);
ExprPtr Float(std::string text, SourceSpan span);
ExprPtr Bool(bool value, SourceSpan span);
ExprPtr Typed(TypeKind kind, std::string text, SourceSpan span);  // TIMESTAMP '...'
ExprPtr Binary(ast::Binary::Op op, ExprPtr left, ExprPtr right, SourceSpan span);
ExprPtr Not(ExprPtr operand, SourceSpan span);
ExprPtr Negate(ExprPtr operand, SourceSpan span);
ExprPtr IsNull(ExprPtr operand, bool negated, SourceSpan span);
ExprPtr Between(ExprPtr operand, ExprPtr low, ExprPtr high, SourceSpan span);
ExprPtr Call(std::string name, ast::ExprList args, SourceSpan span);
// x IN UNNEST(array)
ExprPtr InUnnest(ExprPtr value, ExprPtr array, SourceSpan span);
// x IN (a, b, ...)
ExprPtr InList(ExprPtr operand, ast::ExprList list, SourceSpan span);
// EXISTS(SELECT 1 FROM UNNEST(array) AS <alias> WHERE <condition>)
ExprPtr ExistsInUnnest(ExprPtr array, const std::string& alias, ExprPtr condition, SourceSpan span);
// Joins conditions with AND; null when there are none.
ExprPtr AndAll(ast::ExprList conditions);

}  // namespace lqe::lql::build
