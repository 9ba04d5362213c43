// BigQuery's reserved keywords: they cannot be unquoted identifiers.
#pragma once

#include <string_view>

#include "lqe/base/ascii.h"

namespace lqe::lex {

// True when `word` (any case) is a reserved keyword of BigQuery's lexical structure.
bool IsReservedKeyword(std::string_view word);

// Case-insensitive ASCII comparison.
using ascii::EqualsIgnoreCase;

// The reserved keyword closest to `word` by edit distance (at most 2, words of 3+ letters), or
// empty. Used for "Did you mean FROM?" hints.
std::string_view NearestKeyword(std::string_view word);

}  // namespace lqe::lex
