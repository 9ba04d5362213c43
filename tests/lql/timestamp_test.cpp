// Timestamp values of t: filters with a fixed "now" (Wednesday 2024-05-15 12:34:56.789012 UTC).
#include "lql/timestamp.h"

#include <gtest/gtest.h>

namespace lqe::lql {
namespace {

constexpr Micros kNow = 1715776496789012;  // 2024-05-15 12:34:56.789012 UTC

std::string Point(std::string_view text) {
  auto v = ParseTimeValue(text, kNow);
  if (auto* e = std::get_if<std::string>(&v)) {
    return "error: " + *e;
  }
  const TimeValue& tv = std::get<TimeValue>(v);
  if (tv.is_range) {
    return "range";
  }
  return FormatTimestamp(tv.point.micros) + (tv.point.date_only ? " (date)" : "") +
         (tv.point.zone == Zone::kAbsolute ? " abs"
          : tv.point.zone == Zone::kLocal  ? " local"
                                           : "");
}

std::string Range(std::string_view text) {
  auto v = ParseTimeValue(text, kNow);
  if (auto* e = std::get_if<std::string>(&v)) {
    return "error: " + *e;
  }
  const TimeValue& tv = std::get<TimeValue>(v);
  if (!tv.is_range) {
    return "point";
  }
  return FormatTimestamp(tv.range.low) + (tv.range.high_exclusive ? " .. < " : " .. <= ") +
         FormatTimestamp(tv.range.high);
}

std::string TwoSided(std::string_view low, std::string_view high) {
  auto v = ParseTimeRange(low, high, kNow);
  if (auto* e = std::get_if<std::string>(&v)) {
    return "error: " + *e;
  }
  const TimeRange& r = std::get<TimeRange>(v);
  return FormatTimestamp(r.low) + (r.high_exclusive ? " .. < " : " .. <= ") +
         FormatTimestamp(r.high);
}

TEST(LqlTimestamp, IsoDatesAndDatetimes) {
  EXPECT_EQ(Point("2019-01-01"), "2019-01-01 00:00:00+00 (date) local");
  EXPECT_EQ(Point("2024-02-29"), "2024-02-29 00:00:00+00 (date) local");
  EXPECT_EQ(Point("2022-04-07T09:10"), "2022-04-07 09:10:00+00 local");
  EXPECT_EQ(Point("2022-04-07T09:10:11"), "2022-04-07 09:10:11+00 local");
  EXPECT_EQ(Point("2022-04-07 09:10:11"), "2022-04-07 09:10:11+00 local");
  EXPECT_EQ(Point("2022-04-07T09:10:11.5"), "2022-04-07 09:10:11.500000+00 local");
  EXPECT_EQ(Point("2022-04-07T09:10:11.123456Z"), "2022-04-07 09:10:11.123456+00 abs");
  EXPECT_EQ(Point("2022-04-07T09:10:11+02:00"), "2022-04-07 07:10:11+00 abs");
  EXPECT_EQ(Point("2022-04-07T23:10:11-0230"), "2022-04-08 01:40:11+00 abs");
  EXPECT_EQ(Point("2022-04-07T00:10:11+05"), "2022-04-06 19:10:11+00 abs");
}

TEST(LqlTimestamp, UnixSecondsMillisMicros) {
  EXPECT_EQ(Point("1649289600"), "2022-04-07 00:00:00+00");
  EXPECT_EQ(Point("1649289600123"), "2022-04-07 00:00:00.123000+00");
  EXPECT_EQ(Point("1649289600123456"), "2022-04-07 00:00:00.123456+00");
}

TEST(LqlTimestamp, InvalidValues) {
  const std::string expected =
      ": expected an ISO 8601 date or datetime, a unix timestamp (10, 13 or 16 digits), a range "
      "or a shorthand";
  for (const char* bad : {"12345", "2022-13-01", "2023-02-29", "2022-04-07T24:00", "2022-4-7",
                          "2022-04-07T10:00:00.1234567", "2022-04-07T10:00:00+25:00", "2022-04-07X",
                          "yesterdays", "abc"}) {
    EXPECT_EQ(Point(bad), "error: invalid timestamp \"" + std::string(bad) + "\"" + expected);
  }
}

TEST(LqlTimestamp, Shorthands) {
  EXPECT_EQ(Point("now"), "2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(Range("today"), "2024-05-15 00:00:00+00 .. < 2024-05-16 00:00:00+00");
  EXPECT_EQ(Range("yesterday"), "2024-05-14 00:00:00+00 .. < 2024-05-15 00:00:00+00");
  EXPECT_EQ(Range("this@minute"), "2024-05-15 12:34:00+00 .. <= 2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(Range("this@hour"), "2024-05-15 12:00:00+00 .. <= 2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(Range("this@day"), "2024-05-15 00:00:00+00 .. <= 2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(Range("this@week"), "2024-05-13 00:00:00+00 .. <= 2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(Range("this@month"), "2024-05-01 00:00:00+00 .. <= 2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(Range("this@year"), "2024-01-01 00:00:00+00 .. <= 2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(Range("this@second"),
            "error: unknown time unit \"second\" in this@: use minute, hour, day, week, month or "
            "year");
  EXPECT_EQ(Range("this@fortnight"),
            "error: unknown time unit \"fortnight\" in this@: use minute, hour, day, week, month "
            "or year");
}

TEST(LqlTimestamp, LastN) {
  const std::string end = " .. <= 2024-05-15 12:34:56.789012+00";
  EXPECT_EQ(Range("last@30s"), "2024-05-15 12:34:26+00" + end);
  EXPECT_EQ(Range("last@5m"), "2024-05-15 12:29:00+00" + end);
  EXPECT_EQ(Range("last@43minutes"), "2024-05-15 11:51:00+00" + end);
  EXPECT_EQ(Range("last@minute"), "2024-05-15 12:33:00+00" + end);
  EXPECT_EQ(Range("last@"),
            "error: unknown time unit \"\" in last@: use s, m, h, d, w, mm, y or "
            "their names");
  EXPECT_EQ(Range("last@2h"), "2024-05-15 10:00:00+00" + end);
  EXPECT_EQ(Range("last@2hours"), "2024-05-15 10:00:00+00" + end);
  EXPECT_EQ(Range("last@3d"), "2024-05-12 00:00:00+00" + end);
  EXPECT_EQ(Range("last@day"), "2024-05-14 00:00:00+00" + end);
  EXPECT_EQ(Range("last@2w"), "2024-05-01 00:00:00+00" + end);
  EXPECT_EQ(Range("last@3mm"), "2024-02-15 00:00:00+00" + end);
  EXPECT_EQ(Range("last@months"), "2024-04-15 00:00:00+00" + end);
  EXPECT_EQ(Range("last@1y"), "2023-05-15 00:00:00+00" + end);
  EXPECT_EQ(Range("last@5x"),
            "error: unknown time unit \"x\" in last@: use s, m, h, d, w, mm, y or their names");
  EXPECT_EQ(Range("last@99999y"), "error: timestamp out of range in \"last@99999y\"");
  EXPECT_EQ(Range("last@9999999d"), "error: timestamp out of range in \"last@9999999d\"");
}

TEST(LqlTimestamp, MonthArithmeticClampsTheDay) {
  // 2024-03-31 minus one month is 2024-02-29 (leap year).
  auto v = ParseTimeValue("last@1mm", 1711886400000000);  // 2024-03-31 12:00:00 UTC
  ASSERT_TRUE(std::holds_alternative<TimeValue>(v));
  EXPECT_EQ(FormatTimestamp(std::get<TimeValue>(v).range.low), "2024-02-29 00:00:00+00");
}

TEST(LqlTimestamp, BraceRanges) {
  EXPECT_EQ(Range("2022-04-{07..09}T00:{00..40}:00"),
            "2022-04-07 00:00:00+00 .. <= 2022-04-09 00:40:00+00");
  EXPECT_EQ(Range("2022-04-07T00:00:00.{1..7}"),
            "2022-04-07 00:00:00.100000+00 .. <= 2022-04-07 00:00:00.700000+00");
  EXPECT_EQ(Range("2022-04-{07..09}"), "2022-04-07 00:00:00+00 .. < 2022-04-10 00:00:00+00");
  EXPECT_EQ(Range("2019-{01..02}-01T00:{13..23}:{37..34}"),
            "2019-01-01 00:13:37+00 .. <= 2019-02-01 00:23:34+00");
  for (const char* bad :
       {"2022-04-{07..}", "2022-04-{07}", "2022-04-07}", "2022-04-{a..b}", "2022-04-{07..09"}) {
    EXPECT_EQ(Range(bad), "error: invalid brace range \"" + std::string(bad) +
                              "\": write each varying part as {from..to} with digits");
  }
  EXPECT_EQ(Range("2022-04-{09..07}"), "error: timestamp range starts after it ends");
}

TEST(LqlTimestamp, ExplicitRanges) {
  EXPECT_EQ(TwoSided("2022-01-01", "2022-01-03"),
            "2022-01-01 00:00:00+00 .. < 2022-01-04 00:00:00+00");
  EXPECT_EQ(TwoSided("2022-01-01T10:00:00Z", "2022-01-01T11:00:00+00:00"),
            "2022-01-01 10:00:00+00 .. <= 2022-01-01 11:00:00+00");
  EXPECT_EQ(TwoSided("yesterday", "now"),
            "2024-05-14 00:00:00+00 .. <= 2024-05-15 12:34:56.789012+00");
  EXPECT_EQ(TwoSided("1649289600", "today"), "2022-04-07 00:00:00+00 .. < 2024-05-16 00:00:00+00");
  EXPECT_EQ(TwoSided("2022-01-01T10:00:00Z", "2022-01-01T11:00:00"),
            "error: timestamp range cannot mix timestamps with and without timezone offsets");
  EXPECT_EQ(TwoSided("2022-01-02", "2022-01-01T00:00:00"),
            "error: timestamp range starts after it ends");
  EXPECT_EQ(TwoSided("x", "now"),
            "error: invalid timestamp \"x\": expected an ISO 8601 date or "
            "datetime, a unix timestamp (10, 13 or 16 digits), a range or a "
            "shorthand");
}

TEST(LqlTimestamp, FormatAroundTheEpochAndLimits) {
  EXPECT_EQ(FormatTimestamp(0), "1970-01-01 00:00:00+00");
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31 23:59:59.999999+00");
  EXPECT_EQ(Point("0001-01-01"), "0001-01-01 00:00:00+00 (date) local");
  EXPECT_EQ(Point("9999-12-31T23:59:59.999999Z"), "9999-12-31 23:59:59.999999+00 abs");
}

}  // namespace
}  // namespace lqe::lql
