#include "clickhouse/functions.h"

#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions_internal.h"
#include "lqe/base/ascii.h"
#include "names.h"
#include "translate_error.h"

namespace lqe::clickhouse {

ast::ExprPtr CopyOf(const ast::Call& call, std::size_t i) {
  auto copy = Clone(*call.args[i]);
  if (!copy) {
    translator::Fail(
        DiagCode::kUnsupported, call.args[i]->span,
        call.name.name + " supports columns, map access, literals and plain calls as its argument");
  }
  return copy;
}

bool NeverNull(const ast::Expr& e) {
  if (e.Is<ast::Literal>()) return e.As<ast::Literal>().literal_kind != ast::Literal::Kind::kNull;
  if (e.Is<ast::Path>()) {
    constexpr std::string_view kColumns[] = {
        "id",           "timestamp", "source",  "event_message", "severity_text", "severity_number",
        "service_name", "trace_id",  "span_id", "scope_name"};
    const std::string& name = e.As<ast::Path>().parts.back().name;
    for (const auto c : kColumns) {
      if (ascii::EqualsIgnoreCase(name, c)) return true;
    }
    return false;
  }
  if (!e.Is<ast::Call>()) return false;
  const auto& call = e.As<ast::Call>();
  return ascii::EqualsIgnoreCase(call.name.name, "COALESCE") && !call.args.empty() &&
         NeverNull(*call.args.back());
}

const std::string& StringArg(const ast::Call& call, std::size_t i) {
  const ast::Expr& e = *call.args[i];
  if (!e.Is<ast::Literal>() || e.As<ast::Literal>().literal_kind != ast::Literal::Kind::kString) {
    translator::Fail(DiagCode::kUnsupported, e.span,
                     call.name.name + " expects a string literal here");
  }
  return e.As<ast::Literal>().text;
}

namespace {

using translator::Fail;
using LowerFn = ast::ExprPtr (*)(ast::Call&);

struct Function {
  std::string_view name;  // as ClickHouse spells it (names match case-insensitively)
  int min_args;
  int max_args;
  LowerFn lower;
};

// count() counts rows; count(x) the rows where x is not NULL.
ast::ExprPtr LowerCount(ast::Call& call) {
  auto out = Call("COUNT", call.span, std::move(call.args));
  auto& c = out->As<ast::Call>();
  c.star = c.args.empty() || call.star;
  c.distinct = call.distinct;
  return out;
}

// countIf(c): the rows where c holds (a NULL condition counts nothing), as COUNTIF.
ast::ExprPtr LowerCountIf(ast::Call& call) {
  return Call("COUNTIF", call.span, std::move(call.args));
}

// toStartOfMinute|Hour|Day(t): DateTime truncation in the session time zone (UTC).
ast::ExprPtr Truncate(ast::Call& call, std::string_view part) {
  ast::ExprList args;
  args.push_back(std::move(call.args[0]));
  args.push_back(DatePart(part, call.name.span));
  return Call("TIMESTAMP_TRUNC", call.span, std::move(args));
}
ast::ExprPtr LowerStartOfMinute(ast::Call& call) {
  return Truncate(call, "MINUTE");
}
ast::ExprPtr LowerStartOfHour(ast::Call& call) {
  return Truncate(call, "HOUR");
}
ast::ExprPtr LowerStartOfDay(ast::Call& call) {
  return Truncate(call, "DAY");
}

// The seconds of INTERVAL n SECOND|MINUTE|HOUR|DAY with a literal n > 0.
long long IntervalSeconds(const ast::Expr& arg) {
  if (!arg.Is<ast::Interval>()) {
    Fail(DiagCode::kType, arg.span,
         "toStartOfInterval expects INTERVAL n <unit> as its second argument");
  }
  const auto& interval = arg.As<ast::Interval>();
  const auto* n =
      interval.value->Is<ast::Literal>() ? &interval.value->As<ast::Literal>() : nullptr;
  if (n == nullptr || n->literal_kind != ast::Literal::Kind::kInt || n->text.size() > 9 ||
      n->text.starts_with("0")) {
    Fail(DiagCode::kUnsupported, interval.value->span,
         "toStartOfInterval needs a positive whole number of units below 10^9");
  }
  const long long count = std::stoll(n->text);
  const std::string unit = ascii::Lower(interval.unit.name);
  if (unit == "second") return count;
  if (unit == "minute") return count * 60;
  if (unit == "hour") return count * 3600;
  if (unit == "day") return count * 86400;
  Fail(DiagCode::kUnsupported, interval.unit.span,
       "toStartOfInterval supports SECOND, MINUTE, HOUR and DAY intervals, not " +
           interval.unit.name);
}

ast::ExprPtr UnixSeconds(ast::ExprPtr t, ast::SourceSpan span) {
  ast::ExprList args;
  args.push_back(std::move(t));
  return Call("UNIX_SECONDS", span, std::move(args));
}

// floor(seconds / step) * step, for the non-negative seconds of stored instants.
ast::ExprPtr FloorTo(ast::ExprPtr seconds, long long step, ast::SourceSpan span) {
  ast::ExprList div_args;
  div_args.push_back(std::move(seconds));
  div_args.push_back(IntLiteral(step, span));
  return Multiply(Call("DIV", span, std::move(div_args)), IntLiteral(step, span), span);
}

// toStartOfInterval(t, INTERVAL n unit): the start of t's bucket. Seconds, minutes and days count
// from the epoch; hours from the start of t's day (ClickHouse's rule: 7 HOUR buckets start at
// 00:00, 07:00, 14:00, 21:00).
ast::ExprPtr LowerStartOfInterval(ast::Call& call) {
  const long long seconds = IntervalSeconds(*call.args[1]);
  const bool hours = ascii::EqualsIgnoreCase(call.args[1]->As<ast::Interval>().unit.name, "hour");
  const ast::SourceSpan span = call.span;
  ast::ExprPtr bucket;
  if (hours) {
    // day start + floor(seconds into the day / step) * step
    ast::ExprList mod_args;
    mod_args.push_back(UnixSeconds(CopyOf(call, 0), span));
    mod_args.push_back(IntLiteral(86400, span));
    bucket = Binary(ast::Binary::Op::kAdd,
                    FloorTo(UnixSeconds(std::move(call.args[0]), span), 86400, span),
                    FloorTo(Call("MOD", span, std::move(mod_args)), seconds, span), span);
  } else {
    bucket = FloorTo(UnixSeconds(std::move(call.args[0]), span), seconds, span);
  }
  ast::ExprList seconds_args;
  seconds_args.push_back(std::move(bucket));
  return Call("TIMESTAMP_SECONDS", span, std::move(seconds_args));
}

// toDateTime64(x, precision[, 'UTC']): x as an instant, cut to the precision (0, 3 or 6 digits).
ast::ExprPtr LowerToDateTime64(ast::Call& call) {
  const auto* p = call.args[1]->Is<ast::Literal>() ? &call.args[1]->As<ast::Literal>() : nullptr;
  if (p == nullptr || p->literal_kind != ast::Literal::Kind::kInt ||
      (p->text != "0" && p->text != "3" && p->text != "6" && p->text != "9")) {
    Fail(DiagCode::kUnsupported, call.args[1]->span,
         "toDateTime64 supports the precisions 0, 3, 6 and 9 (instants are kept in microseconds)");
  }
  if (call.args.size() == 3) {
    const auto* tz = call.args[2]->Is<ast::Literal>() ? &call.args[2]->As<ast::Literal>() : nullptr;
    if (tz == nullptr || tz->literal_kind != ast::Literal::Kind::kString || tz->text != "UTC") {
      Fail(DiagCode::kUnsupported, call.args[2]->span,
           "toDateTime64 supports only the time zone 'UTC'");
    }
  }
  const std::string precision = p->text;
  const ast::SourceSpan span = call.span;
  ast::ExprPtr instant = Cast(std::move(call.args[0]), TypeKind::kTimestamp, span);
  if (precision == "6" || precision == "9") return instant;
  ast::ExprList args;
  args.push_back(std::move(instant));
  args.push_back(DatePart(precision == "0" ? "SECOND" : "MILLISECOND", span));
  return Call("TIMESTAMP_TRUNC", span, std::move(args));
}

// now(): the current time as a DateTime, whole seconds.
ast::ExprPtr LowerNow(ast::Call& call) {
  ast::ExprList args;
  args.push_back(Call("CURRENT_TIMESTAMP", call.span, {}));
  args.push_back(DatePart("SECOND", call.span));
  return Call("TIMESTAMP_TRUNC", call.span, std::move(args));
}

// if(c, a, b): b when c is false or NULL.
ast::ExprPtr LowerIf(ast::Call& call) {
  return Call("IF", call.span, std::move(call.args));
}

// multiIf(c1, v1, c2, v2, ..., else): the first value whose condition holds.
ast::ExprPtr LowerMultiIf(ast::Call& call) {
  if (call.args.size() % 2 == 0) {
    Fail(DiagCode::kType, call.span,
         "multiIf expects an odd number of arguments: condition, value pairs and an else value");
  }
  auto out = std::make_unique<ast::Case>(call.span);
  for (std::size_t i = 0; i + 1 < call.args.size(); i += 2) {
    out->whens.push_back({std::move(call.args[i]), std::move(call.args[i + 1])});
  }
  out->else_result = std::move(call.args.back());
  return out;
}

// match(s, re): whether the RE2 pattern matches anywhere in s.
ast::ExprPtr LowerMatch(ast::Call& call) {
  return Call("REGEXP_CONTAINS", call.span, std::move(call.args));
}

// toString(x): x as text (a String stays itself).
ast::ExprPtr LowerToString(ast::Call& call) {
  return Cast(std::move(call.args[0]), TypeKind::kString, call.span);
}

constexpr Function kFunctions[] = {
    {"count", 0, 1, LowerCount},
    {"countIf", 1, 1, LowerCountIf},
    {"toStartOfMinute", 1, 1, LowerStartOfMinute},
    {"toStartOfHour", 1, 1, LowerStartOfHour},
    {"toStartOfDay", 1, 1, LowerStartOfDay},
    {"toStartOfInterval", 2, 2, LowerStartOfInterval},
    {"toDateTime64", 2, 3, LowerToDateTime64},
    {"now", 0, 0, LowerNow},
    {"if", 3, 3, LowerIf},
    {"multiIf", 3, -1, LowerMultiIf},
    {"match", 2, 2, LowerMatch},
    {"toString", 1, 1, LowerToString},
    // functions_aggregate.cpp
    {"uniq", 1, -1, LowerUniq},
    {"uniqExact", 1, -1, LowerUniq},
    {"quantile", 1, 1, LowerQuantile},
    {"quantiles", 1, 1, LowerQuantiles},
    {"any", 1, 1, LowerAny},
    {"argMax", 2, 2, LowerArgMax},
    {"argMin", 2, 2, LowerArgMin},
    {"groupArray", 1, 1, LowerGroupArray},
    // functions_convert.cpp
    {"toInt32OrZero", 1, 1, LowerToInt32OrZero},
    {"toInt32OrNull", 1, 1, LowerToInt32OrNull},
    {"toInt64OrZero", 1, 1, LowerToInt64OrZero},
    {"toInt64OrNull", 1, 1, LowerToInt64OrNull},
    {"toUInt32OrZero", 1, 1, LowerToUInt32OrZero},
    {"toUInt32OrNull", 1, 1, LowerToUInt32OrNull},
    {"toUInt64OrZero", 1, 1, LowerToUInt64OrZero},
    {"toUInt64OrNull", 1, 1, LowerToUInt64OrNull},
    {"toFloat64OrZero", 1, 1, LowerToFloat64OrZero},
    {"toFloat64OrNull", 1, 1, LowerToFloat64OrNull},
    {"toDateTimeOrZero", 1, 1, LowerToDateTimeOrZero},
    {"toDateTimeOrNull", 1, 1, LowerToDateTimeOrNull},
    // functions_string.cpp
    {"position", 2, 2, LowerPosition},
    {"positionCaseInsensitive", 2, 2, LowerPositionCaseInsensitive},
    {"positionUTF8", 2, 2, LowerPositionUtf8},
    {"lower", 1, 1, LowerLower},
    {"upper", 1, 1, LowerUpper},
    {"concat", 1, -1, LowerConcat},
    {"substring", 2, 3, LowerSubstring},
    {"substringUTF8", 2, 3, LowerSubstringUtf8},
    {"length", 1, 1, LowerLength},
    {"lengthUTF8", 1, 1, LowerLengthUtf8},
    {"like", 2, 2, LowerLike},
    {"ilike", 2, 2, LowerILike},
    {"notLike", 2, 2, LowerNotLike},
    {"notILike", 2, 2, LowerNotILike},
    // functions_json.cpp
    {"JSONExtractString", 2, -1, LowerJsonExtractString},
    {"JSONExtractInt", 2, -1, LowerJsonExtractInt},
    {"JSONExtractFloat", 2, -1, LowerJsonExtractFloat},
    {"JSONExtractBool", 2, -1, LowerJsonExtractBool},
    {"JSONExtractUInt", 2, -1, LowerJsonExtractUInt},
    {"JSONExtractRaw", 1, -1, LowerJsonExtractRaw},
    {"JSONHas", 2, -1, LowerJsonHas},
    // functions_cond.cpp
    {"mapContains", 2, 2, LowerMapContains},
    {"has", 2, 2, LowerHas},
    {"empty", 1, 1, LowerEmpty},
    {"notEmpty", 1, 1, LowerNotEmpty},
    {"coalesce", 1, -1, LowerCoalesce},
    {"ifNull", 2, 2, LowerIfNull},
    {"intDiv", 2, 2, LowerIntDiv},
    // functions_time.cpp
    {"toUnixTimestamp64Micro", 1, 1, LowerToUnixTimestamp64Micro},
    {"formatDateTime", 2, 3, LowerFormatDateTime},
    {"toStartOfFiveMinutes", 1, 1, LowerStartOfFiveMinutes},
    {"toStartOfFifteenMinutes", 1, 1, LowerStartOfFifteenMinutes},
};

// The parametric aggregates: name(parameters)(arguments).
bool Parametric(LowerFn f) {
  return f == LowerQuantile || f == LowerQuantiles;
}

std::string ArityText(const Function& f) {
  if (f.max_args < 0) return "at least " + std::to_string(f.min_args);
  if (f.min_args == f.max_args) return std::to_string(f.min_args);
  return std::to_string(f.min_args) + " to " + std::to_string(f.max_args);
}

}  // namespace

std::vector<std::string> FunctionNames() {
  std::vector<std::string> out;
  for (const auto& f : kFunctions) out.emplace_back(f.name);
  return out;
}

ast::ExprPtr LowerCall(ast::Call& call) {
  for (const auto& f : kFunctions) {
    if (!ascii::EqualsIgnoreCase(f.name, call.name.name)) continue;
    const int n = static_cast<int>(call.args.size());
    if (n < f.min_args || (f.max_args >= 0 && n > f.max_args)) {
      Fail(DiagCode::kType, call.span,
           std::string(f.name) + " expects " + ArityText(f) + " argument" +
               (ArityText(f) == "1" ? "" : "s") + ", got " + std::to_string(n));
    }
    if (call.over || !call.order_by.empty() || call.limit ||
        call.null_handling != ast::Call::NullHandling::kDefault || call.safe) {
      Fail(DiagCode::kUnsupported, call.span, std::string(f.name) + ": this form is not supported");
    }
    if (!call.parameters.empty() && !Parametric(f.lower)) {
      Fail(DiagCode::kUnsupported, call.span,
           std::string(f.name) + " takes no parameters: " + std::string(f.name) + "(...)(...)");
    }
    if (call.distinct && f.lower != LowerCount) {
      Fail(DiagCode::kUnsupported, call.span,
           std::string(f.name) + "(DISTINCT ...) is not supported");
    }
    return f.lower(call);
  }
  const std::string hint = names::DidYouMean(call.name.name, FunctionNames());
  Fail(DiagCode::kUnsupported, call.name.span, "unsupported ClickHouse function " + call.name.name,
       hint.empty() ? "See docs/clickhouse.md for the functions the ClickHouse dialect supports."
                    : hint);
}

}  // namespace lqe::clickhouse
