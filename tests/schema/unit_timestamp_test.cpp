#include <gtest/gtest.h>

#include "lqe/schema/timestamp.h"

namespace lqe::schema {
namespace {

// 2023-03-23T14:36:26Z, computed independently: 19439 days * 86400 + 14:36:26.
constexpr std::int64_t kBase = (19439LL * 86400 + 14LL * 3600 + 36LL * 60 + 26) * 1000000;

std::int64_t Parse(const std::string& text) {
  std::string error;
  const auto v = ParseTimestampText(text, &error);
  EXPECT_TRUE(v.has_value()) << text << ": " << error;
  return v.value_or(-1);
}

std::string ParseError(const std::string& text) {
  std::string error;
  EXPECT_FALSE(ParseTimestampText(text, &error).has_value()) << text;
  return error;
}

TEST(TimestampTest, IsoVariants) {
  EXPECT_EQ(Parse("2023-03-23T14:36:26Z"), kBase);
  EXPECT_EQ(Parse("2023-03-23t14:36:26z"), kBase);
  EXPECT_EQ(Parse("2023-03-23 14:36:26"), kBase);
  EXPECT_EQ(Parse("2023-03-23 14:36:26 UTC"), kBase);
  EXPECT_EQ(Parse("2023-03-23T14:36:26.5Z"), kBase + 500000);
  EXPECT_EQ(Parse("2023-03-23T14:36:26.643993277+00:00"), kBase + 643993);
  EXPECT_EQ(Parse("2023-03-23T16:36:26+02:00"), kBase);
  EXPECT_EQ(Parse("2023-03-23T09:06:26.000001-0530"), kBase + 1);
  EXPECT_EQ(Parse("2023-03-23T15:36:26+01"), kBase);
  EXPECT_EQ(Parse("2023-03-23T14:36Z"), kBase - 26000000);
  EXPECT_EQ(Parse("2023-03-23"), kBase - (14 * 3600 + 36 * 60 + 26) * 1000000LL);
}

TEST(TimestampTest, EpochNumbersByDigitCount) {
  std::string error;
  EXPECT_EQ(EpochToMicros(std::int64_t{1679582186}, &error), kBase);
  EXPECT_EQ(EpochToMicros(std::int64_t{1679582186123}, &error), kBase + 123000);
  EXPECT_EQ(EpochToMicros(std::int64_t{1679582186123456}, &error), kBase + 123456);
  EXPECT_EQ(EpochToMicros(std::int64_t{1679582186123456789}, &error), kBase + 123456);
  EXPECT_EQ(EpochToMicros(1679582186.25, &error), kBase + 250000);
  EXPECT_EQ(Parse("1679582186"), kBase);
  EXPECT_EQ(Parse("1679582186123"), kBase + 123000);
}

TEST(TimestampTest, GarbageIsRejectedWithAReason) {
  const std::string expected =
      "invalid timestamp \"yesterday\" (expected ISO 8601 or a unix epoch number)";
  EXPECT_EQ(ParseError("yesterday"), expected);
  EXPECT_NE(ParseError("2023-02-30T00:00:00Z").find("invalid timestamp"), std::string::npos);
  EXPECT_NE(ParseError("2023-03-23T24:00:00Z").find("invalid timestamp"), std::string::npos);
  EXPECT_NE(ParseError("2023-03-23T14:36:26+25:00").find("invalid timestamp"), std::string::npos);
  EXPECT_NE(ParseError("2023-03-23T14:36:26Zjunk").find("invalid timestamp"), std::string::npos);
  EXPECT_NE(ParseError("2023-03-23T14:36:26.Z").find("invalid timestamp"), std::string::npos);
  EXPECT_NE(ParseError("").find("invalid timestamp"), std::string::npos);
  EXPECT_EQ(ParseError("1960-01-01T00:00:00Z"),
            "timestamp out of range (1970-01-01 to 2099-12-31)");
  EXPECT_EQ(ParseError("9999999999999999999"), "timestamp out of range (1970-01-01 to 2099-12-31)");
  std::string error;
  EXPECT_FALSE(EpochToMicros(std::int64_t{-5}, &error).has_value());
  EXPECT_EQ(error, "timestamp out of range (1970-01-01 to 2099-12-31)");
  EXPECT_FALSE(EpochToMicros(1e300, &error).has_value());
}

TEST(TimestampTest, FormatsForPostgres) {
  EXPECT_EQ(FormatTimestampMicros(kBase + 643993), "2023-03-23 14:36:26.643993+00");
  EXPECT_EQ(FormatTimestampMicros(0), "1970-01-01 00:00:00.000000+00");
  EXPECT_EQ(FormatDay(DayOfMicros(kBase)), "2023-03-23");
  EXPECT_EQ(DayOfMicros(kBase), 19439);
}

TEST(TimestampTest, AppendsTheSameTextAsItFormats) {
  const std::int64_t end_of_2099 = 4102444800LL * 1000000 - 1;
  for (std::int64_t micros : {std::int64_t{0}, kBase + 643993, kBase + 5, end_of_2099,
                              std::int64_t{951782400} * 1000000 + 86399999999}) {
    std::string out = "row:";
    AppendTimestampMicros(micros, &out);
    EXPECT_EQ(out, "row:" + FormatTimestampMicros(micros));
  }
  std::string out;
  AppendTimestampMicros(end_of_2099, &out);
  EXPECT_EQ(out, "2099-12-31 23:59:59.999999+00");
  out.clear();
  AppendTimestampMicros(std::int64_t{951782400} * 1000000 + 86399999999, &out);  // a leap day
  EXPECT_EQ(out, "2000-02-29 23:59:59.999999+00");
}

}  // namespace
}  // namespace lqe::schema
