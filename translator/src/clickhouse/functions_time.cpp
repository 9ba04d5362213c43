// ClickHouse time functions beyond the bucket starts of functions.cpp: toUnixTimestamp64Micro,
// formatDateTime (ClickHouse's specifiers translated to FORMAT_TIMESTAMP's, in UTC; any other
// specifier is refused by name) and toStartOfFiveMinutes / toStartOfFifteenMinutes.
#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions_internal.h"
#include "translate_error.h"

namespace lqe::clickhouse {
namespace {

using translator::Fail;

// ClickHouse specifier -> FORMAT_TIMESTAMP element. %M is the month's name and %i the minutes
// (ClickHouse's defaults since 23.4).
struct Specifier {
  char clickhouse;
  const char* bigquery;
};
constexpr Specifier kSpecifiers[] = {
    {'Y', "%Y"}, {'m', "%m"}, {'d', "%d"}, {'H', "%H"}, {'i', "%M"}, {'S', "%S"}, {'s', "%S"},
    {'F', "%F"}, {'T', "%T"}, {'D', "%D"}, {'y', "%y"}, {'j', "%j"}, {'I', "%I"}, {'h', "%I"},
    {'l', "%I"}, {'k', "%H"}, {'p', "%p"}, {'R', "%R"}, {'M', "%B"}, {'b', "%b"}, {'a', "%a"},
    {'W', "%A"}, {'u', "%u"}, {'w', "%w"}, {'%', "%%"}, {'n', "\n"}, {'t', "\t"},
};

std::string TranslateFormat(const std::string& format, ast::SourceSpan span) {
  std::string out;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (i + 1 == format.size()) {
      Fail(DiagCode::kType, span, "formatDateTime: the format ends with a lone %");
    }
    const char c = format[++i];
    const Specifier* found = nullptr;
    for (const auto& s : kSpecifiers) {
      if (s.clickhouse == c) found = &s;
    }
    if (found == nullptr) {
      Fail(DiagCode::kUnsupported, span,
           std::string("formatDateTime: unsupported format specifier %") + c,
           "Supported: %Y %m %d %H %i %S %s %F %T %D %y %j %I %h %l %k %p %R %M %b %a %W %u %w "
           "%% %n %t.");
    }
    out += found->bigquery;
  }
  return out;
}

ast::ExprPtr FloorToSeconds(ast::Call& call, long long step) {
  const ast::SourceSpan span = call.span;
  ast::ExprList seconds;
  seconds.push_back(std::move(call.args[0]));
  ast::ExprList div;
  div.push_back(Call("UNIX_SECONDS", span, std::move(seconds)));
  div.push_back(IntLiteral(step, span));
  ast::ExprList args;
  args.push_back(Multiply(Call("DIV", span, std::move(div)), IntLiteral(step, span), span));
  return Call("TIMESTAMP_SECONDS", span, std::move(args));
}

}  // namespace

ast::ExprPtr LowerToUnixTimestamp64Micro(ast::Call& call) {
  return Call("UNIX_MICROS", call.span, std::move(call.args));
}

// formatDateTime(t, 'format'[, 'UTC'])
ast::ExprPtr LowerFormatDateTime(ast::Call& call) {
  const std::string format = TranslateFormat(StringArg(call, 1), call.args[1]->span);
  if (call.args.size() == 3 && StringArg(call, 2) != "UTC") {
    Fail(DiagCode::kUnsupported, call.args[2]->span,
         "formatDateTime supports only the time zone 'UTC'");
  }
  ast::ExprList args;
  args.push_back(StringLiteral(format, call.span));
  args.push_back(std::move(call.args[0]));
  args.push_back(StringLiteral("UTC", call.span));
  return Call("FORMAT_TIMESTAMP", call.span, std::move(args));
}

ast::ExprPtr LowerStartOfFiveMinutes(ast::Call& call) {
  return FloorToSeconds(call, 300);
}
ast::ExprPtr LowerStartOfFifteenMinutes(ast::Call& call) {
  return FloorToSeconds(call, 900);
}

}  // namespace lqe::clickhouse
