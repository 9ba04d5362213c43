// Event timestamps: ISO 8601 text or unix epoch numbers, to microseconds since the epoch (UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lqe::schema {

// Accepted range of event timestamps: [1970-01-01, 2100-01-01). Wider values are almost always
// unit mistakes, and each distinct day becomes a partition.
inline constexpr std::int64_t kMinTimestampMicros = 0;
inline constexpr std::int64_t kMaxTimestampMicros = 4102444800LL * 1000000;

// Parses "2023-03-23T14:36:26Z", "2023-03-23 14:40:18.149 UTC", "...+01:00", "...-0530",
// "2023-03-23" (midnight UTC); no zone means UTC. Fractions beyond microseconds are truncated.
// A string of digits is an epoch number (see EpochToMicros). Sets *error on failure.
std::optional<std::int64_t> ParseTimestampText(std::string_view text, std::string* error);

// An epoch number whose unit follows its digit count: up to 10 digits seconds, 11-13
// milliseconds, 14-16 microseconds, 17-19 nanoseconds.
std::optional<std::int64_t> EpochToMicros(std::int64_t value, std::string* error);
// Same for a fractional number (the integer part's digits decide the unit).
std::optional<std::int64_t> EpochToMicros(double value, std::string* error);

// "2026-11-21 19:50:57.327059+00" (PostgreSQL timestamptz input, always UTC).
std::string FormatTimestampMicros(std::int64_t micros);
// The same appended to *out, without formatting through printf (one call per stored event).
void AppendTimestampMicros(std::int64_t micros, std::string* out);
// Days since 1970-01-01 of a timestamp; "2026-11-21" for a day number.
std::int64_t DayOfMicros(std::int64_t micros);
std::string FormatDay(std::int64_t day);

}  // namespace lqe::schema
