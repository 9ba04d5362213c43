// An LQL filter as a PostgreSQL condition on one row of a log table (alias `e`): the clauses
// of the endpoints' LQL parser (lqe/lql_filter.h) with the live tail's semantics (tail/
// event_match.h), evaluated by PostgreSQL instead of the gateway. Every value the caller typed
// travels as a bind parameter; only the shape of the condition is SQL text.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/diagnostic.h"

namespace lqe::gateway::logapi {

// Bind parameters in order ($1, $2, ...); the condition text refers to them by number.
class SqlParams {
 public:
  // "$n" for a new parameter holding `value`.
  std::string Add(std::optional<std::string> value);
  const std::vector<std::optional<std::string>>& values() const { return values_; }

 private:
  std::vector<std::optional<std::string>> values_;
};

// The condition ("TRUE" for an empty filter), its parameters appended to `params`; the
// positioned diagnostic when the text does not parse or holds a regular expression RE2 or
// PostgreSQL cannot take.
std::variant<std::string, Diagnostic> FilterCondition(std::string_view lql,
                                                      std::chrono::system_clock::time_point now,
                                                      SqlParams& params);

// A lax SQL/JSON path for the keys after a column (`$."a"."b"`), arrays on the way stepped into.
std::string JsonPath(const std::vector<std::string>& keys, std::size_t from);

}  // namespace lqe::gateway::logapi
