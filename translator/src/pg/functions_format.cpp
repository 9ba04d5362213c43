// FORMAT(format, args...): BigQuery's printf. The format must be a literal; it is split here
// into literal text and one bq.format_* call (migration 055) per specifier, joined with ||, so a
// NULL argument makes the result NULL except under %t and %T, which print NULL.
#include <string>

#include "lqe/base/ascii.h"
#include "pg/function_table.h"
#include "pg/quoting.h"
#include "pg/text_render.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

constexpr int kMaxWidth = 10000;
constexpr int kMaxPrecision = 1100;

struct Spec {
  std::string flags;
  std::string width = "NULL";      // SQL int or NULL
  std::string precision = "NULL";  // SQL int or NULL
  char conversion = '\0';
};

using ascii::IsDigit;

// Reads flags, width, precision and the conversion after the '%' at `pos`; advances `pos`.
Spec ReadSpec(const std::string& f, std::size_t& pos, const ast::Literal& lit) {
  Spec s;
  ++pos;
  while (pos < f.size() && std::string_view("-+ #0'").find(f[pos]) != std::string_view::npos) {
    s.flags += f[pos++];
  }
  auto number = [&](std::string& out, const char* what) {
    if (pos < f.size() && f[pos] == '*') {
      Fail(DiagCode::kUnsupported, lit.span,
           std::string("unsupported FORMAT ") + what + " * (taken from an argument)",
           "Write the number into the format string.");
    }
    std::string digits;
    while (pos < f.size() && IsDigit(f[pos]) && digits.size() < 6) digits += f[pos++];
    if (!digits.empty()) out = std::to_string(std::stoi(digits));
    return !digits.empty();
  };
  number(s.width, "width");
  if (pos < f.size() && f[pos] == '.') {
    ++pos;
    if (!number(s.precision, "precision")) s.precision = "0";
  }
  // Bounds that keep one row's text small; 1100 digits show any double exactly.
  if ((s.width != "NULL" && std::stoi(s.width) > kMaxWidth) ||
      (s.precision != "NULL" && std::stoi(s.precision) > kMaxPrecision)) {
    Fail(DiagCode::kUnsupported, lit.span,
         "FORMAT width above " + std::to_string(kMaxWidth) + " or precision above " +
             std::to_string(kMaxPrecision) + " is not supported");
  }
  if (pos >= f.size()) {
    Fail(DiagCode::kUnsupported, lit.span, "FORMAT string ends inside a format specifier");
  }
  s.conversion = f[pos++];
  return s;
}

std::string Flags(const Spec& s) {
  return QuoteLiteral(s.flags);
}

std::string Conv(char c) {
  return QuoteLiteral(std::string(1, c));
}

std::string Piece(const Spec& s, const Value& v, const ast::Expr& arg) {
  const K kind = v.type ? v.type->kind : K::kUnknown;
  auto refuse = [&](std::string_view wants) {
    Fail(DiagCode::kType, arg.span,
         "FORMAT specifier %" + std::string(1, s.conversion) + " needs " + std::string(wants) +
             ", got " + TypeName(*v.type));
  };
  const std::string tail = ", " + Flags(s) + ", " + s.width + ", " + s.precision + ")";
  switch (s.conversion) {
    case 'd':
    case 'i':
    case 'o':
    case 'x':
    case 'X':
      if (kind != K::kInt64 && kind != K::kUnknown) refuse("an INT64");
      return "bq.format_int((" + v.sql + ")::bigint, " + Conv(s.conversion) + tail;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      if (kind != K::kFloat64 && kind != K::kNumeric && kind != K::kInt64 && kind != K::kUnknown) {
        refuse("a FLOAT64 or NUMERIC");
      }
      return "bq.format_float((" + v.sql + ")::double precision, " + Conv(s.conversion) + tail;
    case 's':
      if (kind != K::kString && kind != K::kUnknown) refuse("a STRING (use %t for other types)");
      return "bq.format_str(" + v.sql + tail;
    case 't':
      return "bq.format_str(coalesce(" + BigQueryText(v) + ", 'NULL')" + tail;
    case 'T':
      return "bq.format_str(" + BigQueryLiteralText(v) + tail;
    case 'p':
    case 'P':
      if (kind != K::kJson && kind != K::kRecord && kind != K::kUnknown) refuse("a JSON value");
      return "bq.format_str(" +
             (s.conversion == 'p' ? "bq.json_text(" + v.sql + ")" : "jsonb_pretty(" + v.sql + ")") +
             tail;
    default:
      return "";
  }
}

}  // namespace

Value EmitFormat(Emitter& e, const ast::Call& call) {
  const ast::Literal& lit = StringLiteralArg(call, 0, "format string");
  const std::string& f = lit.text;
  std::string sql;
  std::string literal;
  auto add = [&](const std::string& piece) { sql += (sql.empty() ? "" : " || ") + piece; };
  std::size_t next_arg = 1;
  std::size_t pos = 0;
  while (pos < f.size()) {
    if (f[pos] != '%') {
      literal += f[pos++];
      continue;
    }
    if (pos + 1 < f.size() && f[pos + 1] == '%') {
      literal += '%';
      pos += 2;
      continue;
    }
    const Spec spec = ReadSpec(f, pos, lit);
    if (std::string_view("diouxXfFeEgGstTpP").find(spec.conversion) == std::string_view::npos) {
      Fail(DiagCode::kUnsupported, lit.span,
           "unsupported FORMAT specifier %" + std::string(1, spec.conversion),
           "FORMAT supports %d %i %o %x %X %f %F %e %E %g %G %s %t %T %p %P and %%.");
    }
    if (next_arg >= call.args.size()) {
      Fail(DiagCode::kType, lit.span,
           "FORMAT has too few arguments: specifier %" + std::string(1, spec.conversion) +
               " has no argument");
    }
    const ast::Expr& arg = *call.args[next_arg++];
    const Value v = e.EmitExpr(arg);
    if (!literal.empty()) add(QuoteLiteral(literal));
    literal.clear();
    add(Piece(spec, v, arg));
  }
  if (next_arg < call.args.size()) {
    Fail(DiagCode::kType, call.args[next_arg]->span,
         "FORMAT has too many arguments: the format uses " + std::to_string(next_arg - 1));
  }
  if (!literal.empty() || sql.empty()) add(QuoteLiteral(literal));
  return MakeValue("(" + sql + ")", K::kString);
}

}  // namespace lqe::pg
