// Hand-written because neither the C++20 library shipped with GCC 12 (no std::chrono::parse) nor
// Boost.DateTime parses ISO 8601 with numeric offsets; std::chrono does the calendar arithmetic.
#include "lqe/schema/timestamp.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace lqe::schema {
namespace {

using std::chrono::day;
using std::chrono::month;
using std::chrono::sys_days;
using std::chrono::year;
using std::chrono::year_month_day;

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  bool Done() const { return pos_ == text_.size(); }
  char Peek() const { return Done() ? '\0' : text_[pos_]; }
  void Skip() { ++pos_; }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  bool EatWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  // Reads exactly `count` digits.
  bool Digits(int count, int* out) {
    int value = 0;
    for (int i = 0; i < count; ++i) {
      const char c = Peek();
      if (c < '0' || c > '9') return false;
      value = value * 10 + (c - '0');
      ++pos_;
    }
    *out = value;
    return true;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

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

// Fraction digits after '.', truncated to microseconds.
bool ParseFraction(Cursor& c, std::int64_t* micros) {
  int digits = 0;
  std::int64_t value = 0;
  while (c.Peek() >= '0' && c.Peek() <= '9') {
    if (digits < 6) value = value * 10 + (c.Peek() - '0');
    ++digits;
    c.Skip();
  }
  if (digits == 0) return false;
  for (int i = digits; i < 6; ++i) value *= 10;
  *micros = value;
  return true;
}

// Zone suffix: Z, " UTC", "+HH:MM", "+HHMM", "+HH" or nothing. Sets the offset in seconds.
bool ParseZone(Cursor& c, int* offset_seconds) {
  *offset_seconds = 0;
  if (c.Done() || c.Eat('Z') || c.Eat('z') || c.EatWord(" UTC") || c.EatWord("UTC")) {
    return c.Done();
  }
  const char sign = c.Peek();
  if (sign != '+' && sign != '-') return false;
  c.Skip();
  int hours = 0;
  int minutes = 0;
  if (!c.Digits(2, &hours)) return false;
  if (!c.Done()) {
    c.Eat(':');
    if (!c.Digits(2, &minutes)) return false;
  }
  if (hours > 23 || minutes > 59 || !c.Done()) return false;
  *offset_seconds = (sign == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  return true;
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
  Cursor c(text);
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (!c.Digits(4, &y) || !c.Eat('-') || !c.Digits(2, &mo) || !c.Eat('-') || !c.Digits(2, &d)) {
    return Fail(error, bad);
  }
  const year_month_day date{year{y}, month{static_cast<unsigned>(mo)},
                            day{static_cast<unsigned>(d)}};
  if (!date.ok()) return Fail(error, bad);
  std::int64_t fraction = 0;
  int offset = 0;
  if (!c.Done()) {
    if (!c.Eat('T') && !c.Eat('t') && !c.Eat(' ')) return Fail(error, bad);
    if (!c.Digits(2, &h) || !c.Eat(':') || !c.Digits(2, &mi)) return Fail(error, bad);
    if (c.Eat(':') && !c.Digits(2, &s)) return Fail(error, bad);
    if ((c.Peek() == '.' || c.Peek() == ',') && (c.Skip(), !ParseFraction(c, &fraction))) {
      return Fail(error, bad);
    }
    if (h > 23 || mi > 59 || s > 59) return Fail(error, bad);
    if (!ParseZone(c, &offset)) return Fail(error, bad);
  }
  const std::int64_t days = sys_days{date}.time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + h * 3600 + mi * 60 + s - offset;
  return InRange(seconds * 1000000 + fraction, error);
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

}  // namespace lqe::schema
