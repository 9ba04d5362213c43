// PostgreSQL's special date/time input words ('infinity', '-infinity', 'now', 'today', 'epoch',
// ...): its casts read them, alone or beside a time ('today 12:00'), and BigQuery refuses them
// ("Invalid timestamp: 'infinity'"). A literal holding one is refused while translating.
#pragma once

#include <string_view>

#include "ast/query.h"  // expr.h needs Query complete where nodes are destroyed
#include "lqe/types.h"

namespace lqe::pg {

// The first special word in `text` (letters compared in any case), or "" when it holds none.
std::string_view PgSpecialDateTimeWord(std::string_view text);

// Fails, positioned at `span`, when `operand` is a string literal (or a DATE/DATETIME/TIME/
// TIMESTAMP literal) holding a special word and `target` is a date or time kind: the value
// BigQuery refuses to read as `target`. Other operands are left to run time.
void RefuseSpecialDateTimeLiteral(const ast::Expr& operand, TypeKind target, ast::SourceSpan span);

}  // namespace lqe::pg
