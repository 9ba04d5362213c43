// The management API's checks of untrusted bodies, without a database.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "management/resources.h"
#include "management/validate.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

std::string Problem(std::string_view type, std::string_view config) {
  auto bad = CheckBackendConfig(type, json::parse(config));
  return bad ? bad->field + " " + bad->message : "";
}

TEST(ManagementValidateTest, DrainConfigsOfEachType) {
  EXPECT_EQ(Problem("webhook", R"({"url":"https://h/x","http":"http1","gzip":false})"), "");
  EXPECT_EQ(Problem("webhook", R"({"url":"file:///etc/passwd"})"),
            "config.url must be an http or https URL, not file");
  EXPECT_EQ(Problem("webhook", R"({"url":"https://h/x","http":"http3"})"),
            "config.http must be one of http1, http2");
  EXPECT_EQ(Problem("webhook", R"({"url":"https://h/x","gzip":"yes"})"),
            "config.gzip must be true or false");
  EXPECT_EQ(Problem("otlp", R"({"endpoint":"http://c:4318/v1/logs","protocol":"http/protobuf"})"),
            "");
  EXPECT_EQ(Problem("otlp", R"({"endpoint":"http://c","protocol":"grpc"})"),
            "config.protocol must be one of http/protobuf, http/json");
  EXPECT_EQ(Problem("loki", R"({"url":"http://loki:3100/loki/api/v1/push","headers":{"a":"b"}})"),
            "");
  EXPECT_EQ(Problem("loki", R"({})"), "config.url is required");
  EXPECT_EQ(Problem("datadog", R"({"api_key":"k","region":"US1"})"), "");
  EXPECT_EQ(Problem("datadog", R"({"api_key":"","region":"US1"})"),
            "config.api_key must not be empty");
  EXPECT_EQ(Problem("datadog", R"({"api_key":"k","region":"MARS"})"),
            "config.region must be one of US1, US3, US5, EU, AP1, US1-FED");
  EXPECT_EQ(Problem("webhook", "[]"), "config must be an object");
}

TEST(ManagementValidateTest, UnsupportedTypesAreRefusedByName) {
  for (const char* type : {"s3", "sentry", "axiom", "last9"}) {
    auto bad = CheckBackendBody(
        json::parse(std::string(R"({"name":"n","config":{},"type":")") + type + "\"}").as_object(),
        true);
    ASSERT_TRUE(bad.has_value()) << type;
    EXPECT_NE(bad->message.find(std::string("backend type ") + type + " is not supported"),
              std::string::npos)
        << bad->message;
  }
}

TEST(ManagementValidateTest, RuleLqlErrorsNameThePosition) {
  auto ok = CheckRuleBody(
      json::parse(R"({"backend_id":1,"source_id":"2","lql_string":"~\".*?\""})").as_object());
  EXPECT_FALSE(ok.has_value()) << ok->message;
  auto bad = CheckRuleBody(
      json::parse(R"({"backend_id":1,"source_id":2,"lql_string":"error m.status:>"})").as_object());
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->field, "lql_string");
  EXPECT_NE(bad->message.find(" at 1:"), std::string::npos) << bad->message;
  EXPECT_TRUE(
      CheckRuleBody(json::parse(R"({"source_id":2,"lql_string":"a"})").as_object()).has_value());
  EXPECT_TRUE(
      CheckRuleBody(json::parse(R"({"backend_id":-1,"source_id":2,"lql_string":"a"})").as_object())
          .has_value());
}

TEST(ManagementValidateTest, BodiesThatAreNotJsonOrTooDeep) {
  json::value v;
  EXPECT_TRUE(ParseBody("", &v).has_value());
  EXPECT_TRUE(ParseBody("{\"a\":", &v).has_value());
  EXPECT_TRUE(ParseBody(std::string(1000, '['), &v).has_value());
  EXPECT_FALSE(ParseBody(R"({"a":[1,{"b":2}]})", &v).has_value());
}

TEST(ManagementValidateTest, ItemsAreIdsOrUuids) {
  EXPECT_EQ(KeyOf("42", "b.")->where, "b.id = $1::bigint");
  EXPECT_EQ(KeyOf("0f8c1e2a-1b2c-4d5e-8f90-a1b2c3d4e5f6", "b.")->where, "b.token = $1::uuid");
  EXPECT_FALSE(KeyOf("x'; drop table", "b.").has_value());
  EXPECT_FALSE(KeyOf("1234567890123456789012", "b.").has_value());
  EXPECT_FALSE(KeyOf("", "b.").has_value());
}

}  // namespace
}  // namespace lqe::gateway::management
