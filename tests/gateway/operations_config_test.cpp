// The operator's config keys (listen.tls, admin, log, retention), what a reload reports as
// changed, and the request id rule.
#include <gtest/gtest.h>

#include "lqe/gateway/config.h"
#include "lqe/gateway/config_diff.h"
#include "lqe/gateway/log_format.h"
#include "support.h"

namespace lqe::gateway {
namespace {

using testing::TempDir;

const std::string kBase =
    "database:\n  dsn: host=127.0.0.1\nendpoints:\n  - name: a\n    query: select 1\n";

Config Load(const TempDir& dir, const std::string& text) {
  ConfigResult result = LoadConfig(dir.Write("gw.yaml", text));
  EXPECT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  return std::holds_alternative<Config>(result) ? std::get<Config>(result) : Config{};
}

std::string Errors(const TempDir& dir, const std::string& text) {
  ConfigResult result = LoadConfig(dir.Write("gw.yaml", text));
  return std::holds_alternative<ConfigErrors>(result) ? std::get<ConfigErrors>(result).ToString()
                                                      : "";
}

TEST(OperationsConfigTest, ReadsEveryOperatorKey) {
  TempDir dir;
  dir.Write("tls/c.pem", "x");
  dir.Write("tls/k.pem", "x");
  Config c = Load(dir, kBase +
                           "listen:\n  address: 0.0.0.0:4443\n  tls:\n    cert_file: tls/c.pem\n"
                           "    key_file: tls/k.pem\n"
                           "admin:\n  listen: 127.0.0.1:9100\n  metrics_key_sha256: " +
                           std::string(64, 'a') +
                           "\nlog:\n  format: json\nretention:\n  dsn: host=db user=owner\n"
                           "  days: 30\n  sources: {edge: 3, auth: 90}\n  max_disk_bytes: 1000\n"
                           "  interval_seconds: 60\n  ahead_days: 2\n");
  EXPECT_EQ(c.listen_host, "0.0.0.0");
  EXPECT_EQ(c.listen_port, 4443);
  EXPECT_TRUE(c.tls.enabled());
  EXPECT_EQ(c.tls.cert_file, (dir.path() / "tls/c.pem").string());
  EXPECT_EQ(c.admin.listen_host, "127.0.0.1");
  EXPECT_EQ(c.admin.listen_port, 9100);
  ASSERT_TRUE(c.admin.metrics_key_sha256.has_value());
  EXPECT_EQ((*c.admin.metrics_key_sha256)[0], 0xaa);
  EXPECT_TRUE(c.log_json);
  EXPECT_TRUE(c.retention.enabled());
  EXPECT_EQ(c.retention.DaysFor("edge"), 3);
  EXPECT_EQ(c.retention.DaysFor("auth"), 90);
  EXPECT_EQ(c.retention.DaysFor("postgres"), 30);
  EXPECT_EQ(c.retention.max_disk_bytes, 1000u);
  EXPECT_EQ(c.retention.interval_seconds, 60);
  EXPECT_EQ(c.retention.ahead_days, 2);
}

TEST(OperationsConfigTest, DefaultsAreOneListenerTextLogsAndNoRetentionSchedule) {
  TempDir dir;
  Config c = Load(dir, kBase + "listen: 127.0.0.1:4000\n");
  EXPECT_FALSE(c.tls.enabled());
  EXPECT_FALSE(c.admin.separate());
  EXPECT_FALSE(c.admin.metrics_key_sha256.has_value());
  EXPECT_FALSE(c.log_json);
  EXPECT_FALSE(c.retention.enabled());
  EXPECT_EQ(c.retention.DaysFor("edge"), 7);
  EXPECT_EQ(c.retention.max_disk_bytes, 0u);
  EXPECT_EQ(c.retention.interval_seconds, 3600);
}

TEST(OperationsConfigTest, MistakesAreReportedWithTheirLine) {
  TempDir dir;
  EXPECT_NE(Errors(dir, kBase + "log:\n  format: xml\n").find("log.format must be text or json"),
            std::string::npos);
  EXPECT_NE(Errors(dir, kBase + "listen:\n  address: 1.2.3.4:1\n  tls:\n    cert_file: nope.pem\n"
                                "    key_file: nope.pem\n")
                .find("cannot read"),
            std::string::npos);
  EXPECT_NE(Errors(dir, kBase + "listen:\n  address: 1.2.3.4:1\n  tls: {cert_file: a}\n")
                .find("listen.tls needs cert_file and key_file"),
            std::string::npos);
  EXPECT_NE(Errors(dir, kBase + "admin:\n  metrics_key_sha256: abc\n").find("64 hex digits"),
            std::string::npos);
  EXPECT_NE(Errors(dir, kBase + "admin:\n  listen: nowhere\n").find("admin.listen must be"),
            std::string::npos);
  EXPECT_NE(Errors(dir, kBase + "retention:\n  days: -1\n").find("days"), std::string::npos);
  EXPECT_NE(
      Errors(dir, kBase + "retention:\n  sources: {'Edge;drop': 1}\n").find("not a log table name"),
      std::string::npos);
  EXPECT_NE(Errors(dir, kBase + "retention:\n  dayz: 3\n").find("dayz"), std::string::npos);
}

TEST(OperationsConfigTest, ReloadChangesNameEndpointsAndKeysButNeverKeyMaterial) {
  TempDir dir;
  const std::string hash_one(64, '1');
  const std::string hash_two(64, '2');
  Config was = Load(dir, kBase +
                             "  - name: b\n    query: select 2\n  - name: c\n"
                             "    query: select 3\napi_keys:\n  - {name: k1, sha256: " +
                             hash_one + ", endpoints: ['*']}\n  - {name: k2, sha256: " + hash_one +
                             ", endpoints: ['a']}\n");
  Config now = Load(dir, kBase +
                             "  - name: b\n    query: select 22\n  - name: d\n"
                             "    query: select 4\napi_keys:\n  - {name: k1, sha256: " +
                             hash_two + ", endpoints: ['*']}\n  - {name: k3, sha256: " + hash_one +
                             ", endpoints: ['a']}\n");
  // Versions are digests computed at load; a changed query changes it.
  std::vector<std::string> changes = DescribeConfigChanges(was, now);
  EXPECT_EQ(changes, (std::vector<std::string>{"api key k1 changed", "api key k2 removed",
                                               "api key k3 added", "endpoint b changed",
                                               "endpoint c removed", "endpoint d added"}));
  for (const auto& line : changes) {
    EXPECT_EQ(line.find(hash_one.substr(0, 8)), std::string::npos);
    EXPECT_EQ(line.find(hash_two.substr(0, 8)), std::string::npos);
  }
  EXPECT_TRUE(DescribeConfigChanges(was, was).empty());
}

TEST(OperationsConfigTest, RequestIdsAreTheClientsWhenSafeOtherwiseFresh) {
  std::string ok = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  EXPECT_EQ(RequestIdFor(&ok), ok);
  std::string b64 = "YWJj+/=";
  EXPECT_EQ(RequestIdFor(&b64), b64);
  for (const std::string& bad : {std::string(""), std::string(129, 'x'), std::string("a b"),
                                 std::string("a\"b"), std::string("a\\b"), std::string("é")}) {
    std::string id = RequestIdFor(&bad);
    EXPECT_EQ(id.size(), 32u);
    EXPECT_NE(id, bad);
  }
  std::string at_limit(128, 'x');
  EXPECT_EQ(RequestIdFor(&at_limit), at_limit);
  EXPECT_NE(RequestIdFor(nullptr), RequestIdFor(nullptr));
}

}  // namespace
}  // namespace lqe::gateway
