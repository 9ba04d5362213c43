#include "sql_layout.h"

#include <array>

namespace lqe::cli {
namespace {

// Clause keywords that start a new line (PostgreSQL as the translator emits it: upper case).
constexpr std::array<std::string_view, 16> kClauses = {
    "SELECT",    "FROM",       "WHERE",      "GROUP BY", "HAVING",    "WINDOW",
    "ORDER BY",  "LIMIT",      "OFFSET",     "UNION",    "INTERSECT", "EXCEPT",
    "LEFT JOIN", "CROSS JOIN", "INNER JOIN", "FULL JOIN"};

bool StartsClause(std::string_view rest) {
  for (std::string_view kw : kClauses) {
    if (rest.substr(0, kw.size()) == kw &&
        (rest.size() == kw.size() || rest[kw.size()] == ' ' || rest[kw.size()] == '(')) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string LayOutSql(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + sql.size() / 8);
  int depth = 0;
  char quote = 0;            // ' or " while inside a literal or quoted identifier
  bool backslashes = false;  // inside E'...', where \ escapes the next character
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote != 0) {
      out += c;
      if (backslashes && c == '\\' && i + 1 < sql.size()) {
        out += sql[++i];
      } else if (c == quote) {
        quote = 0;  // a doubled quote closes and reopens: same result
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      backslashes = c == '\'' && i > 0 && sql[i - 1] == 'E';
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      depth = depth > 0 ? depth - 1 : 0;
    } else if (c == ' ' && i > 0 &&
               (StartsClause(sql.substr(i + 1)) || (depth == 0 && sql[i - 1] == ','))) {
      out += '\n';
      out.append(static_cast<std::size_t>(depth) * 2 + (sql[i - 1] == ',' ? 2 : 0), ' ');
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace lqe::cli
