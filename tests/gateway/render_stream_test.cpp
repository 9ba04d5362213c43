// The streaming renderer (AppendValue) against the DOM path it replaces: for every input the
// bytes must equal SerializeJson(RenderValue) (+ RedactJson when redacting).
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include "lqe/gateway/redact.h"
#include "lqe/gateway/render.h"

namespace lqe::gateway {
namespace {

std::string Stream(const Type& type, std::optional<std::string_view> text, bool redact = false) {
  std::string out = "x";  // output is appended after what is already there
  AppendValue(out, type, text, redact);
  return out.substr(1);
}

std::string Dom(const Type& type, std::optional<std::string_view> text, bool redact = false) {
  boost::json::value value = RenderValue(type, text);
  if (redact) RedactJson(value);
  return SerializeJson(value);
}

// Postgres jsonb output text, spaced as Postgres prints it.
const std::vector<std::string>& JsonInputs() {
  static const std::vector<std::string> inputs = {
      R"({"a": {"b": [{"c": {"d": 1}}, 2, [{"e": {}}]]}, "f": []})",
      R"({"s": "br{ac}es [and] \"quotes\" \\ back\\slash", "t": "tab\tnl\ncr\r\b\f\u0001\u001f"})",
      R"({"u": "caf\u00e9 – 日本 😀", "esc": "\u00e9\/x"})",
      R"({"": "", "empty": {}, "list": [], "nested": [[]], "objs": [{}, {}]})",
      R"({"n": [0, -1, 1.5, 1.50, 1e2, -0, 12345678901234567890, 123456789012345678901234, 0.1]})",
      R"({"x": null, "y": true, "z": false})",
      R"([{"a": {"b": 1}, "c": [{"d": {"e": 2}}], "n": [1, 2]}])",
      R"(["x", "y"])",
      R"({"ip": "client 10.1.2.3 said hi", "mail": "ann@example.com", "10.0.0.1": [{"k": "10.0.0.2"}]})",
      R"("just a string")",
      "42",
      "null",
      "not json {",
      "",
      R"({"a": 1} trailing)",
      R"({"deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]})",
      // Outside the canonical form the fast path copies: each must still match the DOM path.
      R"({"e": "\u001F \u00E9 \u0041 \/ \u000a \u0008 \ud83d\ude00"})",
      "{\"bad\": \"\xC0\x80 \xED\xA0\x80 \xF5\x80\x80\x80 \xE2\x82\"}",
      "{\"raw\": \"tab\tin string\"}",
      "{\"raw\": \"sixteen bytes ok\ttab after a word\"}",
      R"({"long": "abcdefghijklmnop\u0001qrstuvwx 日本語 abcdefgh\"ijklmnop\\qrstuvwxyz0123"})",
      R"({"long keys are copied too, {braces} and [brackets]": "0123456789abcdef\n"})",
      R"({"n": [-0, 01, 1E400, 999999999999999999, 9999999999999999999, -9223372036854775809]})",
      R"({"n": [1.0e-5, 2E+3, -1.25, 0.0, -]})",
      R"([1, 2,])",
      R"({"a": 1,})",
      R"({"a" 1})",
      R"([}])",
      R"({"a": tru})",
      R"(nullx)",
      " \n {\"ws\" :\t[ 1 ,2 ] } \r\n",
      R"([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])",
      R"([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])",
  };
  return inputs;
}

TEST(RenderStreamTest, JsonRecordsAndArraysMatchTheDomPath) {
  std::vector<std::shared_ptr<const Type>> types = {Type::Record({}), Type::Array(Type::Record({})),
                                                    Type::Scalar(TypeKind::kJson)};
  for (const auto& type : types) {
    for (const std::string& text : JsonInputs()) {
      for (bool redact : {false, true}) {
        EXPECT_EQ(Stream(*type, text, redact), Dom(*type, text, redact))
            << text << " redact=" << redact;
      }
    }
  }
}

TEST(RenderStreamTest, WrapsObjectsNotDirectlyInsideArrays) {
  auto record = Type::Record({});
  EXPECT_EQ(Stream(*record, R"({"a": {"b": [{"c": {"d": 1}}, 2, [{"e": {}}]]}, "f": []})"),
            R"([{"a":[{"b":[{"c":[{"d":1}]},2,[{"e":[{}]}]]}],"f":[]}])");
  EXPECT_EQ(Stream(*record, "{}"), "[{}]");
  EXPECT_EQ(Stream(*Type::Scalar(TypeKind::kJson), R"({"a": {"b": 1}})"), R"({"a":{"b":1}})");
  EXPECT_EQ(Stream(*record, R"({"n": [1.5, 10, -3]})"), R"([{"n":[1.5,10,-3]}])");
}

TEST(RenderStreamTest, StringsKeepTheirEscapes) {
  auto record = Type::Record({});
  EXPECT_EQ(Stream(*record, R"({"s": "a{b}\"c\\d\n\u0001é"})"),
            "[{\"s\":\"a{b}\\\"c\\\\d\\n\\u0001é\"}]");
  EXPECT_EQ(Stream(*record, "not json"), R"("not json")");
}

TEST(RenderStreamTest, RedactsStringValuesNeverKeys) {
  auto record = Type::Record({});
  EXPECT_EQ(Stream(*record, R"({"10.0.0.1": "from 10.0.0.1", "n": 10})", true),
            R"([{"10.0.0.1":"from REDACTED","n":10}])");
  EXPECT_EQ(Stream(*Type::Scalar(TypeKind::kString), "mail ann@example.com", true),
            R"("mail REDACTED")");
}

// Each scalar kind against JSON text worked out by hand from the rendering rules (INT64 and
// TIMESTAMP as numbers, BYTES as base64, DATETIME with a T, non-finite floats as strings, ...),
// on both paths: the streaming path must not merely agree with the DOM path, both must be right.
TEST(RenderStreamTest, ScalarsRenderAsSpecified) {
  struct Case {
    TypeKind kind;
    std::optional<std::string_view> text;
    std::string_view expected;
    std::string_view expected_redacted;  // only strings change when redacting
  };
  const std::vector<Case> cases = {
      {TypeKind::kString, "h\"i\x01 10.1.2.3", R"("h\"i\u0001 10.1.2.3")",
       R"("h\"i\u0001 REDACTED")"},
      {TypeKind::kString, std::nullopt, "null", "null"},
      {TypeKind::kInt64, "-42", "-42", "-42"},
      {TypeKind::kInt64, "9223372036854775807", "9223372036854775807", "9223372036854775807"},
      {TypeKind::kFloat64, "1.5", "1.5", "1.5"},
      {TypeKind::kFloat64, "NaN", R"("NaN")", R"("NaN")"},
      {TypeKind::kNumeric, "12.5000", "12.5", "12.5"},
      {TypeKind::kBool, "t", "true", "true"},
      {TypeKind::kBool, "f", "false", "false"},
      {TypeKind::kBytes, "\\x616263", R"("YWJj")", R"("YWJj")"},
      {TypeKind::kBytes, "\\x6162", R"("YWI=")", R"("YWI=")"},
      {TypeKind::kDate, "2024-01-02", R"("2024-01-02")", R"("2024-01-02")"},
      {TypeKind::kDatetime, "2024-01-02 03:04:00.25", R"("2024-01-02T03:04:00.25")",
       R"("2024-01-02T03:04:00.25")"},
      // 2024-01-02T03:04:05.123456Z = 1704164645 s after the epoch, in microseconds.
      {TypeKind::kTimestamp, "2024-01-02 03:04:05.123456+00", "1704164645123456",
       "1704164645123456"},
      {TypeKind::kTimestamp, "2024-01-02 05:04:05+02", "1704164645000000", "1704164645000000"},
      {TypeKind::kTimestamp, "infinity", R"("infinity")", R"("infinity")"},
      {TypeKind::kTime, "03:04:05.5", R"("03:04:05.5")", R"("03:04:05.5")"},
  };
  for (const Case& c : cases) {
    const auto type = Type::Scalar(c.kind);
    const std::string input(c.text ? *c.text : "NULL");
    EXPECT_EQ(Stream(*type, c.text), c.expected) << input;
    EXPECT_EQ(Dom(*type, c.text), c.expected) << input;
    EXPECT_EQ(Stream(*type, c.text, true), c.expected_redacted) << input;
    EXPECT_EQ(Dom(*type, c.text, true), c.expected_redacted) << input;
  }
}

}  // namespace
}  // namespace lqe::gateway
