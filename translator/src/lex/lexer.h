// BigQuery lexer: text to tokens with byte spans. Strings, bytes and quoted identifiers are
// decoded (escapes applied); comments and whitespace are dropped.
#pragma once

#include <string_view>
#include <variant>
#include <vector>

#include "lex/token.h"
#include "lqe/diagnostic.h"

namespace lqe::lex {

// The last token is always kEnd. Errors are kSyntax diagnostics positioned at the bad input.
std::variant<std::vector<Token>, Diagnostic> Tokenize(std::string_view text, DiagSource source);

}  // namespace lqe::lex
