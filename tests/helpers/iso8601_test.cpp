// The shared ISO 8601 reader: what it accepts (with the instant it means) and what it refuses,
// with default options and with each option a caller uses.
#include "lqe/base/iso8601.h"

#include <gtest/gtest.h>

#include <limits>

namespace lqe::iso8601 {
namespace {

constexpr std::int64_t kSecond = 1000000;
// 2025-01-15T00:00:00Z
constexpr std::int64_t kDay = 1736899200LL * kSecond;

struct Accepted {
  const char* text;
  std::int64_t micros;
  bool date_only;
  bool has_zone;
};

TEST(Iso8601Test, AcceptedForms) {
  const Accepted cases[] = {
      {"2025-01-15", kDay, true, false},
      {"2025-01-15T01:30", kDay + 5400 * kSecond, false, false},
      {"2025-01-15t01:30:00", kDay + 5400 * kSecond, false, false},
      {"2025-01-15 01:30:07", kDay + 5407 * kSecond, false, false},
      {"2025-01-15T01:30:00Z", kDay + 5400 * kSecond, false, true},
      {"2025-01-15T01:30:00z", kDay + 5400 * kSecond, false, true},
      {"2025-01-15T01:30:00+02:00", kDay - 1800 * kSecond, false, true},
      {"2025-01-15T01:30:00+0200", kDay - 1800 * kSecond, false, true},
      {"2025-01-15T01:30:00+02", kDay - 1800 * kSecond, false, true},
      {"2025-01-15T01:30:00-05:30", kDay + 25200 * kSecond, false, true},
      {"2025-01-15T01:30+01:00", kDay + 1800 * kSecond, false, true},
      {"2025-01-15T00:00:00.5", kDay + 500000, false, false},
      {"2025-01-15T00:00:00.123456", kDay + 123456, false, false},
      // Past microseconds: truncated, never rounded up.
      {"2025-01-15T00:00:00.1234567", kDay + 123456, false, false},
      {"2025-01-15T23:59:59.999999999Z", kDay + 86399 * kSecond + 999999, false, true},
      {"2024-02-29T12:00:00Z", 1709208000LL * kSecond, false, true},
      {"1969-12-31T23:59:59Z", -kSecond, false, true},
  };
  for (const Accepted& c : cases) {
    const auto got = Parse(c.text);
    ASSERT_TRUE(got.has_value()) << c.text;
    EXPECT_EQ(got->micros, c.micros) << c.text;
    EXPECT_EQ(got->date_only, c.date_only) << c.text;
    EXPECT_EQ(got->has_zone, c.has_zone) << c.text;
  }
}

TEST(Iso8601Test, RefusedForms) {
  for (const char* text : {
           "",
           "2025",
           "2025-01",
           "2025-1-15",
           "25-01-15",
           "2025/01/15",
           "2025-13-01",
           "2025-02-30",
           "2023-02-29",
           "2025-01-15T",
           "2025-01-15T1:30",
           "2025-01-15T01",
           "2025-01-15T24:00:00",
           "2025-01-15T01:60:00",
           "2025-01-15T01:30:60",
           "2025-01-15T01:30:00.",
           "2025-01-15T01:30:00.1234567890",
           "2025-01-15T01:30:00,5",
           "2025-01-15T01:30:00 UTC",
           "2025-01-15T01:30:00+2",
           "2025-01-15T01:30:00+24:00",
           "2025-01-15T01:30:00+02:60",
           "2025-01-15T01:30:00+02:",
           "2025-01-15T01:30:00Zx",
           "2025-01-15X01:30:00",
           "2025-01-15T01:30:00 ",
           " 2025-01-15",
           "2025-01-15T01:30:0a",
       }) {
    EXPECT_FALSE(Parse(text).has_value()) << text;
  }
}

TEST(Iso8601Test, CallerOptions) {
  Options no_date;
  no_date.allow_date_only = false;
  EXPECT_FALSE(Parse("2025-01-15", no_date).has_value());
  EXPECT_TRUE(Parse("2025-01-15T00:00:00", no_date).has_value());

  Options micros_only;
  micros_only.max_fraction_digits = 6;
  EXPECT_TRUE(Parse("2025-01-15T00:00:00.123456", micros_only).has_value());
  EXPECT_FALSE(Parse("2025-01-15T00:00:00.1234567", micros_only).has_value());

  Options log_lines;  // what the NDJSON loader uses
  log_lines.allow_utc_word = true;
  log_lines.allow_comma_fraction = true;
  log_lines.max_fraction_digits = std::numeric_limits<int>::max();
  EXPECT_EQ(Parse("2025-01-15 00:00:01 UTC", log_lines)->micros, kDay + kSecond);
  EXPECT_EQ(Parse("2025-01-15 00:00:01UTC", log_lines)->micros, kDay + kSecond);
  EXPECT_EQ(Parse("2025-01-15T00:00:01,25Z", log_lines)->micros, kDay + kSecond + 250000);
  EXPECT_EQ(Parse("2025-01-15T00:00:00.123456789012Z", log_lines)->micros, kDay + 123456);
  EXPECT_FALSE(Parse("2025-01-15T00:00:00 UTC+1", log_lines).has_value());
}

}  // namespace
}  // namespace lqe::iso8601
