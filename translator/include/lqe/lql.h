// LQL (the log search language): the translator's second front end, beside the BigQuery SQL
// parser. It lowers to the same AST the SQL parser builds, so typing, the sandbox and emission
// are shared with consumer SQL. Translate() calls it for ConsumerQuery::Language::kLql; tests
// and fuzzers call Lower() directly and inspect the tree through the translator's ast/ headers.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/diagnostic.h"
#include "lqe/types.h"

namespace lqe::ast {
struct Query;  // defined in the translator's private ast/query.h
}  // namespace lqe::ast

namespace lqe::lql {

// A CTE of the stored query that LQL may read (f:name), with its resolved row type
// (a RECORD of its output columns, e.g. timestamp TIMESTAMP, id STRING, event_message STRING,
// metadata STRUCT<...>).
struct CteInfo {
  std::string name;
  TypePtr row;
};

struct LowerContext {
  std::vector<CteInfo> ctes;                  // in stored-query order
  std::chrono::system_clock::time_point now;  // for today, last@5m, ...
};

// Parses `text` and builds the consumer query (a SELECT over one CTE). Diagnostics carry
// DiagSource::kConsumerLql and byte offsets into `text`.
std::variant<std::unique_ptr<ast::Query>, Diagnostic> Lower(std::string_view text,
                                                            const LowerContext& context);

// Parses `text` without a schema (a drain rule's filter, checked when it is stored): the
// positioned syntax error, or nullopt when it parses.
std::optional<Diagnostic> CheckSyntax(std::string_view text);

}  // namespace lqe::lql
