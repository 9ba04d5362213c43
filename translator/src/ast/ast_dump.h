// Deterministic, indented text dump of a query AST, for golden tests and debugging.
#pragma once

#include <string>
#include <string_view>

#include "ast/query.h"

namespace lqe::ast {

// Spans as byte ranges: [begin-end).
std::string DumpAst(const Query& query);
// Spans as line:column ranges computed in `text` (the parsed source), so the dump does not change
// with the source's line-ending style.
std::string DumpAst(const Query& query, std::string_view text);

}  // namespace lqe::ast
