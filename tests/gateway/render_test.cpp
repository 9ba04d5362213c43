// Rendering of every output type from Postgres text to JSON per the output contract.
#include "lqe/gateway/render.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace lqe::gateway {
namespace {

std::string R(TypeKind kind, std::optional<std::string_view> text) {
  return SerializeJson(RenderValue(*Type::Scalar(kind), text));
}

TEST(RenderTest, Scalars) {
  EXPECT_EQ(R(TypeKind::kInt64, "-42"), "-42");
  EXPECT_EQ(R(TypeKind::kInt64, "9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(R(TypeKind::kFloat64, "1.5"), "1.5");
  EXPECT_EQ(R(TypeKind::kFloat64, "NaN"), "\"NaN\"");
  EXPECT_EQ(R(TypeKind::kFloat64, "-Infinity"), "\"-Infinity\"");
  EXPECT_EQ(R(TypeKind::kNumeric, "12.5000"), "12.5");
  EXPECT_EQ(R(TypeKind::kBool, "t"), "true");
  EXPECT_EQ(R(TypeKind::kBool, "f"), "false");
  EXPECT_EQ(R(TypeKind::kString, "h\"i"), "\"h\\\"i\"");
  EXPECT_EQ(R(TypeKind::kBytes, "\\x616263"), "\"YWJj\"");
  EXPECT_EQ(R(TypeKind::kBytes, "\\x6162"), "\"YWI=\"");
  EXPECT_EQ(R(TypeKind::kDate, "2024-01-02"), "\"2024-01-02\"");
  EXPECT_EQ(R(TypeKind::kTime, "03:04:05.5"), "\"03:04:05.5\"");
  EXPECT_EQ(R(TypeKind::kString, std::nullopt), "null");
  EXPECT_EQ(R(TypeKind::kTimestamp, std::nullopt), "null");
}

TEST(RenderTest, TimestampsAreUnixMicroseconds) {
  EXPECT_EQ(R(TypeKind::kTimestamp, "2024-01-02 03:04:05.123456+00"), "1704164645123456");
  EXPECT_EQ(R(TypeKind::kTimestamp, "2024-01-02 03:04:05+00"), "1704164645000000");
  EXPECT_EQ(R(TypeKind::kTimestamp, "2024-01-02 03:04:05.5+00"), "1704164645500000");
  EXPECT_EQ(R(TypeKind::kTimestamp, "2024-01-02 05:04:05+02"), "1704164645000000");
  EXPECT_EQ(R(TypeKind::kTimestamp, "2024-01-02 02:34:05-00:30"), "1704164645000000");
  EXPECT_EQ(R(TypeKind::kTimestamp, "1969-12-31 23:59:59+00"), "-1000000");
  EXPECT_EQ(R(TypeKind::kTimestamp, "infinity"), "\"infinity\"");
}

TEST(RenderTest, Datetimes) {
  EXPECT_EQ(R(TypeKind::kDatetime, "2024-01-02 03:04:00"), "\"2024-01-02T03:04:00\"");
  EXPECT_EQ(R(TypeKind::kDatetime, "2024-01-02 03:04:00.25"), "\"2024-01-02T03:04:00.25\"");
}

TEST(RenderTest, RecordsWrapEveryObjectLevel) {
  auto record = Type::Record({});
  std::string text =
      R"({"event_message":"some msg","nested":{"host":"db","parsed":{"elements":{"meta":{"data":"date"}}}}})";
  EXPECT_EQ(
      SerializeJson(RenderValue(*record, text)),
      R"([{"event_message":"some msg","nested":[{"host":"db","parsed":[{"elements":[{"meta":[{"data":"date"}]}]}]}]}])");
}

TEST(RenderTest, ObjectsInsideArraysAreNotWrappedButTheirKeysAre) {
  auto array = Type::Array(Type::Record({}));
  std::string text = R"([{"a":{"b":1},"c":[{"d":{"e":2}}],"n":[1,2]}])";
  EXPECT_EQ(SerializeJson(RenderValue(*array, text)),
            R"([{"a":[{"b":1}],"c":[{"d":[{"e":2}]}],"n":[1,2]}])");
  EXPECT_EQ(
      SerializeJson(RenderValue(*Type::Array(Type::Scalar(TypeKind::kString)), R"(["x","y"])")),
      R"(["x","y"])");
}

TEST(RenderTest, RecordsRenderEverySchemaField) {
  // metadata: ARRAY<STRUCT<host STRING, response ARRAY<STRUCT<status_code INT64, headers
  // ARRAY<STRUCT<cf_ray STRING>>>>, tags ARRAY<STRING>>>; the event sent only what it had.
  auto headers = Type::Array(Type::Record({{"cf_ray", Type::Scalar(TypeKind::kString)}}));
  auto response = Type::Array(
      Type::Record({{"status_code", Type::Scalar(TypeKind::kInt64)}, {"headers", headers}}));
  auto metadata =
      Type::Array(Type::Record({{"host", Type::Scalar(TypeKind::kString)},
                                {"response", response},
                                {"tags", Type::Array(Type::Scalar(TypeKind::kString))}}));
  const std::string text = R"([{"response":{"status_code":200}}])";
  const std::string expected =
      R"([{"response":[{"status_code":200,"headers":[]}],"host":null,"tags":[]}])";
  EXPECT_EQ(SerializeJson(RenderValue(*metadata, text)), expected);
  std::string streamed;
  AppendValue(streamed, *metadata, text, false);
  EXPECT_EQ(streamed, expected);
  // A record without the REPEATED field at all, and one with an empty array of records.
  EXPECT_EQ(SerializeJson(RenderValue(*metadata, R"([{"host":"h","response":[]}])")),
            R"([{"host":"h","response":[],"tags":[]}])");
  EXPECT_EQ(SerializeJson(RenderValue(*metadata, "[]")), "[]");
}

TEST(RenderTest, JsonPassesThrough) {
  EXPECT_EQ(R(TypeKind::kJson, R"({"a":{"b":1}})"), R"({"a":{"b":1}})");
}

// FLOAT64 as BigQuery's JSON (JavaScript's shortest form), never Boost.JSON's 7.98E-2: the
// shortest digits that read back the same double, plain from 1e-7 to 1e21, else an exponent.
TEST(RenderTest, Float64AsBigQueryJsonWritesIt) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0.0798", "0.0798"},
      {"7.98e-2", "0.0798"},
      {"100", "100"},
      {"-2.5", "-2.5"},
      {"0.1", "0.1"},
      {"1e20", "100000000000000000000"},
      {"1e21", "1e+21"},
      {"1.5e300", "1.5e+300"},
      {"0.000001", "0.000001"},
      {"1e-7", "1e-7"},
      {"-1.25e-10", "-1.25e-10"},
      {"123456.789", "123456.789"},
      {"0.30000000000000004", "0.30000000000000004"},
      {"-0", "0"},
      {"0", "0"},
      {"4.9406564584124654e-324", "5e-324"},
      {"1.7976931348623157e308", "1.7976931348623157e+308"},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(R(TypeKind::kFloat64, text), expected) << text;
    std::string streamed;
    AppendValue(streamed, *Type::Scalar(TypeKind::kFloat64), text, false);
    EXPECT_EQ(streamed, expected) << text;
  }
  // Inside records and JSON values too (Postgres' jsonb text keeps its own digits).
  std::string record;
  AppendValue(record, *Type::Record({}), R"({"a": 0.0798, "b": 1e2, "c": 1.5E-9, "d": 10})", false);
  EXPECT_EQ(record, R"([{"a":0.0798,"b":100,"c":1.5e-9,"d":10}])");
}

}  // namespace
}  // namespace lqe::gateway
