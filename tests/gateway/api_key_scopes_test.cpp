// API key scopes: `scopes: [query, ingest, private]` in the config, keys without `scopes` keeping
// their meaning, and Logflare's two tokens from the environment.
#include <gtest/gtest.h>

#include "lqe/gateway/auth.h"
#include "lqe/gateway/config.h"
#include "lqe/gateway/env_config.h"
#include "support.h"

namespace lqe::gateway {
namespace {

using testing::TempDir;

const char* const kHash = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

ConfigResult LoadKeys(const TempDir& dir, const std::string& keys) {
  return LoadConfig(
      dir.Write("gw.yaml",
                "database:\n  dsn: host=127.0.0.1\nendpoints:\n  - name: a\n    query: select 1\n"
                "api_keys:\n" +
                    keys));
}

std::string Key(const std::string& name, const std::string& rest) {
  return "  - {name: " + name + ", sha256: " + kHash + rest + "}\n";
}

TEST(ApiKeyScopesTest, ScopesGrantQueryIngestAndPrivate) {
  TempDir dir;
  auto result = LoadKeys(dir, Key("all", ", scopes: [query, ingest, private]") +
                                  Key("ops", ", scopes: [private]") +
                                  Key("some",
                                      ", scopes: [query, ingest], endpoints: [a], "
                                      "ingest: [postgres.logs]"));
  ASSERT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  const Config& c = std::get<Config>(result);
  ASSERT_EQ(c.api_keys.size(), 3U);
  EXPECT_TRUE(c.api_keys[0].all_endpoints && c.api_keys[0].all_sources);
  EXPECT_TRUE(c.api_keys[0].private_api);
  EXPECT_TRUE(c.api_keys[1].private_api);
  EXPECT_FALSE(c.api_keys[1].all_endpoints || c.api_keys[1].all_sources);
  EXPECT_TRUE(c.api_keys[1].endpoints.empty() && c.api_keys[1].ingest.empty());
  EXPECT_FALSE(c.api_keys[2].private_api);
  EXPECT_FALSE(c.api_keys[2].all_endpoints);
  EXPECT_EQ(c.api_keys[2].endpoints, std::vector<std::string>{"a"});
  EXPECT_EQ(c.api_keys[2].ingest, std::vector<std::string>{"postgres.logs"});
}

TEST(ApiKeyScopesTest, KeysWithoutScopesKeepTheirMeaning) {
  TempDir dir;
  auto result = LoadKeys(dir, Key("q", ", endpoints: ['*'], ingest: ['*']"));
  ASSERT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  const ApiKey& key = std::get<Config>(result).api_keys.at(0);
  EXPECT_TRUE(key.all_endpoints && key.all_sources);
  EXPECT_FALSE(key.private_api);
  // Without scopes an endpoints list is still required.
  EXPECT_TRUE(std::holds_alternative<ConfigErrors>(LoadKeys(dir, Key("bare", ""))));
}

TEST(ApiKeyScopesTest, ScopeMistakesAreRefused) {
  TempDir dir;
  for (const std::string& rest :
       {std::string(", scopes: [admin]"), std::string(", scopes: private"),
        std::string(", scopes: [private], endpoints: [a]"),
        std::string(", scopes: [query], ingest: ['*']")}) {
    auto result = LoadKeys(dir, Key("k", rest));
    ASSERT_TRUE(std::holds_alternative<ConfigErrors>(result)) << rest;
    EXPECT_NE(std::get<ConfigErrors>(result).ToString().find("api key k"), std::string::npos)
        << std::get<ConfigErrors>(result).ToString();
  }
}

TEST(ApiKeyScopesTest, OnlyThePrivateTokenReachesTheManagementApi) {
  std::map<std::string, std::string> vars = {{"LOGFLARE_PUBLIC_ACCESS_TOKEN", "pub"},
                                             {"LOGFLARE_PRIVATE_ACCESS_TOKEN", "priv"},
                                             {"LQE_DATABASE_URL", "host=127.0.0.1"}};
  EnvLookup env = [&](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  Config c;
  std::vector<ConfigError> errors;
  ApplyEnvironment(env, false, c, &errors);
  ASSERT_TRUE(errors.empty());
  const ApiKey* pub = FindApiKey(c.api_keys, "pub");
  const ApiKey* priv = FindApiKey(c.api_keys, "priv");
  ASSERT_NE(pub, nullptr);
  ASSERT_NE(priv, nullptr);
  EXPECT_FALSE(pub->private_api);
  EXPECT_TRUE(pub->all_endpoints && pub->all_sources);
  EXPECT_TRUE(priv->private_api);
  EXPECT_TRUE(priv->all_endpoints && priv->all_sources);
}

}  // namespace
}  // namespace lqe::gateway
