#include "lqe/gateway/env_config.h"

#include <algorithm>
#include <boost/url/url.hpp>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "config/yaml_util.h"
#include "lqe/base/ascii.h"
#include "lqe/gateway/auth.h"

namespace lqe::gateway {
namespace {

// Unset and empty are the same: compose passes `${VAR}` of a variable missing from .env as "".
std::string Get(const EnvLookup& env, const std::string& name) {
  return env(name).value_or("");
}

void Add(std::vector<ConfigError>* errors, const std::string& message) {
  errors->push_back(ConfigError{kEnvironmentSource, 0, message});
}

// Logflare's public token ingests and queries; its private token may do everything a key can,
// the management API included.
void AddTokenKey(const std::string& name, const std::string& token, bool private_api, Config& c) {
  // A file's key of the same name is replaced: the environment wins.
  std::erase_if(c.api_keys, [&](const ApiKey& k) { return k.name == name; });
  ApiKey key;
  key.name = name;
  key.sha256 = Sha256(token);
  key.all_endpoints = true;
  key.all_sources = true;
  key.private_api = private_api;
  c.api_keys.push_back(std::move(key));
}

void LoadEndpointsDir(const std::string& variable, const std::string& dir, Config& c,
                      std::vector<ConfigError>* errors) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    Add(errors, variable + ": " + dir + " is not a directory");
    return;
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::set<std::string> names;
  for (const auto& e : c.endpoints) names.insert(e->name);
  for (const std::string& path : files) {
    auto loaded = LoadEndpointFile(path);
    if (auto* problems = std::get_if<ConfigErrors>(&loaded)) {
      errors->insert(errors->end(), problems->list.begin(), problems->list.end());
      continue;
    }
    auto endpoint = std::get<std::shared_ptr<EndpointDef>>(loaded);
    // A file's endpoint of the same name stays: the directory adds, it does not replace.
    if (names.insert(endpoint->name).second) c.endpoints.push_back(std::move(endpoint));
  }
}

}  // namespace

EnvLookup ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe): read only
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

bool EnvFlag(const EnvLookup& env, const std::string& name) {
  std::string value = Get(env, name);
  std::transform(value.begin(), value.end(), value.begin(),
                 [](char ch) { return ascii::ToLower(ch); });
  return value == "1" || value == "true" || value == "yes" || value == "on";
}

std::string DsnFromEnvironment(const EnvLookup& env) {
  if (std::string dsn = Get(env, "LQE_DATABASE_URL"); !dsn.empty()) return dsn;
  if (std::string dsn = Get(env, "POSTGRES_BACKEND_URL"); !dsn.empty()) return dsn;
  const std::string host = Get(env, "DB_HOSTNAME");
  if (host.empty()) return "";
  boost::urls::url url;
  url.set_scheme("postgresql");
  if (std::string user = Get(env, "DB_USERNAME"); !user.empty()) url.set_user(user);
  if (std::string password = Get(env, "DB_PASSWORD"); !password.empty()) {
    url.set_password(password);
  }
  url.set_host(host);
  if (std::string port = Get(env, "DB_PORT"); !port.empty()) url.set_port(port);
  if (std::string database = Get(env, "DB_DATABASE"); !database.empty()) {
    url.set_path("/" + database);
  }
  return std::string(url.buffer());
}

EnvSupplies WhatEnvironmentSupplies(const EnvLookup& env) {
  return EnvSupplies{!DsnFromEnvironment(env).empty(), !Get(env, "LQE_ENDPOINTS_DIR").empty()};
}

std::string InstalledDataDir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  return (exe.parent_path().parent_path() / "share" / "lqe").string();
}

void ApplyEnvironment(const EnvLookup& env, bool without_file, Config& c,
                      std::vector<ConfigError>* errors) {
  if (std::string listen = Get(env, "LQE_LISTEN"); !listen.empty()) {
    std::string error;
    if (!config::SplitListen(listen, &c.listen_host, &c.listen_port, &error)) {
      Add(errors, "LQE_LISTEN: " + error);
    }
  }
  if (std::string dsn = DsnFromEnvironment(env); !dsn.empty()) c.dsn = dsn;
  if (std::string level = Get(env, "LQE_LOG_LEVEL"); !level.empty()) {
    static const std::set<std::string> levels = {"trace", "debug", "info", "warn", "error", "off"};
    if (levels.contains(level)) {
      c.log_level = level;
    } else {
      Add(errors, "LQE_LOG_LEVEL must be one of trace, debug, info, warn, error, off");
    }
  }
  // LOGFLARE_API_KEY is the stack's older name of the public token.
  std::string public_token = Get(env, "LOGFLARE_PUBLIC_ACCESS_TOKEN");
  if (public_token.empty()) public_token = Get(env, "LOGFLARE_API_KEY");
  if (!public_token.empty()) AddTokenKey(kPublicTokenKeyName, public_token, false, c);
  if (std::string token = Get(env, "LOGFLARE_PRIVATE_ACCESS_TOKEN"); !token.empty()) {
    AddTokenKey(kPrivateTokenKeyName, token, true, c);
  }

  const std::string data_dir = without_file ? InstalledDataDir() : "";
  std::string catalogue = Get(env, "LQE_CATALOGUE_FILE");
  if (catalogue.empty() && !data_dir.empty() && c.catalogue_file.empty()) {
    std::error_code ec;
    const auto seed = std::filesystem::path(data_dir) / "catalogue_seed.tsv";
    if (std::filesystem::is_regular_file(seed, ec)) catalogue = seed.string();
  }
  if (!catalogue.empty()) c.catalogue_file = std::filesystem::absolute(catalogue).string();

  if (std::string dir = Get(env, "LQE_ENDPOINTS_DIR"); !dir.empty()) {
    LoadEndpointsDir("LQE_ENDPOINTS_DIR", dir, c, errors);
  } else if (without_file) {
    const std::string installed = data_dir.empty() ? "" : data_dir + "/sql";
    std::error_code ec;
    if (installed.empty() || !std::filesystem::is_directory(installed, ec)) {
      Add(errors,
          "no endpoints: no config file, LQE_ENDPOINTS_DIR unset and no stored endpoints "
          "installed in " +
              installed);
    } else {
      LoadEndpointsDir("the installed endpoints", installed, c, errors);
    }
  }
  if (without_file && c.dsn.empty()) {
    Add(errors,
        "no database: give --config, or set LQE_DATABASE_URL, POSTGRES_BACKEND_URL or DB_HOSTNAME "
        "(with DB_PORT, DB_USERNAME, DB_PASSWORD, DB_DATABASE)");
  }
}

}  // namespace lqe::gateway
