// Typed parameters: normalisation of each type, and the 400s for missing, bad and undeclared.
#include "lqe/gateway/params.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "support.h"

namespace lqe::gateway {
namespace {

ParamDef Def(ParamType type, bool required = false, std::vector<std::string> values = {}) {
  ParamDef d;
  d.name = "p";
  d.type = type;
  d.required = required;
  d.values = std::move(values);
  return d;
}

std::optional<std::string> Norm(const ParamDef& d, std::string_view v, std::string* err = nullptr) {
  std::string ignored;
  return NormaliseValue(d, v, err ? err : &ignored);
}

TEST(ParamsTest, Integers) {
  auto d = Def(ParamType::kInteger);
  EXPECT_EQ(Norm(d, "42"), "42");
  EXPECT_EQ(Norm(d, "-7"), "-7");
  EXPECT_EQ(Norm(d, "+7"), "7");
  std::string err;
  EXPECT_FALSE(Norm(d, "4.2", &err));
  EXPECT_EQ(err, "invalid value for parameter p: expected an integer");
  EXPECT_FALSE(Norm(d, ""));
  EXPECT_FALSE(Norm(d, "99999999999999999999"));
  EXPECT_FALSE(Norm(d, "12abc"));
}

TEST(ParamsTest, FloatsAndBooleans) {
  auto f = Def(ParamType::kFloat);
  EXPECT_EQ(Norm(f, "1.5e3"), "1.5e3");
  std::string err;
  EXPECT_FALSE(Norm(f, "nan", &err));
  EXPECT_EQ(err, "invalid value for parameter p: expected a number");
  EXPECT_FALSE(Norm(f, " 1"));
  auto b = Def(ParamType::kBoolean);
  EXPECT_EQ(Norm(b, "TRUE"), "true");
  EXPECT_EQ(Norm(b, "0"), "false");
  EXPECT_FALSE(Norm(b, "yes", &err));
  EXPECT_EQ(err, "invalid value for parameter p: expected true or false");
}

TEST(ParamsTest, Timestamps) {
  auto d = Def(ParamType::kTimestamp);
  EXPECT_EQ(Norm(d, "2025-01-15T11:00:00.000Z"), "2025-01-15T11:00:00.000000Z");
  EXPECT_EQ(Norm(d, "2025-01-15T11:00:00Z"), "2025-01-15T11:00:00.000000Z");
  EXPECT_EQ(Norm(d, "2025-01-15 11:00"), "2025-01-15T11:00:00.000000Z");
  EXPECT_EQ(Norm(d, "2025-01-15"), "2025-01-15T00:00:00.000000Z");
  EXPECT_EQ(Norm(d, "2025-01-15T01:30:00.123456789+02:00"), "2025-01-14T23:30:00.123456Z");
  EXPECT_EQ(Norm(d, "2024-12-31T23:00:00-0130"), "2025-01-01T00:30:00.000000Z");
  EXPECT_EQ(Norm(d, "2024-02-29T00:00:00Z"), "2024-02-29T00:00:00.000000Z");
  EXPECT_EQ(Norm(d, ""), "");  // optional: empty means unbounded
  std::string err;
  EXPECT_FALSE(Norm(d, "2023-02-29T00:00:00Z", &err));
  EXPECT_EQ(err, "invalid value for parameter p: expected an ISO-8601 timestamp or empty");
  EXPECT_FALSE(Norm(d, "2025-13-01"));
  EXPECT_FALSE(Norm(d, "2025-01-15T25:00:00Z"));
  EXPECT_FALSE(Norm(d, "yesterday"));
  EXPECT_FALSE(Norm(d, "2025-01-15T11:00:00Zjunk"));
  auto required = Def(ParamType::kTimestamp, true);
  EXPECT_FALSE(Norm(required, "", &err));
  EXPECT_EQ(err, "invalid value for parameter p: expected an ISO-8601 timestamp");
}

// PostgreSQL's special words, which its timestamptz reads, are no timestamps in BigQuery; nor
// are years outside BigQuery's 1 to 9999, whose extremes are.
TEST(ParamsTest, TimestampsRefusePostgresSpecialValues) {
  auto d = Def(ParamType::kTimestamp);
  for (const char* special : {"infinity", "-infinity", "+infinity", " Infinity ", "-INFINITY",
                              "infinity\t", "now", "today", "tomorrow", "epoch"}) {
    std::string err;
    EXPECT_FALSE(Norm(d, special, &err)) << special;
    EXPECT_EQ(err, "invalid value for parameter p: expected an ISO-8601 timestamp or empty")
        << special;
  }
  EXPECT_EQ(Norm(d, "0001-01-01T00:00:00Z"), "0001-01-01T00:00:00.000000Z");
  EXPECT_EQ(Norm(d, "9999-12-31T23:59:59.999999Z"), "9999-12-31T23:59:59.999999Z");
  EXPECT_FALSE(Norm(d, "10000-01-01T00:00:00Z"));
  auto required = Def(ParamType::kTimestamp, true);
  std::string err;
  EXPECT_FALSE(Norm(required, "infinity", &err));
  EXPECT_EQ(err, "invalid value for parameter p: expected an ISO-8601 timestamp");
}

TEST(ParamsTest, Enums) {
  auto d = Def(ParamType::kEnum, true, {"minutely", "hourly", "daily"});
  EXPECT_EQ(Norm(d, "hourly"), "hourly");
  std::string err;
  EXPECT_FALSE(Norm(d, "weekly", &err));
  EXPECT_EQ(err, "invalid value for parameter p: expected one of minutely, hourly, daily");
}

class ValidateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    endpoint_ = testing::MakeEndpoint("ep", "select 1", {});
    testing::AddParam(*endpoint_, "project", ParamType::kString, true);
    testing::AddParam(*endpoint_, "interval", ParamType::kEnum, false, {"hourly", "daily"});
    testing::AddParam(*endpoint_, "start", ParamType::kTimestamp, false);
  }
  std::string ErrorOf(const RawParams& raw) {
    auto r = ValidateParams(*endpoint_, raw);
    if (!std::holds_alternative<GatewayError>(r)) return "no error";
    const GatewayError& error = std::get<GatewayError>(r);
    EXPECT_EQ(error.status, 400);
    return error.message;
  }
  std::shared_ptr<EndpointDef> endpoint_;
};

TEST_F(ValidateTest, MissingRequired) {
  EXPECT_EQ(ErrorOf({}), "missing required parameter project");
}

TEST_F(ValidateTest, BadEnum) {
  EXPECT_EQ(ErrorOf({{"project", "x"}, {"interval", "weekly"}}),
            "invalid value for parameter interval: expected one of hourly, daily");
}

TEST_F(ValidateTest, Undeclared) {
  EXPECT_EQ(ErrorOf({{"project", "x"}, {"color", "red"}}),
            "unknown parameter color (declared: interval, project, start)");
}

TEST_F(ValidateTest, ReservedNamesPassAndAbsentOptionalsAreNull) {
  auto r = ValidateParams(*endpoint_, {{"project", "x"},
                                       {"sql", "select 1"},
                                       {"api_key", "k"},
                                       {"lql", "ignored when sql is sent"}});
  ASSERT_TRUE(std::holds_alternative<ValidatedParams>(r));
  const auto& v = std::get<ValidatedParams>(r);
  EXPECT_EQ(v.values.at("project"), "x");
  EXPECT_EQ(v.values.at("interval"), std::nullopt);
  EXPECT_EQ(v.sql, "select 1");
  EXPECT_EQ(v.lql, std::nullopt);
  EXPECT_EQ(v.canonical, R"({"interval":null,"project":"x","start":null})");
}

TEST_F(ValidateTest, EmptySqlMeansNoneAndBlocksLql) {
  auto r = ValidateParams(*endpoint_, {{"project", "x"}, {"sql", ""}, {"lql", "f:edge_logs"}});
  const auto& v = std::get<ValidatedParams>(r);
  EXPECT_EQ(v.sql, std::nullopt);
  EXPECT_EQ(v.lql, std::nullopt);
  auto l = ValidateParams(*endpoint_, {{"project", "x"}, {"lql", "f:edge_logs"}});
  EXPECT_EQ(std::get<ValidatedParams>(l).lql, "f:edge_logs");
}

TEST(QueryStringTest, DecodesWithBoostUrl) {
  std::string path;
  RawParams raw;
  ASSERT_TRUE(ParseQueryString("/api/endpoints/query/logs.all?sql=select%20a%2Bb&x=1+2&e=&flag",
                               &path, &raw));
  EXPECT_EQ(path, "/api/endpoints/query/logs.all");
  EXPECT_EQ(raw.at("sql"), "select a+b");
  EXPECT_EQ(raw.at("x"), "1 2");
  EXPECT_EQ(raw.at("e"), "");
  EXPECT_EQ(raw.at("flag"), "");
  EXPECT_FALSE(ParseQueryString("no-slash", &path, &raw));
}

TEST(QueryStringTest, JsonBody) {
  RawParams raw{{"a", "1"}};
  EXPECT_FALSE(MergeJsonBody(R"({"sql":"select 1","n":5,"b":true,"a":null})", &raw));
  EXPECT_EQ(raw.at("sql"), "select 1");
  EXPECT_EQ(raw.at("n"), "5");
  EXPECT_EQ(raw.at("b"), "true");
  EXPECT_FALSE(raw.contains("a"));
  EXPECT_EQ(MergeJsonBody("[1]", &raw), "the request body must be a JSON object");
  EXPECT_EQ(MergeJsonBody("{bad", &raw), "the request body must be a JSON object");
}

TEST_F(ValidateTest, NulControlCharactersAndInvalidUtf8AreRefusedByName) {
  using namespace std::string_literals;  // NOLINT(google-build-using-namespace): literals only
  EXPECT_EQ(ErrorOf({{"project", "P\0junk"s}}), "parameter project contains a NUL byte");
  EXPECT_EQ(ErrorOf({{"project", "a\x1b"}}),
            "parameter project contains the control character U+001B");
  EXPECT_EQ(ErrorOf({{"project", "a\x7f"}}),
            "parameter project contains the control character U+007F");
  EXPECT_EQ(ErrorOf({{"project", "\xff"}}), "parameter project is not valid UTF-8");
  EXPECT_EQ(ErrorOf({{"project", "\xe2\x82"}}), "parameter project is not valid UTF-8");
  EXPECT_EQ(ErrorOf({{"project", "\xed\xa0\x80"}}), "parameter project is not valid UTF-8");
  EXPECT_EQ(ErrorOf({{"project", "\xf4\x90\x80\x80"}}), "parameter project is not valid UTF-8");
  EXPECT_EQ(ErrorOf({{"project", "x"}, {"sql", "select\x00"s}}),
            "parameter sql contains a NUL byte");
  EXPECT_EQ(ErrorOf({{"project", "x"}, {"a\x01", "1"}}),
            "a parameter name contains the control character U+0001");
  // Reserved names are checked too, and text keeps its tabs, newlines and any valid UTF-8.
  EXPECT_EQ(ErrorOf({{"project", "x"}, {"api_key", "k\x00"s}}),
            "parameter api_key contains a NUL byte");
  EXPECT_EQ(ErrorOf({{"project", "tab\there\r\nline \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"},
                     {"sql", "select\n\t1"}}),
            "no error");
}

}  // namespace
}  // namespace lqe::gateway
