// LQL (the log search language) lowered to the same AST the SQL path builds, so typing, the
// sandbox and emission are shared with consumer SQL.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ast/query.h"
#include "lqe/diagnostic.h"
#include "lqe/types.h"

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
std::variant<ast::QueryPtr, Diagnostic> Lower(std::string_view text, const LowerContext& context);

}  // namespace lqe::lql
