// Parser entry point: one BigQuery query statement (a trailing ';' allowed) to an AST.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "ast/query.h"
#include "lex/lexer.h"
#include "lqe/diagnostic.h"

namespace lqe::parse {

struct ParseOptions {
  std::uint32_t max_nesting_depth = 128;     // deeper input: "query is too deeply nested"
  std::size_t max_query_bytes = 256 * 1024;  // longer input: "query is too long"
  DiagSource source = DiagSource::kStored;   // stamped on every diagnostic
  lex::Dialect dialect = lex::Dialect::kBigQuery;
};

std::variant<ast::QueryPtr, Diagnostic> ParseQuery(std::string_view text,
                                                   const ParseOptions& options);

}  // namespace lqe::parse
