// The filter clauses of an LQL text, for callers that test events one by one (the live tail)
// rather than translating to SQL. Same parser as the endpoints' LQL; timestamp values are
// resolved to microsecond bounds here, with the same rules (ISO dates, unix times, shorthands).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/diagnostic.h"

namespace lqe::lql {

// Shared with the parser's rule model (src/lql/rules.h).
enum class FilterOp : std::uint8_t {
  kContains,       // free text: substring of event_message
  kEq,             // path:value
  kGt,             // path:>value
  kGe,             // path:>=value
  kLt,             // path:<value
  kLe,             // path:<=value
  kRange,          // path:low..high
  kRegex,          // path:~re, ~re
  kArrayContains,  // path:@>value
  kArrayRegex,     // path:@>~re
  kIsNull,         // path:NULL
};

// [low, high) or [low, high] in microseconds since the epoch.
struct TimeBounds {
  std::int64_t low = 0;
  std::int64_t high = 0;
  bool high_exclusive = false;
};

struct FilterClause {
  std::vector<std::string> path;  // {"event_message"}, {"metadata", "level"}, {"timestamp"}
  FilterOp op = FilterOp::kEq;
  std::string value;  // all ops but kIsNull; kRange: the low end
  std::string high;   // kRange only
  bool negated = false;
  // For a timestamp path: the bounds the value stands for (a point is low == high, inclusive);
  // kGt..kLe compare with `low`.
  std::optional<TimeBounds> time;
  std::uint32_t offset = 0;  // the clause in the text, for messages
  std::uint32_t length = 0;
};

// Parses `text` into its filters (all must hold). s:, c: and f: clauses, and timestamp values
// that do not parse, are errors (DiagSource::kConsumerLql, byte offsets into `text`).
std::variant<std::vector<FilterClause>, Diagnostic> ParseFilterClauses(
    std::string_view text, std::chrono::system_clock::time_point now);

}  // namespace lqe::lql
