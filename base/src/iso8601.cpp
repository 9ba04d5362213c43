#include "lqe/base/iso8601.h"

#include <chrono>

#include "lqe/base/ascii.h"

namespace lqe::iso8601 {
namespace {

constexpr std::int64_t kMicrosPerSecond = 1000000;

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  bool Done() const { return pos_ == text_.size(); }
  char Peek() const { return Done() ? '\0' : text_[pos_]; }
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
  // Exactly `count` digits.
  bool Digits(int count, int* out) {
    int value = 0;
    for (int i = 0; i < count; ++i) {
      if (!ascii::IsDigit(Peek())) return false;
      value = value * 10 + (text_[pos_++] - '0');
    }
    *out = value;
    return true;
  }
  // One or more digits after the decimal mark, as microseconds (truncated).
  bool Fraction(int max_digits, std::int64_t* micros) {
    int digits = 0;
    std::int64_t value = 0;
    while (ascii::IsDigit(Peek())) {
      if (digits < 6) value = value * 10 + (text_[pos_] - '0');
      ++digits;
      ++pos_;
    }
    if (digits == 0 || digits > max_digits) return false;
    for (int i = digits; i < 6; ++i) value *= 10;
    *micros = value;
    return true;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// The zone after the time, to the end of the text; the offset east of UTC in seconds.
bool Zone(Cursor& c, const Options& options, int* offset_seconds) {
  *offset_seconds = 0;
  if (c.Eat('Z') || c.Eat('z')) return c.Done();
  if (options.allow_utc_word && (c.EatWord(" UTC") || c.EatWord("UTC"))) return c.Done();
  const char sign = c.Peek();
  if (!c.Eat('+') && !c.Eat('-')) return false;
  int hours = 0, minutes = 0;
  if (!c.Digits(2, &hours)) return false;
  if (!c.Done()) {
    c.Eat(':');
    if (!c.Digits(2, &minutes)) return false;
  }
  if (hours > 23 || minutes > 59 || !c.Done()) return false;
  *offset_seconds = (sign == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  return true;
}

}  // namespace

std::optional<Instant> Parse(std::string_view text, const Options& options) {
  using namespace std::chrono;
  Cursor c(text);
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (!c.Digits(4, &y) || !c.Eat('-') || !c.Digits(2, &mo) || !c.Eat('-') || !c.Digits(2, &d)) {
    return std::nullopt;
  }
  const year_month_day date{year{y}, month{static_cast<unsigned>(mo)},
                            day{static_cast<unsigned>(d)}};
  if (!date.ok()) return std::nullopt;
  Instant instant;
  instant.micros = sys_days{date}.time_since_epoch().count() * 86400 * kMicrosPerSecond;
  if (c.Done()) {
    if (!options.allow_date_only) return std::nullopt;
    instant.date_only = true;
    return instant;
  }
  if (!c.Eat('T') && !c.Eat('t') && !c.Eat(' ')) return std::nullopt;
  if (!c.Digits(2, &h) || !c.Eat(':') || !c.Digits(2, &mi)) return std::nullopt;
  std::int64_t fraction = 0;
  if (c.Eat(':')) {
    if (!c.Digits(2, &s)) return std::nullopt;
    if ((c.Eat('.') || (options.allow_comma_fraction && c.Eat(','))) &&
        !c.Fraction(options.max_fraction_digits, &fraction)) {
      return std::nullopt;
    }
  }
  if (h > 23 || mi > 59 || s > 59) return std::nullopt;
  int offset = 0;
  if (!c.Done()) {
    if (!Zone(c, options, &offset)) return std::nullopt;
    instant.has_zone = true;
  }
  instant.micros +=
      (static_cast<std::int64_t>(h) * 3600 + static_cast<std::int64_t>(mi) * 60 + s - offset) *
          kMicrosPerSecond +
      fraction;
  return instant;
}

}  // namespace lqe::iso8601
