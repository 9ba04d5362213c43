#include "pg/quoting.h"

#include <algorithm>
#include <iterator>

namespace lqe::pg {
namespace {

// PG 15 keywords that are reserved, type/function names or column-name keywords: these need
// quotes as bare identifiers. Unreserved keywords (value, year, ...) do not. Sorted.
constexpr std::string_view kKeywords[] = {"all",
                                          "analyse",
                                          "analyze",
                                          "and",
                                          "any",
                                          "array",
                                          "as",
                                          "asc",
                                          "asymmetric",
                                          "authorization",
                                          "between",
                                          "bigint",
                                          "binary",
                                          "bit",
                                          "boolean",
                                          "both",
                                          "case",
                                          "cast",
                                          "char",
                                          "character",
                                          "check",
                                          "coalesce",
                                          "collate",
                                          "collation",
                                          "column",
                                          "concurrently",
                                          "constraint",
                                          "create",
                                          "cross",
                                          "current_catalog",
                                          "current_date",
                                          "current_role",
                                          "current_schema",
                                          "current_time",
                                          "current_timestamp",
                                          "current_user",
                                          "dec",
                                          "decimal",
                                          "default",
                                          "deferrable",
                                          "desc",
                                          "distinct",
                                          "do",
                                          "else",
                                          "end",
                                          "except",
                                          "exists",
                                          "extract",
                                          "false",
                                          "fetch",
                                          "float",
                                          "for",
                                          "foreign",
                                          "freeze",
                                          "from",
                                          "full",
                                          "grant",
                                          "greatest",
                                          "group",
                                          "grouping",
                                          "having",
                                          "ilike",
                                          "in",
                                          "initially",
                                          "inner",
                                          "inout",
                                          "int",
                                          "integer",
                                          "intersect",
                                          "interval",
                                          "into",
                                          "is",
                                          "isnull",
                                          "join",
                                          "lateral",
                                          "leading",
                                          "least",
                                          "left",
                                          "like",
                                          "limit",
                                          "localtime",
                                          "localtimestamp",
                                          "national",
                                          "natural",
                                          "nchar",
                                          "none",
                                          "normalize",
                                          "not",
                                          "notnull",
                                          "null",
                                          "nullif",
                                          "numeric",
                                          "offset",
                                          "on",
                                          "only",
                                          "or",
                                          "order",
                                          "out",
                                          "outer",
                                          "overlaps",
                                          "overlay",
                                          "placing",
                                          "position",
                                          "precision",
                                          "primary",
                                          "real",
                                          "references",
                                          "returning",
                                          "right",
                                          "row",
                                          "select",
                                          "session_user",
                                          "setof",
                                          "similar",
                                          "smallint",
                                          "some",
                                          "substring",
                                          "symmetric",
                                          "table",
                                          "tablesample",
                                          "then",
                                          "time",
                                          "timestamp",
                                          "to",
                                          "trailing",
                                          "treat",
                                          "trim",
                                          "true",
                                          "union",
                                          "unique",
                                          "user",
                                          "using",
                                          "values",
                                          "varchar",
                                          "variadic",
                                          "verbose",
                                          "when",
                                          "where",
                                          "window",
                                          "with",
                                          "xmlattributes"};

bool IsSimple(std::string_view name) {
  if (name.empty() || !(name[0] == '_' || (name[0] >= 'a' && name[0] <= 'z'))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
}

bool IsKeyword(std::string_view name) {
  return std::binary_search(std::begin(kKeywords), std::end(kKeywords), name);
}

std::string DoubleQuote(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '\0') continue;  // PG identifiers cannot hold NUL
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string QuoteIdent(std::string_view name) {
  return IsSimple(name) && !IsKeyword(name) ? std::string(name) : DoubleQuote(name);
}

std::string QuoteLabel(std::string_view name) {
  return IsSimple(name) ? std::string(name) : DoubleQuote(name);
}

std::string QuoteLiteral(std::string_view value) {
  const bool backslash = value.find('\\') != std::string_view::npos;
  std::string out = backslash ? "E'" : "'";
  for (char c : value) {
    if (c == '\0') continue;  // PG text cannot hold NUL; BigQuery strings rarely do
    if (c == '\'') out += '\'';
    if (c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace lqe::pg
