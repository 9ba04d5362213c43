// Timestamp values of LQL filters (t:, timestamp:, and any TIMESTAMP field): ISO 8601 dates and
// datetimes, unix seconds/milliseconds/microseconds, brace ranges and the shorthands now, today,
// yesterday, this@unit and last@N<unit>, all in UTC. Times are microseconds since the epoch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace lqe::lql {

using Micros = std::int64_t;

// Whether an ISO datetime carried a UTC offset; a range may not mix kLocal and kAbsolute.
enum class Zone : std::uint8_t { kNone, kLocal, kAbsolute };

struct TimePoint {
  Micros micros = 0;
  Zone zone = Zone::kNone;
  bool date_only = false;  // written as YYYY-MM-DD: "that day" when compared for equality
};

struct TimeRange {
  Micros low = 0;
  Micros high = 0;
  bool high_exclusive = false;  // [low, high) rather than [low, high]
};

struct TimeValue {
  bool is_range = false;
  TimePoint point;  // !is_range
  TimeRange range;  // is_range
};

// One value: a point (ISO date or datetime, unix timestamp, now) or a value that is a range by
// itself (a brace range, today, yesterday, this@unit, last@N<unit>). Errors are messages.
std::variant<TimeValue, std::string> ParseTimeValue(std::string_view text, Micros now);
// low..high, where either side may itself be a range (its start, resp. its end, is used) and a
// date-only high end means "through that day".
std::variant<TimeRange, std::string> ParseTimeRange(std::string_view low, std::string_view high,
                                                    Micros now);
// "2022-04-07 00:00:00+00", with ".ffffff" when there are microseconds.
std::string FormatTimestamp(Micros micros);

}  // namespace lqe::lql
