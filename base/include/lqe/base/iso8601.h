// The one ISO 8601 reader for timestamps (typed endpoint parameters, ingested events, LQL
// filters, `lqe generate --now`). Hand-written over std::chrono's calendar: date::parse would
// need a format string per accepted shape (separator, seconds, fraction, zone) tried in turn
// through a stream, on the loader's per-event path.
//
// Accepted: YYYY-MM-DD, optionally followed by T, t or a space and HH:MM[:SS[.f]], then
// optionally a zone: Z, z, +HH, +HH:MM or +HHMM (or -). No zone means UTC. Fractions may have 1
// to 9 digits (callers may allow more or fewer); digits past the sixth are truncated, never
// rounded, so a value never moves into the next second or day.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace lqe::iso8601 {

struct Options {
  bool allow_date_only = true;        // "2024-05-01": midnight UTC
  bool allow_utc_word = false;        // "... 14:40:18 UTC", as log lines write it
  bool allow_comma_fraction = false;  // "14:40:18,5"
  int max_fraction_digits = 9;
};

struct Instant {
  std::int64_t micros = 0;  // since 1970-01-01T00:00:00Z
  bool date_only = false;   // written as YYYY-MM-DD
  bool has_zone = false;    // Z, UTC or a numeric offset was written
};

std::optional<Instant> Parse(std::string_view text, const Options& options = {});

}  // namespace lqe::iso8601
