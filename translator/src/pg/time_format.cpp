// BigQuery format elements -> PostgreSQL to_char/to_timestamp templates. Hand-written: the two
// template languages differ element by element, and elements to_char cannot reproduce exactly
// (space padding, Sunday-based week numbers, trimmed fractions, epoch seconds) are refused.
#include "pg/time_format.h"

#include <array>
#include <string>

namespace lqe::pg {
namespace {

struct Element {
  std::string_view bigquery;  // after '%'
  std::string_view pg;        // empty: refused
  std::string_view why;       // reason for a refusal
};

// Longest BigQuery spellings first, so %E3S wins over %E.
constexpr std::array kElements = {
    Element{"E1S", "SS.FF1", ""},
    Element{"E2S", "SS.FF2", ""},
    Element{"E3S", "SS.FF3", ""},
    Element{"E4S", "SS.FF4", ""},
    Element{"E5S", "SS.FF5", ""},
    Element{"E6S", "SS.FF6", ""},
    Element{"E0S", "SS", ""},
    Element{"E*S", "", "prints only the significant fraction digits"},
    Element{"E4Y", "YYYY", ""},
    Element{"Ez", "TZH:TZM", ""},
    Element{"Y", "YYYY", ""},
    Element{"m", "MM", ""},
    Element{"d", "DD", ""},
    Element{"H", "HH24", ""},
    Element{"M", "MI", ""},
    Element{"S", "SS", ""},
    Element{"F", "YYYY-MM-DD", ""},
    Element{"T", "HH24:MI:SS", ""},
    Element{"R", "HH24:MI", ""},
    Element{"D", "MM/DD/YY", ""},
    Element{"x", "MM/DD/YY", ""},
    Element{"X", "HH24:MI:SS", ""},
    Element{"j", "DDD", ""},
    Element{"a", "Dy", ""},
    Element{"A", "FMDay", ""},
    Element{"b", "Mon", ""},
    Element{"h", "Mon", ""},
    Element{"B", "FMMonth", ""},
    Element{"p", "AM", ""},
    Element{"I", "HH12", ""},
    Element{"y", "YY", ""},
    Element{"G", "IYYY", ""},
    Element{"g", "IY", ""},
    Element{"V", "IW", ""},
    Element{"u", "ID", ""},
    Element{"Q", "Q", ""},
    Element{"Z", "TZ", ""},
    Element{"z", "TZHTZM", ""},
    Element{"n", "\"\n\"", ""},
    Element{"t", "\"\t\"", ""},
    Element{"%", "\"%\"", ""},
    Element{"e", "", "pads the day with a space"},
    Element{"l", "", "pads the hour with a space"},
    Element{"k", "", "pads the hour with a space"},
    Element{"C", "", "is year / 100, PostgreSQL's CC is the ordinal century"},
    Element{"w", "", "numbers Sunday as 0"},
    Element{"U", "", "counts weeks from Sunday"},
    Element{"W", "", "counts weeks from Monday outside ISO weeks"},
    Element{"s", "", "prints seconds since the epoch"},
    Element{"c", "", "pads the day with a space"},
};

void AppendLiteral(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  out += '"';
}

}  // namespace

TimeFormatConversion ConvertTimeFormat(std::string_view bigquery_format) {
  TimeFormatConversion result;
  std::string literal;
  bool after_element = false;  // two elements in a row get "" between them: YY then YYYY
  std::size_t pos = 0;
  while (pos < bigquery_format.size()) {
    if (bigquery_format[pos] != '%') {
      literal += bigquery_format[pos++];
      continue;
    }
    const std::string_view rest = bigquery_format.substr(pos + 1);
    const Element* found = nullptr;
    for (const auto& element : kElements) {
      if (rest.substr(0, element.bigquery.size()) == element.bigquery) {
        found = &element;
        break;
      }
    }
    if (found == nullptr) {
      result.error = rest.empty() ? "incomplete format element % at the end of the format"
                                  : "unsupported format element %" +
                                        std::string(rest.substr(0, rest[0] == 'E' ? 2 : 1));
      result.error_offset = pos;
      result.pattern.clear();
      return result;
    }
    if (found->pg.empty()) {
      result.error = "format element %" + std::string(found->bigquery) +
                     " has no PostgreSQL equivalent: it " + std::string(found->why);
      result.error_offset = pos;
      result.pattern.clear();
      return result;
    }
    pos += 1 + found->bigquery.size();
    if (found->pg[0] == '"') {  // %% %n %t are literal text
      literal += found->pg[1];
      continue;
    }
    if (!literal.empty()) {
      AppendLiteral(result.pattern, literal);
      literal.clear();
    } else if (after_element) {
      result.pattern += "\"\"";  // keeps PostgreSQL from reading YYYYYY as YYYY + YY
    }
    result.pattern += found->pg;
    after_element = true;
  }
  if (!literal.empty()) {
    AppendLiteral(result.pattern, literal);
  }
  return result;
}

}  // namespace lqe::pg
