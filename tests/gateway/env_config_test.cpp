// Configuration from the environment (env_config.h): the variables self-hosted Supabase's
// compose stack passes to its analytics service, with and without a YAML file.
#include "lqe/gateway/env_config.h"

#include <gtest/gtest.h>

#include <map>

#include "lqe/gateway/auth.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using testing::TempDir;

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

// The analytics service's environment in the stack's docker-compose.yml, with made-up .env
// values, plus where the stored endpoints and the catalogue seed are in the source tree.
std::map<std::string, std::string> StackEnv() {
  return {{"LOGFLARE_NODE_HOST", "127.0.0.1"},
          {"DB_USERNAME", "supabase_admin"},
          {"DB_DATABASE", "_supabase"},
          {"DB_HOSTNAME", "db"},
          {"DB_PORT", "5432"},
          {"DB_PASSWORD", "secret"},
          {"DB_SCHEMA", "_analytics"},
          {"LOGFLARE_PUBLIC_ACCESS_TOKEN", "pub-token"},
          {"LOGFLARE_PRIVATE_ACCESS_TOKEN", "priv-token"},
          {"LOGFLARE_SINGLE_TENANT", "true"},
          {"LOGFLARE_SUPABASE_MODE", "true"},
          {"POSTGRES_BACKEND_URL", "postgresql://supabase_admin:secret@db:5432/_supabase"},
          {"POSTGRES_BACKEND_SCHEMA", "_analytics"},
          {"LOGFLARE_FEATURE_FLAG_OVERRIDE", "multibackend=true"},
          {"LQE_ENDPOINTS_DIR", lqe::testing::SourcePath("sql")},
          {"LQE_CATALOGUE_FILE", lqe::testing::SourcePath("schema/catalogue_seed.tsv")}};
}

Config Load(const std::string& path, const EnvLookup& env, std::vector<ConfigError>* errors) {
  return LoadConfigCollecting(path, env, errors);
}

const ApiKey* KeyNamed(const Config& c, const std::string& name) {
  for (const ApiKey& k : c.api_keys) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string Joined(const std::vector<ConfigError>& errors) {
  return ConfigErrors{errors}.ToString();
}

TEST(EnvConfigTest, DsnPrecedenceIsLqeThenBackendUrlThenDbParts) {
  auto vars = StackEnv();
  vars["LQE_DATABASE_URL"] = "postgresql://lqe@elsewhere/lqe";
  EXPECT_EQ(DsnFromEnvironment(Env(vars)), "postgresql://lqe@elsewhere/lqe");
  vars.erase("LQE_DATABASE_URL");
  EXPECT_EQ(DsnFromEnvironment(Env(vars)), "postgresql://supabase_admin:secret@db:5432/_supabase");
  // Compose passes a variable missing from .env as an empty string: the same as unset.
  vars["POSTGRES_BACKEND_URL"] = "";
  EXPECT_EQ(DsnFromEnvironment(Env(vars)), "postgresql://supabase_admin:secret@db:5432/_supabase");
  EXPECT_EQ(DsnFromEnvironment(Env({})), "");
}

// A ':' inside the password needs no escape: libpq splits user and password at the first ':'.
TEST(EnvConfigTest, DbPartsArePercentEncoded) {
  EXPECT_EQ(DsnFromEnvironment(Env({{"DB_HOSTNAME", "db"},
                                    {"DB_USERNAME", "a@b"},
                                    {"DB_PASSWORD", "p@ss/w:rd#1"},
                                    {"DB_DATABASE", "_supabase"}})),
            "postgresql://a%40b:p%40ss%2Fw:rd%231@db/_supabase");
  EXPECT_EQ(DsnFromEnvironment(Env({{"DB_HOSTNAME", "10.0.0.5"}, {"DB_PORT", "6543"}})),
            "postgresql://10.0.0.5:6543");
}

TEST(EnvConfigTest, StackEnvironmentAloneIsAConfig) {
  std::vector<ConfigError> errors;
  auto vars = StackEnv();
  vars["LQE_LISTEN"] = "0.0.0.0:4000";
  Config c = Load("", Env(vars), &errors);
  ASSERT_TRUE(errors.empty()) << Joined(errors);
  EXPECT_EQ(c.listen_host, "0.0.0.0");
  EXPECT_EQ(c.listen_port, 4000);
  EXPECT_EQ(c.dsn, "postgresql://supabase_admin:secret@db:5432/_supabase");
  EXPECT_EQ(c.catalogue_file, lqe::testing::SourcePath("schema/catalogue_seed.tsv"));
  std::vector<std::string> names;
  for (const auto& e : c.endpoints) names.push_back(e->name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"functions.combined-stats", "functions.req-stats",
                                      "functions.resource-usage", "logs.all.otel", "logs.all",
                                      "usage.api-counts", "usage.api-requests-count"}));
  // Tokens are kept as their SHA-256, like a YAML key's sha256.
  const ApiKey* pub = KeyNamed(c, kPublicTokenKeyName);
  const ApiKey* priv = KeyNamed(c, kPrivateTokenKeyName);
  ASSERT_NE(pub, nullptr);
  ASSERT_NE(priv, nullptr);
  EXPECT_EQ(pub->sha256, Sha256("pub-token"));
  EXPECT_EQ(priv->sha256, Sha256("priv-token"));
  EXPECT_TRUE(pub->all_endpoints && pub->all_sources);
  EXPECT_TRUE(priv->all_endpoints && priv->all_sources);
  EXPECT_EQ(FindApiKey(c.api_keys, "pub-token"), pub);
  EXPECT_EQ(FindApiKey(c.api_keys, "priv-token"), priv);
  EXPECT_EQ(FindApiKey(c.api_keys, "other"), nullptr);
}

TEST(EnvConfigTest, DeprecatedApiKeyNameIsThePublicToken) {
  std::vector<ConfigError> errors;
  auto vars = StackEnv();
  vars.erase("LOGFLARE_PUBLIC_ACCESS_TOKEN");
  vars["LOGFLARE_API_KEY"] = "old-name";
  Config c = Load("", Env(vars), &errors);
  ASSERT_TRUE(errors.empty()) << Joined(errors);
  ASSERT_NE(KeyNamed(c, kPublicTokenKeyName), nullptr);
  EXPECT_EQ(KeyNamed(c, kPublicTokenKeyName)->sha256, Sha256("old-name"));
}

TEST(EnvConfigTest, EmptyTokensAddNoKeys) {
  std::vector<ConfigError> errors;
  auto vars = StackEnv();
  vars["LOGFLARE_PUBLIC_ACCESS_TOKEN"] = "";
  vars.erase("LOGFLARE_PRIVATE_ACCESS_TOKEN");
  Config c = Load("", Env(vars), &errors);
  ASSERT_TRUE(errors.empty()) << Joined(errors);
  EXPECT_TRUE(c.api_keys.empty());
}

TEST(EnvConfigTest, WithoutFileOrDatabaseEachProblemIsNamed) {
  std::vector<ConfigError> errors;
  Load("", Env({{"LQE_LISTEN", "nohostport"}, {"LQE_LOG_LEVEL", "loud"}}), &errors);
  const std::string all = Joined(errors);
  EXPECT_NE(all.find("environment:0: LQE_LISTEN: listen must be host:port"), std::string::npos)
      << all;
  EXPECT_NE(all.find("LQE_LOG_LEVEL must be one of"), std::string::npos) << all;
  EXPECT_NE(all.find("no database: give --config, or set LQE_DATABASE_URL"), std::string::npos)
      << all;
  // The test binary has no share/lqe beside it: no stored endpoints to fall back on.
  EXPECT_NE(all.find("no endpoints: no config file, LQE_ENDPOINTS_DIR unset"), std::string::npos)
      << all;
  errors.clear();
  Load("", Env({{"LQE_LISTEN", "127.0.0.1:70000"}, {"DB_HOSTNAME", "db"}}), &errors);
  EXPECT_NE(Joined(errors).find("port between 0 and 65535"), std::string::npos);
  errors.clear();
  Load("", Env({{"DB_HOSTNAME", "db"}, {"LQE_ENDPOINTS_DIR", "/nonexistent/sql"}}), &errors);
  EXPECT_EQ(Joined(errors),
            "environment:0: LQE_ENDPOINTS_DIR: /nonexistent/sql is not a directory");
}

TEST(EnvConfigTest, VariablesOverrideAndAugmentTheFile) {
  TempDir dir;
  const std::string path = dir.Write(
      "gw.yaml",
      "listen: 127.0.0.1:5000\nlog_level: warn\ndatabase:\n  dsn: host=file\n"
      "  pool_size: 3\napi_keys:\n  - name: logflare-public\n    sha256: " +
          testing::Sha256Hex("file-token") +
          "\n    endpoints: [mine]\n  - name: ops\n    sha256: " + testing::Sha256Hex("ops-token") +
          "\n    endpoints: ['*']\nendpoints:\n  - name: mine\n    query: select 1\n"
          "  - name: logs.all\n    query: select 2\n");
  std::vector<ConfigError> errors;
  auto vars = StackEnv();
  vars["LQE_LISTEN"] = "[::1]:4100";
  vars["LQE_LOG_LEVEL"] = "debug";
  Config c = Load(path, Env(vars), &errors);
  ASSERT_TRUE(errors.empty()) << Joined(errors);
  EXPECT_EQ(c.listen_host, "::1");
  EXPECT_EQ(c.listen_port, 4100);
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.dsn, "postgresql://supabase_admin:secret@db:5432/_supabase");
  EXPECT_EQ(c.pool_size, 3);  // what the environment does not say stays as the file says
  // The token replaces the file's key of the same name; the file's other keys stay.
  ASSERT_NE(KeyNamed(c, kPublicTokenKeyName), nullptr);
  EXPECT_EQ(FindApiKey(c.api_keys, "file-token"), nullptr);
  EXPECT_EQ(FindApiKey(c.api_keys, "pub-token"), KeyNamed(c, kPublicTokenKeyName));
  EXPECT_EQ(FindApiKey(c.api_keys, "ops-token"), KeyNamed(c, "ops"));
  // LQE_ENDPOINTS_DIR adds its seven endpoints; the file's endpoint of the same name is kept.
  ASSERT_EQ(c.endpoints.size(), 8u);
  std::vector<std::string> names;
  for (const auto& e : c.endpoints) names.push_back(e->name);
  EXPECT_EQ(names, (std::vector<std::string>{"mine", "logs.all", "functions.combined-stats",
                                             "functions.req-stats", "functions.resource-usage",
                                             "logs.all.otel", "usage.api-counts",
                                             "usage.api-requests-count"}));
  for (const auto& e : c.endpoints) {
    if (e->name == "logs.all") {
      EXPECT_EQ(e->query, "select 2");
    }
  }
}

TEST(EnvConfigTest, FileMayLeaveOutWhatTheEnvironmentSupplies) {
  TempDir dir;
  const std::string path = dir.Write("gw.yaml", "database:\n  pool_size: 2\nlog_level: warn\n");
  std::vector<ConfigError> errors;
  Config c = Load(path, Env(StackEnv()), &errors);
  ASSERT_TRUE(errors.empty()) << Joined(errors);
  EXPECT_EQ(c.pool_size, 2);
  EXPECT_EQ(c.endpoints.size(), 7u);  // every stored endpoint under sql/
  // Without the environment the same file is refused, as before.
  errors.clear();
  Load(path, Env({}), &errors);
  EXPECT_NE(Joined(errors).find("database.dsn is required"), std::string::npos) << Joined(errors);
}

TEST(EnvConfigTest, FlagsAcceptTheUsualSpellings) {
  for (const char* yes : {"1", "true", "TRUE", "yes", "on"}) {
    EXPECT_TRUE(EnvFlag(Env({{"LQE_MIGRATE", yes}}), "LQE_MIGRATE")) << yes;
  }
  for (const char* no : {"", "0", "false", "no", "off", "2"}) {
    EXPECT_FALSE(EnvFlag(Env({{"LQE_MIGRATE", no}}), "LQE_MIGRATE")) << no;
  }
  EXPECT_FALSE(EnvFlag(Env({}), "LQE_MIGRATE"));
}

}  // namespace
}  // namespace lqe::gateway
