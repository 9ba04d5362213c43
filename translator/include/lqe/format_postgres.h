// A readable layout of the PostgreSQL the translator emits (one line per query otherwise): a line
// break before each major clause (WITH, SELECT, FROM, JOINs, WHERE, GROUP BY, HAVING, WINDOW,
// ORDER BY, LIMIT, OFFSET, set operators), one CTE per block, and subqueries indented by two
// spaces. Only whitespace between tokens changes: string literals, quoted identifiers and
// comments are copied as they are, so the formatted text runs exactly as the input.
#pragma once

#include <string>
#include <string_view>

namespace lqe {

std::string FormatPostgres(std::string_view sql);

}  // namespace lqe
