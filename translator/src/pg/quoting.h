// The only places user-controlled text becomes PostgreSQL SQL text.
#pragma once

#include <string>
#include <string_view>

namespace lqe::pg {

// An identifier in a position where PG keywords need quotes (table aliases, CTE names).
// Left bare only when it is [a-z_][a-z0-9_]* and not a reserved/column-name PG keyword.
std::string QuoteIdent(std::string_view name);
// An identifier after a dot or AS, where PG accepts any keyword: quoted only when it is not
// [a-z_][a-z0-9_]*.
std::string QuoteLabel(std::string_view name);
// A string literal: 'it''s'; E'a\\b' when the value contains a backslash.
std::string QuoteLiteral(std::string_view value);

}  // namespace lqe::pg
