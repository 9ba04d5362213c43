// Small constructors of BigQuery AST nodes, for the ClickHouse lowering: every node takes the
// span of the ClickHouse text it stands for, so errors found later still point there.
#pragma once

#include <string>
#include <string_view>

#include "ast/query.h"

namespace lqe::clickhouse {

ast::ExprPtr Call(std::string_view name, ast::SourceSpan span, ast::ExprList args);
// A date part argument (MINUTE, DAY, ...), as the parser makes it: a one-name path.
ast::ExprPtr DatePart(std::string_view part, ast::SourceSpan span);
ast::ExprPtr IntLiteral(long long value, ast::SourceSpan span);
ast::ExprPtr StringLiteral(std::string value, ast::SourceSpan span);
ast::ExprPtr BoolLiteral(bool value, ast::SourceSpan span);
ast::ExprPtr FloatLiteral(std::string text, ast::SourceSpan span);
ast::ExprPtr NullLiteral(ast::SourceSpan span);
// `operand IS [NOT] NULL`
ast::ExprPtr IsNull(ast::ExprPtr operand, bool negated, ast::SourceSpan span);
// CASE WHEN condition THEN then ELSE otherwise END
ast::ExprPtr IfThen(ast::ExprPtr condition, ast::ExprPtr then, ast::ExprPtr otherwise,
                    ast::SourceSpan span);
ast::ExprPtr SafeCast(ast::ExprPtr operand, TypeKind kind, ast::SourceSpan span);
ast::ExprPtr Cast(ast::ExprPtr operand, TypeKind kind, ast::SourceSpan span);
ast::ExprPtr Multiply(ast::ExprPtr left, ast::ExprPtr right, ast::SourceSpan span);
ast::ExprPtr Binary(ast::Binary::Op op, ast::ExprPtr left, ast::ExprPtr right,
                    ast::SourceSpan span);
// A deep copy of a lowered expression made of literals, parameters, paths, subscripts, unary and
// binary operators, casts and calls without modifiers; nullptr for anything else (the caller
// then refuses the form that needs the copy).
ast::ExprPtr Clone(const ast::Expr& e);

}  // namespace lqe::clickhouse
