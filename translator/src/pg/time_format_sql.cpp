#include "pg/time_format_sql.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/base/ascii.h"
#include "pg/time_format.h"

namespace lqe::pg {
namespace {

// One element of a format string: its spelling after '%' (alternative forms %Ox / %Ex already
// mapped to x) and where it starts.
struct Element {
  std::string name;
  std::size_t offset = 0;
  std::size_t length = 0;  // bytes in the format, '%' included
};

// A PG string literal (standard_conforming_strings: only quotes are doubled).
std::string Literal(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

using ascii::IsDigit;

// Reads the element at `pos` (a '%'); name is empty when the format ends after '%'.
Element ReadElement(std::string_view f, std::size_t pos) {
  Element e{"", pos, 1};
  if (pos + 1 >= f.size()) return e;
  const char c = f[pos + 1];
  e.length = 2;
  e.name = std::string(1, c);
  if ((c == 'E' || c == 'O') && pos + 2 < f.size()) {
    const std::string_view rest = f.substr(pos + 2);
    if (c == 'E' && rest.size() >= 2 && (rest[0] == '*' || IsDigit(rest[0])) && rest[1] == 'S') {
      e.name = "E" + std::string(rest.substr(0, 2));
      e.length = 4;
    } else if (c == 'E' && rest.size() >= 3 && IsDigit(rest[0]) && IsDigit(rest[1]) &&
               rest[2] == 'S') {
      e.name = "E" + std::string(rest.substr(0, 3));
      e.length = 5;
    } else if (c == 'E' && rest.substr(0, 2) == "4Y") {
      e.name = "E4Y";
      e.length = 4;
    } else if (c == 'E' && rest[0] == 'z') {
      e.name = "Ez";
      e.length = 3;
    } else if ((c == 'E' && std::string_view("cCxXyY").find(rest[0]) != std::string_view::npos) ||
               (c == 'O' &&
                std::string_view("deHImMSuUVwWy").find(rest[0]) != std::string_view::npos)) {
      e.name = std::string(1, rest[0]);  // the locale's alternative: the same in English
      e.length = 3;
    }
  }
  return e;
}

std::string Unsupported(const Element& e, std::string_view function, bool parsing) {
  if (e.name.empty()) {
    return "incomplete format element % at the end of the format of " + std::string(function);
  }
  return "format element %" + e.name + " is not supported " +
         (parsing ? "for parsing by " : "for formatting by ") + std::string(function);
}

// Concatenation in one allocation (the element loop builds many such strings).
std::string Join(std::initializer_list<std::string_view> parts) {
  std::string out;
  std::size_t size = 0;
  for (std::string_view p : parts) size += p.size();
  out.reserve(size);
  for (std::string_view p : parts) out.append(p);
  return out;
}

std::string Lpad(const std::string& sql, int width, char pad) {
  return "lpad(" + sql + ", " + std::to_string(width) + ", '" + pad + "')";
}

std::string OffsetSql(const std::string& off, bool colon) {
  if (off == "0") return colon ? "'+00:00'" : "'+0000'";
  const std::string a = "abs(" + off + ")";
  return "(CASE WHEN " + off + " < 0 THEN '-' ELSE '+' END || " +
         Lpad("(" + a + " / 3600)::text", 2, '0') + (colon ? " || ':'" : "") + " || " +
         Lpad("(" + a + " % 3600 / 60)::text", 2, '0') + ")";
}

}  // namespace

TimeFormatSql FormatTimeSql(std::string_view f, const TimeFormatInput& in) {
  TimeFormatSql out;
  std::vector<std::string> parts;
  std::string simple;  // a run of elements to_char prints exactly, in BigQuery spelling
  const std::string& local = in.local_sql;
  auto flush = [&] {
    if (simple.empty()) return;
    const TimeFormatConversion conv = ConvertTimeFormat(simple);
    parts.push_back("to_char(" + local + ", " + Literal(conv.pattern) + ")");
    simple.clear();
  };
  auto special = [&](std::string sql) {
    flush();
    parts.push_back(std::move(sql));
  };
  std::size_t pos = 0;
  while (pos < f.size()) {
    if (f[pos] != '%') {
      simple += f[pos++];
      continue;
    }
    const Element e = ReadElement(f, pos);
    pos += e.length;
    const std::string& n = e.name;
    static constexpr std::string_view kToChar[] = {
        "Y", "m", "d", "H", "M", "S", "F", "T", "R", "D", "x", "X", "j", "a", "A",
        "b", "h", "B", "p", "I", "y", "G", "g", "V", "u", "Q", "n", "t", "%", "E4Y"};
    bool plain = false;
    for (const auto k : kToChar) plain = plain || n == k;
    if (plain) {
      simple += "%" + n;
    } else if (n.size() >= 3 && n[0] == 'E' && IsDigit(n[1]) && n.back() == 'S') {
      const int digits = std::stoi(n.substr(1, n.size() - 2));
      if (digits <= 6) {
        simple += "%E" + std::to_string(digits) + "S";
      } else {  // timestamps hold microseconds: further digits are zeros
        simple += "%E6S" + std::string(static_cast<std::size_t>(digits - 6), '0');
      }
    } else if (n == "E*S") {
      special("rtrim(rtrim(to_char(" + local + ", 'SS.US'), '0'), '.')");
    } else if (n == "e") {
      special(Lpad("to_char(" + local + ", 'FMDD')", 2, ' '));
    } else if (n == "k") {
      special(Lpad("to_char(" + local + ", 'FMHH24')", 2, ' '));
    } else if (n == "l") {
      special(Lpad("to_char(" + local + ", 'FMHH12')", 2, ' '));
    } else if (n == "P") {
      special("to_char(" + local + ", 'am')");
    } else if (n == "J") {
      special("to_char(" + local + ", 'IDDD')");
    } else if (n == "C") {
      special(Lpad("(floor(EXTRACT(YEAR FROM " + local + ") / 100))::bigint::text", 2, '0'));
    } else if (n == "w") {
      special("EXTRACT(DOW FROM " + local + ")::int::text");
    } else if (n == "U") {
      special(Lpad(Join({"((EXTRACT(DOY FROM ", local, ")::int + 6 - EXTRACT(DOW FROM ", local,
                         ")::int) / 7)::text"}),
                   2, '0'));
    } else if (n == "W") {
      special(Lpad(Join({"((EXTRACT(DOY FROM ", local, ")::int + 6 - (EXTRACT(DOW FROM ", local,
                         ")::int + 6) % 7) / 7)::text"}),
                   2, '0'));
    } else if (n == "s") {
      special("(" + in.epoch_sql + ")::text");
    } else if (n == "c") {
      special(Join({"to_char(", local, ", 'Dy Mon ') || ",
                    Lpad("to_char(" + local + ", 'FMDD')", 2, ' '), " || to_char(", local,
                    ", ' HH24:MI:SS YYYY')"}));
    } else if (n == "z" || n == "Ez") {
      special(OffsetSql(in.offset_sql, n == "Ez"));
    } else if (n == "Z" && !in.zone_name_sql.empty()) {
      special(in.zone_name_sql);
    } else {
      out.error = Unsupported(e, in.function, false);
      out.error_offset = e.offset;
      out.error_length = e.length;
      return out;
    }
  }
  flush();
  if (parts.empty()) {
    out.sql = "''";
  } else if (parts.size() == 1) {
    out.sql = parts[0];
  } else {
    out.sql = "(";
    for (std::size_t i = 0; i < parts.size(); ++i) out.sql += (i ? " || " : "") + parts[i];
    out.sql += ")";
  }
  return out;
}

TimeParseRegex ParseTimeRegex(std::string_view f, std::string_view function) {
  TimeParseRegex out;
  out.regex = "^[[:space:]]*";
  // Composite elements are read as their parts.
  auto expand = [](const std::string& n) -> std::string_view {
    if (n == "F") return "%Y-%m-%d";
    if (n == "T" || n == "X") return "%H:%M:%S";
    if (n == "R") return "%H:%M";
    if (n == "D" || n == "x") return "%m/%d/%y";
    if (n == "c") return "%a %b %e %H:%M:%S %Y";
    return "";
  };
  std::string format(f);
  std::vector<std::size_t> origin(format.size());  // offset in the caller's format
  for (std::size_t i = 0; i < origin.size(); ++i) origin[i] = i;
  std::size_t pos = 0;
  while (pos < format.size()) {
    const char c = format[pos];
    if (c != '%') {
      if (ascii::IsSpace(c)) {
        out.regex += "[[:space:]]*";
      } else if (ascii::IsAlnum(c) || static_cast<unsigned char>(c) >= 0x80) {
        out.regex += c;
      } else {
        out.regex += std::string("\\") + c;
      }
      ++pos;
      continue;
    }
    const Element e = ReadElement(format, pos);
    const std::size_t at = origin[pos];
    const std::string& n = e.name;
    if (const auto composite = expand(n); !composite.empty()) {
      format.replace(pos, e.length, composite);
      origin.erase(origin.begin() + static_cast<long>(pos),
                   origin.begin() + static_cast<long>(pos + e.length));
      origin.insert(origin.begin() + static_cast<long>(pos), composite.size(), at);
      continue;
    }
    pos += e.length;
    auto group = [&](std::string_view re, char role) {
      out.regex += "(" + std::string(re) + ")";
      out.roles += role;
    };
    if (n == "Y") {
      group("[0-9]{1,4}", 'Y');
    } else if (n == "E4Y") {
      group("[0-9]{4}", 'Y');
    } else if (n == "y") {
      group("[0-9]{1,2}", 'y');
    } else if (n == "m") {
      group("[0-9]{1,2}", 'm');
    } else if (n == "d" || n == "e") {
      out.regex += " *";
      group("[0-9]{1,2}", 'd');
    } else if (n == "j") {
      group("[0-9]{1,3}", 'j');
    } else if (n == "H" || n == "k") {
      out.regex += " *";
      group("[0-9]{1,2}", 'H');
    } else if (n == "I" || n == "l") {
      out.regex += " *";
      group("[0-9]{1,2}", 'I');
    } else if (n == "M") {
      group("[0-9]{1,2}", 'M');
    } else if (n == "S" || n == "E0S") {
      group("[0-9]{1,2}", 'S');
    } else if (n == "E*S" || (n.size() >= 3 && n[0] == 'E' && n.back() == 'S')) {
      group("[0-9]{1,2}", 'S');
      const std::string digits = n == "E*S" ? "+" : "{1," + n.substr(1, n.size() - 2) + "}";
      out.regex += "(?:\\.([0-9]" + digits + "))?";
      out.roles += 'f';
    } else if (n == "p" || n == "P") {
      group("[AaPp][Mm]", 'p');
    } else if (n == "b" || n == "h" || n == "B") {
      group("[A-Za-z]{3,9}", 'b');
    } else if (n == "a" || n == "A") {
      out.regex += "[A-Za-z]{3,9}";
    } else if (n == "z" || n == "Ez") {
      group("[+-][0-9]{2}:?[0-9]{2}|[Zz]", 'z');
    } else if (n == "Z") {
      group("[A-Za-z][A-Za-z0-9_/+:-]*", 'Z');
    } else if (n == "s") {
      group("[+-]?[0-9]+", 's');
    } else if (n == "n" || n == "t") {
      out.regex += "[[:space:]]*";
    } else if (n == "%") {
      out.regex += "%";
    } else {
      out = {};
      out.error = Unsupported(e, function, true);
      out.error_offset = at;
      out.error_length = e.length;
      return out;
    }
  }
  out.regex += "[[:space:]]*$";
  return out;
}

}  // namespace lqe::pg
