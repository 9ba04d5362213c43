// ISO-8601 timestamps for typed parameters. Hand-written because std::chrono::parse is not in
// GCC 12 and the accepted forms are few: YYYY-MM-DD, then optionally T or space, HH:MM[:SS[.f]],
// then optionally Z or an offset ±HH[:MM]. Output is always UTC with six fractional digits.
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "lqe/gateway/params.h"
#include "time/civil_time.h"

namespace lqe::gateway {
namespace {

using civil::DaysSinceEpoch;

void CivilFromDays(std::int64_t days_since_epoch, int* y, int* m, int* d) {
  using namespace std::chrono;
  const year_month_day ymd{sys_days{days{days_since_epoch}}};
  *y = static_cast<int>(ymd.year());
  *m = static_cast<int>(static_cast<unsigned>(ymd.month()));
  *d = static_cast<int>(static_cast<unsigned>(ymd.day()));
}

bool IsValidDate(int y, int m, int d) {
  using namespace std::chrono;
  return year_month_day{year{y}, month{static_cast<unsigned>(m)}, day{static_cast<unsigned>(d)}}
      .ok();
}

}  // namespace

std::optional<std::string> NormaliseTimestamp(std::string_view s) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!civil::ReadDigits(s, 0, 4, &year) || s.size() < 10 || s[4] != '-' ||
      !civil::ReadDigits(s, 5, 2, &month) || s[7] != '-' || !civil::ReadDigits(s, 8, 2, &day)) {
    return std::nullopt;
  }
  if (!IsValidDate(year, month, day)) return std::nullopt;
  std::size_t pos = 10;
  std::int64_t micros = 0;
  int offset = 0;
  if (pos < s.size() && (s[pos] == 'T' || s[pos] == 't' || s[pos] == ' ')) {
    if (!civil::ReadDigits(s, pos + 1, 2, &hour) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !civil::ReadDigits(s, pos + 4, 2, &minute)) {
      return std::nullopt;
    }
    pos += 6;
    if (pos < s.size() && s[pos] == ':') {
      if (!civil::ReadDigits(s, pos + 1, 2, &second)) return std::nullopt;
      pos += 3;
      if (pos < s.size() && s[pos] == '.') {
        int digits = 0;
        ++pos;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
          if (digits < 6) micros = micros * 10 + (s[pos] - '0');
          ++digits;
          ++pos;
        }
        if (digits == 0 || digits > 9) return std::nullopt;
        for (; digits < 6; ++digits) micros *= 10;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
      ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
      int sign = s[pos] == '-' ? -1 : 1;
      int oh = 0, om = 0;
      if (!civil::ReadDigits(s, pos + 1, 2, &oh)) return std::nullopt;
      pos += 3;
      if (pos < s.size() && s[pos] == ':') ++pos;
      if (pos < s.size()) {
        if (!civil::ReadDigits(s, pos, 2, &om)) return std::nullopt;
        pos += 2;
      }
      if (oh > 23 || om > 59) return std::nullopt;
      offset = sign * (oh * 3600 + om * 60);
    }
  }
  if (pos != s.size()) return std::nullopt;
  std::int64_t total =
      DaysSinceEpoch(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  std::int64_t days = total >= 0 ? total / 86400 : (total - 86399) / 86400;
  std::int64_t rem = total - days * 86400;
  CivilFromDays(days, &year, &month, &day);
  if (year < 1 || year > 9999) return std::nullopt;
  char out[40];
  std::snprintf(out, sizeof(out), "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", year, month, day,
                static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60),
                static_cast<int>(rem % 60), static_cast<int>(micros));
  return std::string(out);
}

}  // namespace lqe::gateway
