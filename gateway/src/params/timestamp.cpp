// ISO-8601 timestamps for typed parameters, read by the shared lqe/base/iso8601.h reader
// (date-only, offsets, up to 9 fractional digits). Output is always UTC with six fractional digits.
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "lqe/base/iso8601.h"
#include "lqe/gateway/params.h"

namespace lqe::gateway {

std::optional<std::string> NormaliseTimestamp(std::string_view s) {
  using namespace std::chrono;
  const auto instant = iso8601::Parse(s);
  if (!instant) return std::nullopt;
  const std::int64_t micros = instant->micros;
  const std::int64_t day_number =
      micros >= 0 ? micros / 86400000000 : (micros + 1) / 86400000000 - 1;
  const std::int64_t rest = micros - day_number * 86400000000;
  const year_month_day ymd{sys_days{days{day_number}}};
  const int year_number = static_cast<int>(ymd.year());
  if (year_number < 1 || year_number > 9999) return std::nullopt;
  const std::int64_t seconds = rest / 1000000;
  char out[40];
  std::snprintf(out, sizeof(out), "%04d-%02u-%02uT%02d:%02d:%02d.%06dZ", year_number,
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60 % 60),
                static_cast<int>(seconds % 60), static_cast<int>(rest % 1000000));
  return std::string(out);
}

}  // namespace lqe::gateway
