#include "lex/keywords.h"

#include <algorithm>
#include <iterator>
#include <vector>

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

// ASCII only: std::toupper consults the locale and dominated parse time.
char Upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// Compares case-insensitively; negative, zero or positive like strcmp.
int CompareUpper(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const char x = Upper(a[i]);
    const char y = Upper(b[i]);
    if (x != y) {
      return x < y ? -1 : 1;
    }
  }
  if (a.size() == b.size()) {
    return 0;
  }
  return a.size() < b.size() ? -1 : 1;
}

// Optimal string alignment distance: edits plus adjacent transpositions ("form" -> "from" is 1).
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) {
    d[i][0] = i;
  }
  for (std::size_t j = 0; j <= b.size(); ++j) {
    d[0][j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = Upper(a[i - 1]) == Upper(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && Upper(a[i - 1]) == Upper(b[j - 2]) &&
          Upper(a[i - 2]) == Upper(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CompareUpper(a, b) == 0;
}

bool IsReservedKeyword(std::string_view word) {
  constexpr std::size_t kLongest = 20;  // ASSERT_ROWS_MODIFIED
  if (word.empty() || word.size() > kLongest) {
    return false;
  }
  char buf[kLongest];
  for (std::size_t i = 0; i < word.size(); ++i) {
    buf[i] = Upper(word[i]);
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
