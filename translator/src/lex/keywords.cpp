#include "lex/keywords.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "lqe/base/suggest.h"

namespace lqe::lex {
namespace {

// https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical#reserved_keywords
// Sorted, upper case.
constexpr std::string_view kReserved[] = {
    "ALL",
    "AND",
    "ANY",
    "ARRAY",
    "AS",
    "ASC",
    "ASSERT_ROWS_MODIFIED",
    "AT",
    "BETWEEN",
    "BY",
    "CASE",
    "CAST",
    "COLLATE",
    "CONTAINS",
    "CREATE",
    "CROSS",
    "CUBE",
    "CURRENT",
    "DEFAULT",
    "DEFINE",
    "DESC",
    "DISTINCT",
    "ELSE",
    "END",
    "ENUM",
    "ESCAPE",
    "EXCEPT",
    "EXCLUDE",
    "EXISTS",
    "EXTRACT",
    "FALSE",
    "FETCH",
    "FOLLOWING",
    "FOR",
    "FROM",
    "FULL",
    "GROUP",
    "GROUPING",
    "GROUPS",
    "HASH",
    "HAVING",
    "IF",
    "IGNORE",
    "IN",
    "INNER",
    "INTERSECT",
    "INTERVAL",
    "INTO",
    "IS",
    "JOIN",
    "LATERAL",
    "LEFT",
    "LIKE",
    "LIMIT",
    "LOOKUP",
    "MERGE",
    "NATURAL",
    "NEW",
    "NO",
    "NOT",
    "NULL",
    "NULLS",
    "OF",
    "ON",
    "OR",
    "ORDER",
    "OUTER",
    "OVER",
    "PARTITION",
    "PRECEDING",
    "PROTO",
    "QUALIFY",
    "RANGE",
    "RECURSIVE",
    "RESPECT",
    "RIGHT",
    "ROLLUP",
    "ROWS",
    "SELECT",
    "SET",
    "SOME",
    "STRUCT",
    "TABLESAMPLE",
    "THEN",
    "TO",
    "TREAT",
    "TRUE",
    "UNBOUNDED",
    "UNION",
    "UNNEST",
    "USING",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "WITHIN",
};
static_assert(std::is_sorted(std::begin(kReserved), std::end(kReserved)));

}  // namespace

bool IsReservedKeyword(std::string_view word) {
  constexpr std::size_t kLongest = 20;  // ASSERT_ROWS_MODIFIED
  if (word.empty() || word.size() > kLongest) {
    return false;
  }
  char buf[kLongest];
  for (std::size_t i = 0; i < word.size(); ++i) {
    buf[i] = ascii::ToUpper(word[i]);
  }
  return std::binary_search(std::begin(kReserved), std::end(kReserved),
                            std::string_view(buf, word.size()));
}

std::string_view NearestKeyword(std::string_view word) {
  if (word.size() < 3 || word.size() > 24) {
    return {};
  }
  std::string_view best;
  std::size_t best_distance = 3;
  for (std::string_view kw : kReserved) {
    if (kw.size() < 3) {
      continue;
    }
    const std::size_t limit = kw.size() <= 4 ? 1 : 2;
    const std::size_t d = EditDistance(word, kw);
    // Ties go to the keyword of the same length (form: FROM, not FOR).
    const bool better = d < best_distance || (d == best_distance && kw.size() == word.size() &&
                                              best.size() != word.size());
    if (d > 0 && d <= limit && better) {
      best = kw;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace lqe::lex
