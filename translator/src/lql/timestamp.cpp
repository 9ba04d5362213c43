// ISO dates and datetimes come from the shared reader (lqe/base/iso8601.h); the rest (unix digit
// counts, brace ranges, shorthands) is LQL-specific.
#include "lql/timestamp.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <utility>

#include "lqe/base/iso8601.h"
#include "lql/parse_util.h"

namespace lqe::lql {
namespace {

using std::chrono::days;
using std::chrono::sys_days;
constexpr Micros kSecond = 1'000'000;
constexpr Micros kMinute = 60 * kSecond;
constexpr Micros kHour = 60 * kMinute;
constexpr Micros kDay = 24 * kHour;
// 0001-01-01 and 10000-01-01, BigQuery's TIMESTAMP range.
constexpr Micros kMinMicros = -62135596800LL * kSecond;
constexpr Micros kMaxMicros = 253402300800LL * kSecond;

std::string Invalid(std::string_view text) {
  return "invalid timestamp " + QuoteForMessage(text) +
         ": expected an ISO 8601 date or datetime, a unix timestamp (10, 13 or 16 digits), a range "
         "or a shorthand";
}

Micros FloorDiv(Micros a, Micros b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
Micros Trunc(Micros t, Micros unit) {
  return FloorDiv(t, unit) * unit;
}

std::chrono::year_month_day DateOf(Micros t) {
  return sys_days{days{FloorDiv(t, kDay)}};
}
Micros MicrosOf(std::chrono::year_month_day ymd) {
  return static_cast<Micros>(sys_days{ymd}.time_since_epoch().count()) * kDay;
}

// An ISO 8601 date or datetime (lqe/base/iso8601.h), at most microsecond fractions.
std::optional<TimePoint> Iso(std::string_view text) {
  iso8601::Options options;
  options.max_fraction_digits = 6;
  const auto instant = iso8601::Parse(text, options);
  if (!instant) {
    return std::nullopt;
  }
  return TimePoint{instant->micros, instant->has_zone ? Zone::kAbsolute : Zone::kLocal,
                   instant->date_only};
}

std::optional<TimePoint> Unix(std::string_view text) {
  if (text.size() != 10 && text.size() != 13 && text.size() != 16) {
    return std::nullopt;
  }
  for (const char c : text) {
    if (!IsDigit(c)) {
      return std::nullopt;
    }
  }
  Micros v = 0;
  for (const char c : text) {
    v = v * 10 + (c - '0');
  }
  if (text.size() == 10) {
    return TimePoint{v * kSecond, Zone::kNone, false};
  }
  if (text.size() == 13) {
    return TimePoint{v * 1000, Zone::kNone, false};
  }
  if (text.size() == 16) {
    return TimePoint{v, Zone::kNone, false};
  }
  return std::nullopt;
}

std::optional<int> ParseCount(std::string_view digits) {
  if (digits.empty()) {
    return 1;
  }
  if (digits.size() > 6) {
    return std::nullopt;
  }
  int n = 0;
  for (const char c : digits) {
    if (!IsDigit(c)) {
      return std::nullopt;
    }
    n = n * 10 + (c - '0');
  }
  return n;
}

// ymd minus `months` calendar months, the day clamped to the month's length (Mar 31 - 1 month is
// Feb 28 or 29).
std::chrono::year_month_day SubMonths(std::chrono::year_month_day ymd, int months) {
  const std::chrono::year_month first =
      std::chrono::year_month{ymd.year(), ymd.month()} - std::chrono::months{months};
  const std::chrono::day last = std::chrono::year_month_day_last{
      first.year(),
      std::chrono::month_day_last{
          first.month()}}.day();
  return {first.year(), first.month(), std::min(ymd.day(), last)};
}

enum class Unit : std::uint8_t { kSecond, kMinute, kHour, kDay, kWeek, kMonth, kYear };

std::optional<Unit> UnitNamed(std::string_view name, bool short_forms) {
  static constexpr struct {
    std::string_view abbrev, singular, plural;
    Unit unit;
  } kUnits[] = {
      {"s", "second", "seconds", Unit::kSecond}, {"m", "minute", "minutes", Unit::kMinute},
      {"h", "hour", "hours", Unit::kHour},       {"d", "day", "days", Unit::kDay},
      {"w", "week", "weeks", Unit::kWeek},       {"mm", "month", "months", Unit::kMonth},
      {"y", "year", "years", Unit::kYear},
  };
  for (const auto& u : kUnits) {
    if (name == u.singular || (short_forms && (name == u.abbrev || name == u.plural))) {
      return u.unit;
    }
  }
  return std::nullopt;
}

// this@unit: the start of the current minute, hour, day, week (Monday), month or year.
Micros StartOf(Unit unit, Micros now) {
  const auto ymd = DateOf(now);
  switch (unit) {
    case Unit::kSecond:
      return Trunc(now, kSecond);
    case Unit::kMinute:
      return Trunc(now, kMinute);
    case Unit::kHour:
      return Trunc(now, kHour);
    case Unit::kDay:
      return Trunc(now, kDay);
    case Unit::kWeek: {
      const std::chrono::weekday wd{sys_days{ymd}};
      return Trunc(now, kDay) - static_cast<Micros>(wd.iso_encoding() - 1) * kDay;
    }
    case Unit::kMonth:
      return MicrosOf(ymd.year() / ymd.month() / std::chrono::day{1});
    case Unit::kYear:
      return MicrosOf(ymd.year() / std::chrono::January / std::chrono::day{1});
  }
  return now;
}

// last@N<unit>: now truncated to the unit (weeks, months and years to the day), minus N units.
Micros LastStart(Unit unit, int n, Micros now) {
  switch (unit) {
    case Unit::kSecond:
      return Trunc(now, kSecond) - n * kSecond;
    case Unit::kMinute:
      return Trunc(now, kMinute) - n * kMinute;
    case Unit::kHour:
      return Trunc(now, kHour) - n * kHour;
    case Unit::kDay:
      return Trunc(now, kDay) - n * kDay;
    case Unit::kWeek:
      return Trunc(now, kDay) - 7 * static_cast<Micros>(n) * kDay;
    case Unit::kMonth:
      return MicrosOf(SubMonths(DateOf(now), n));
    case Unit::kYear:
      return MicrosOf(SubMonths(DateOf(now), 12 * n));
  }
  return now;
}

std::variant<TimeValue, std::string> Shorthand(std::string_view text, Micros now) {
  TimeValue value;
  value.is_range = true;
  if (text == "today" || text == "yesterday") {
    const Micros day = Trunc(now, kDay) - (text == "yesterday" ? kDay : 0);
    value.range = {day, day + kDay, true};
    return value;
  }
  if (text.starts_with("this@")) {
    const auto unit = UnitNamed(text.substr(5), false);
    if (!unit || *unit == Unit::kSecond) {
      return "unknown time unit " + QuoteForMessage(text.substr(5)) +
             " in this@: use minute, hour, day, week, month or year";
    }
    value.range = {StartOf(*unit, now), now, false};
    return value;
  }
  std::string_view rest = text.substr(5);  // after last@
  std::size_t digits = 0;
  while (digits < rest.size() && IsDigit(rest[digits])) {
    ++digits;
  }
  const auto unit = UnitNamed(rest.substr(digits), true);
  if (!unit) {
    return "unknown time unit " + QuoteForMessage(rest.substr(digits)) +
           " in last@: use s, m, h, d, w, mm, y or their names";
  }
  const auto n = ParseCount(rest.substr(0, digits));
  if (!n || (*unit >= Unit::kMonth && *n > 9999 * (*unit == Unit::kMonth ? 12 : 1))) {
    return "timestamp out of range in " + QuoteForMessage(text);
  }
  value.range = {LastStart(*unit, *n, now), now, false};
  return value;
}

std::optional<std::pair<std::string, std::string>> ExpandBraces(std::string_view text) {
  std::string low;
  std::string high;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '}') {
      return std::nullopt;
    }
    if (c != '{') {
      low += c;
      high += c;
      ++i;
      continue;
    }
    const std::size_t close = text.find('}', i);
    if (close == std::string_view::npos) {
      return std::nullopt;
    }
    const std::string_view inner = text.substr(i + 1, close - i - 1);
    const std::size_t dots = inner.find("..");
    if (dots == std::string_view::npos || dots == 0 || dots + 2 >= inner.size()) {
      return std::nullopt;
    }
    for (const char d : inner.substr(0, dots)) {
      if (!IsDigit(d)) {
        return std::nullopt;
      }
    }
    for (const char d : inner.substr(dots + 2)) {
      if (!IsDigit(d)) {
        return std::nullopt;
      }
    }
    low.append(inner.substr(0, dots));
    high.append(inner.substr(dots + 2));
    i = close + 1;
  }
  return std::make_pair(low, high);
}

bool InRange(Micros t) {
  return t >= kMinMicros && t < kMaxMicros;
}

}  // namespace

std::variant<TimeValue, std::string> ParseTimeValue(std::string_view text, Micros now) {
  if (text == "now") {
    return TimeValue{false, {now, Zone::kNone, false}, {}};
  }
  if (text == "today" || text == "yesterday" || text.starts_with("this@") ||
      text.starts_with("last@")) {
    auto value = Shorthand(text, now);
    if (auto* v = std::get_if<TimeValue>(&value); v && !InRange(v->range.low)) {
      return "timestamp out of range in " + QuoteForMessage(text);
    }
    return value;
  }
  if (text.find('{') != std::string_view::npos || text.find('}') != std::string_view::npos) {
    const auto parts = ExpandBraces(text);
    if (!parts) {
      return "invalid brace range " + QuoteForMessage(text) +
             ": write each varying part as {from..to} with digits";
    }
    auto range = ParseTimeRange(parts->first, parts->second, now);
    if (auto* error = std::get_if<std::string>(&range)) {
      return std::move(*error);
    }
    return TimeValue{true, {}, std::get<TimeRange>(range)};
  }
  auto point = Iso(text);
  if (!point) {
    point = Unix(text);
  }
  if (!point) {
    return Invalid(text);
  }
  if (!InRange(point->micros)) {
    return "timestamp out of range in " + QuoteForMessage(text);
  }
  return TimeValue{false, *point, {}};
}

std::variant<TimeRange, std::string> ParseTimeRange(std::string_view low, std::string_view high,
                                                    Micros now) {
  auto lv = ParseTimeValue(low, now);
  if (auto* error = std::get_if<std::string>(&lv)) {
    return std::move(*error);
  }
  auto hv = ParseTimeValue(high, now);
  if (auto* error = std::get_if<std::string>(&hv)) {
    return std::move(*error);
  }
  const TimeValue& l = std::get<TimeValue>(lv);
  const TimeValue& h = std::get<TimeValue>(hv);
  if (!l.is_range && !h.is_range && l.point.zone != Zone::kNone && h.point.zone != Zone::kNone &&
      l.point.zone != h.point.zone) {
    return std::string("timestamp range cannot mix timestamps with and without timezone offsets");
  }
  TimeRange range;
  range.low = l.is_range ? l.range.low : l.point.micros;
  if (h.is_range) {
    range.high = h.range.high;
    range.high_exclusive = h.range.high_exclusive;
  } else if (h.point.date_only) {
    range.high = h.point.micros + kDay;
    range.high_exclusive = true;
  } else {
    range.high = h.point.micros;
  }
  if (range.low > range.high || (range.high_exclusive && range.low == range.high)) {
    return std::string("timestamp range starts after it ends");
  }
  return range;
}

std::string FormatTimestamp(Micros micros) {
  const auto ymd = DateOf(micros);
  const Micros tod = micros - Trunc(micros, kDay);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02lld:%02lld:%02lld",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<long long>(tod / kHour),
                static_cast<long long>(tod / kMinute % 60),
                static_cast<long long>(tod / kSecond % 60));
  std::string out = buf;
  if (tod % kSecond != 0) {
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(tod % kSecond));
    out += buf;
  }
  return out + "+00";
}

}  // namespace lqe::lql
