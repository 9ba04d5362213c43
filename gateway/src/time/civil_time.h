// Small date helpers shared by parameter parsing and result rendering. Calendar arithmetic is
// C++20 <chrono>; the fixed-width digit reader is hand-written because std::chrono::parse is not
// in GCC 12.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lqe::gateway::civil {

// Reads exactly `count` ASCII digits of `text` at `pos`; false if any is missing or not a digit.
inline bool ReadDigits(std::string_view text, std::size_t pos, std::size_t count, int* out) {
  if (pos + count > text.size()) return false;
  int value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date.
inline std::int64_t DaysSinceEpoch(int y, int m, int d) {
  using namespace std::chrono;
  return sys_days{year{y} / month{static_cast<unsigned>(m)} / day{static_cast<unsigned>(d)}}
      .time_since_epoch()
      .count();
}

}  // namespace lqe::gateway::civil
