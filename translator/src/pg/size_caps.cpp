#include "pg/size_caps.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "pg/function_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;

// The value of a numeric literal, possibly negated; nullopt for anything else.
std::optional<long double> ConstantNumber(const ast::Expr& e) {
  if (e.Is<ast::Unary>()) {
    const auto& u = e.As<ast::Unary>();
    if (u.op != ast::Unary::Op::kNegate && u.op != ast::Unary::Op::kPlus) return std::nullopt;
    const auto inner = ConstantNumber(*u.operand);
    if (!inner) return std::nullopt;
    return u.op == ast::Unary::Op::kNegate ? -*inner : *inner;
  }
  if (!e.Is<ast::Literal>()) return std::nullopt;
  const auto& lit = e.As<ast::Literal>();
  if (lit.literal_kind == ast::Literal::Kind::kInt) {
    return static_cast<long double>(std::strtoull(lit.text.c_str(), nullptr, 0));
  }
  if (lit.literal_kind == ast::Literal::Kind::kFloat) {
    return std::strtold(lit.text.c_str(), nullptr);
  }
  return std::nullopt;
}

// Days since 1970-01-01 of a proleptic Gregorian date.
long long DaysFromCivil(int y, unsigned m, unsigned d) {
  using namespace std::chrono;
  return sys_days(year(y) / month(m) / day(d)).time_since_epoch().count();
}

// Seconds since the epoch of a DATE/TIMESTAMP/DATETIME literal 'YYYY-MM-DD[ HH:MM[:SS]]' (time
// zones ignored: a cap needs no precision), or of a plain string literal of that form.
std::optional<long double> ConstantSeconds(const ast::Expr& e) {
  if (!e.Is<ast::Literal>()) return std::nullopt;
  const auto& lit = e.As<ast::Literal>();
  if (lit.literal_kind != ast::Literal::Kind::kTyped &&
      lit.literal_kind != ast::Literal::Kind::kString) {
    return std::nullopt;
  }
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  const int n = std::sscanf(lit.text.c_str(), "%d-%d-%d%*[ T]%d:%d:%d", &y, &mo, &d, &h, &mi, &s);
  if (n < 3 || mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
  return static_cast<long double>(
             DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d))) *
             86400.0L +
         h * 3600.0L + mi * 60.0L + s;
}

// The length in seconds of INTERVAL n unit with a constant n (a month as 30 days, as
// PostgreSQL's epoch of an interval counts it).
std::optional<long double> ConstantIntervalSeconds(const ast::Expr& e) {
  if (!e.Is<ast::Interval>()) return std::nullopt;
  const auto& iv = e.As<ast::Interval>();
  const auto n = ConstantNumber(*iv.value);
  if (!n) return std::nullopt;
  const std::string unit = Upper(iv.unit.name);
  static constexpr struct {
    std::string_view name;
    long double seconds;
  } kUnits[] = {{"MICROSECOND", 1e-6L},   {"MILLISECOND", 1e-3L}, {"SECOND", 1},
                {"MINUTE", 60},           {"HOUR", 3600},         {"DAY", 86400},
                {"WEEK", 7 * 86400},      {"MONTH", 30 * 86400},  {"QUARTER", 90 * 86400},
                {"YEAR", 365.25L * 86400}};
  for (const auto& u : kUnits) {
    if (u.name == unit) return *n * u.seconds;
  }
  return std::nullopt;
}

// Refuses a series from `start` to `stop` by `step` longer than the array cap.
void CheckSeriesLength(const ast::Call& call, long double start, long double stop,
                       long double step) {
  if (step == 0) return;  // PostgreSQL refuses a zero step itself
  const long double steps = (stop - start) / step;
  if (!(steps >= static_cast<long double>(kMaxGeneratedArrayElements))) return;
  Fail(DiagCode::kUnsupported, call.span,
       Upper(call.name.name) + " would produce " +
           std::to_string(static_cast<long long>(std::floor(std::fminl(steps, 9e18L))) + 1) +
           " elements, over the limit of " + std::to_string(kMaxGeneratedArrayElements),
       "Generate a shorter range or use a larger step.");
}

}  // namespace

void CheckGenerateArrayCap(const ast::Call& call) {
  const auto start = ConstantNumber(*call.args[0]);
  const auto stop = ConstantNumber(*call.args[1]);
  const auto step = call.args.size() > 2 ? ConstantNumber(*call.args[2]) : 1.0L;
  if (start && stop && step) CheckSeriesLength(call, *start, *stop, *step);
}

void CheckGenerateTimeArrayCap(const ast::Call& call, bool dates) {
  const auto start = ConstantSeconds(*call.args[0]);
  const auto stop = ConstantSeconds(*call.args[1]);
  const auto step = call.args.size() > 2 ? ConstantIntervalSeconds(*call.args[2])
                                         : std::optional<long double>(dates ? 86400 : 0);
  if (start && stop && step) CheckSeriesLength(call, *start, *stop, *step);
}

void CheckRepeatCap(const ast::Call& call) {
  const auto count = ConstantNumber(*call.args[1]);
  if (!count) return;
  long double bytes_each = 1;  // an unknown non-empty string: at least one byte per copy
  const ast::Expr& s = *call.args[0];
  if (s.Is<ast::Literal>() && s.As<ast::Literal>().literal_kind == ast::Literal::Kind::kString) {
    bytes_each = static_cast<long double>(s.As<ast::Literal>().text.size());
  }
  if (*count * bytes_each <= static_cast<long double>(kMaxStringResultBytes)) return;
  Fail(DiagCode::kUnsupported, call.args[1]->span,
       "REPEAT result would exceed the limit of " + std::to_string(kMaxStringResultBytes) +
           " bytes");
}

void CheckPadCap(const ast::Call& call) {
  const auto length = ConstantNumber(*call.args[1]);
  if (!length || *length <= static_cast<long double>(kMaxPadLength)) return;
  Fail(DiagCode::kUnsupported, call.args[1]->span,
       Upper(call.name.name) + " length must be at most " + std::to_string(kMaxPadLength) +
           " characters");
}

}  // namespace lqe::pg
