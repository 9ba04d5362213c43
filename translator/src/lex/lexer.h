// BigQuery lexer: text to tokens with byte spans. Strings, bytes and quoted identifiers are
// decoded (escapes applied); comments and whitespace are dropped.
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

#include "lex/token.h"
#include "lqe/diagnostic.h"

namespace lqe::lex {

// Which SQL dialect's lexical rules apply. ClickHouse: "..." is an identifier (not a string),
// {name:Type} a query parameter (a kParam token named `name`), ILIKE an operator keyword.
enum class Dialect : std::uint8_t { kBigQuery, kClickHouse };

// The last token is always kEnd. Errors are kSyntax diagnostics positioned at the bad input.
std::variant<std::vector<Token>, Diagnostic> Tokenize(std::string_view text, DiagSource source,
                                                      Dialect dialect = Dialect::kBigQuery);

}  // namespace lqe::lex
