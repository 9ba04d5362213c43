// ISO 8601 text goes through the shared reader (lqe/base/iso8601.h); epoch numbers are read here.
#include "lqe/schema/timestamp.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "lqe/base/iso8601.h"

namespace lqe::schema {
namespace {

using std::chrono::day;
using std::chrono::month;
using std::chrono::sys_days;
using std::chrono::year;
using std::chrono::year_month_day;

std::optional<std::int64_t> Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return std::nullopt;
}

std::optional<std::int64_t> InRange(std::int64_t micros, std::string* error) {
  if (micros < kMinTimestampMicros || micros >= kMaxTimestampMicros) {
    return Fail(error, "timestamp out of range (1970-01-01 to 2099-12-31)");
  }
  return micros;
}

bool AllDigits(std::string_view text) {
  if (text.empty() || text.size() > 19) return false;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return false;
  }
  return true;
}

}  // namespace

std::optional<std::int64_t> ParseTimestampText(std::string_view text, std::string* error) {
  if (AllDigits(text)) {
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc()) return Fail(error, "timestamp out of range (1970-01-01 to 2099-12-31)");
    return EpochToMicros(value, error);
  }
  const std::string bad = "invalid timestamp \"" + std::string(text.substr(0, 64)) +
                          "\" (expected ISO 8601 or a unix epoch number)";
  iso8601::Options options;  // log lines also write " UTC", "," and nanoseconds or more
  options.allow_utc_word = true;
  options.allow_comma_fraction = true;
  options.max_fraction_digits = std::numeric_limits<int>::max();
  const auto instant = iso8601::Parse(text, options);
  if (!instant) return Fail(error, bad);
  return InRange(instant->micros, error);
}

std::optional<std::int64_t> EpochToMicros(std::int64_t value, std::string* error) {
  if (value < 0) return Fail(error, "timestamp out of range (1970-01-01 to 2099-12-31)");
  int digits = 1;
  for (std::int64_t v = value; v >= 10; v /= 10) ++digits;
  if (digits <= 10) return InRange(value * 1000000, error);
  if (digits <= 13) return InRange(value * 1000, error);
  if (digits <= 16) return InRange(value, error);
  return InRange(value / 1000, error);
}

std::optional<std::int64_t> EpochToMicros(double value, std::string* error) {
  if (!std::isfinite(value) || value < 0 || value >= 1e19) {
    return Fail(error, "timestamp out of range (1970-01-01 to 2099-12-31)");
  }
  const double whole = std::floor(value);
  int digits = 1;
  for (double v = whole; v >= 10; v /= 10) ++digits;
  const double scale = digits <= 10 ? 1e6 : digits <= 13 ? 1e3 : digits <= 16 ? 1.0 : 1e-3;
  return InRange(static_cast<std::int64_t>(std::floor(value * scale)), error);
}

std::int64_t DayOfMicros(std::int64_t micros) {
  constexpr std::int64_t kMicrosPerDay = 86400LL * 1000000;
  return micros >= 0 ? micros / kMicrosPerDay : -((-micros + kMicrosPerDay - 1) / kMicrosPerDay);
}

std::string FormatDay(std::int64_t day_number) {
  const year_month_day date{sys_days{std::chrono::days{day_number}}};
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%04d-%02u-%02u", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
  return buf;
}

std::string FormatTimestampMicros(std::int64_t micros) {
  const std::int64_t day_number = DayOfMicros(micros);
  const std::int64_t rest = micros - day_number * 86400LL * 1000000;
  const std::int64_t secs = rest / 1000000;
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%s %02d:%02d:%02d.%06d+00", FormatDay(day_number).c_str(),
                static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                static_cast<int>(secs % 60), static_cast<int>(rest % 1000000));
  return buf;
}

void AppendTimestampMicros(std::int64_t micros, std::string* out) {
  const std::int64_t day_number = DayOfMicros(micros);
  const year_month_day date{sys_days{std::chrono::days{day_number}}};
  const int year = static_cast<int>(date.year());
  if (year < 0 || year > 9999) {  // outside what events may carry: the general formatting
    out->append(FormatTimestampMicros(micros));
    return;
  }
  const std::int64_t rest = micros - day_number * 86400LL * 1000000;
  const std::int64_t secs = rest / 1000000;
  char buf[] = "0000-00-00 00:00:00.000000+00";
  auto put = [&buf](int at, std::int64_t value, int digits) {
    for (int i = digits - 1; i >= 0; --i, value /= 10) {
      buf[at + i] = static_cast<char>('0' + value % 10);
    }
  };
  put(0, year, 4);
  put(5, static_cast<unsigned>(date.month()), 2);
  put(8, static_cast<unsigned>(date.day()), 2);
  put(11, secs / 3600, 2);
  put(14, secs / 60 % 60, 2);
  put(17, secs % 60, 2);
  put(20, rest % 1000000, 6);
  out->append(buf, sizeof(buf) - 1);
}

}  // namespace lqe::schema
