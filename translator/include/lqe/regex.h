// RE2 (BigQuery) regular expressions to PostgreSQL's ARE dialect.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lqe {

struct RegexConversion {
  std::string pattern;           // ARE pattern, ready for the ~ operator
  std::string error;             // non-empty when the pattern cannot be converted faithfully
  std::size_t error_offset = 0;  // byte offset into the RE2 pattern
  int capturing_groups = 0;      // RE2's NumberOfCapturingGroups()
};

// Converts an RE2 pattern: \b -> \y, (?i) anywhere, \pL classes, ... A construct RE2 rejects or
// that has no ARE equivalent gives an error instead of a silently different pattern.
RegexConversion ConvertRe2ToPosix(std::string_view re2);

}  // namespace lqe
