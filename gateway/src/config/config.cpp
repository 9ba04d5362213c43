#include "lqe/gateway/config.h"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include "config/yaml_util.h"
#include "lqe/gateway/auth.h"
#include "lqe/gateway/env_config.h"

namespace lqe::gateway {
namespace config {
std::shared_ptr<EndpointDef> ParseEndpoint(Problems& problems, const std::string& file,
                                           const YAML::Node& node);
void ParseIngest(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
void ParseSources(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
void ParseTail(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
void CheckIngestKeys(Problems& problems, const std::string& file, int line, const Config& c);
void ParseRollups(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
void ParseListenAddress(const std::string& file, const YAML::Node& node, std::string_view what,
                        std::string* host, std::uint16_t* port);
void ParseListenTls(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
void ParseAdmin(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
void ParseLog(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
void ParseRetention(Problems& problems, const std::string& file, const YAML::Node& node, Config& c);
}  // namespace config

using config::CheckKeys;
using config::Fail;
using config::GetBool;
using config::GetInt;
using config::GetString;
using config::LineOf;
using config::Problems;

namespace {

// `listen: host:port`, or a mapping {address: host:port, tls: {cert_file, key_file}}.
void ParseListen(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  if (node.IsMap()) {
    CheckKeys(problems, file, node, "listen", {"address", "tls"});
    if (!node["address"]) Fail(file, node, "listen.address (host:port) is required");
    config::ParseListenAddress(file, node["address"], "listen.address", &c.listen_host,
                               &c.listen_port);
    if (node["tls"]) config::ParseListenTls(problems, file, node["tls"], c);
    return;
  }
  config::ParseListenAddress(file, node, "listen", &c.listen_host, &c.listen_port);
}

void ParseDatabase(Problems& problems, const std::string& file, const YAML::Node& node,
                   const EnvSupplies& env, Config& c) {
  CheckKeys(problems, file, node, "database",
            {"dsn", "pool_size", "statement_timeout_ms", "warming_timeout_ms", "connect_timeout_ms",
             "max_queries_per_key", "replicas", "max_replica_lag_ms", "replica_check_interval_ms"});
  if (!node["dsn"] && !env.database) Fail(file, node, "database.dsn is required");
  if (node["dsn"]) c.dsn = GetString(file, node["dsn"], "database.dsn");
  if (node["pool_size"]) {
    c.pool_size = static_cast<int>(GetInt(file, node["pool_size"], "pool_size", 1, 1000));
  }
  if (node["statement_timeout_ms"]) {
    c.statement_timeout_ms = static_cast<int>(
        GetInt(file, node["statement_timeout_ms"], "statement_timeout_ms", 1, 3600000));
  }
  if (node["warming_timeout_ms"]) {
    c.warming_timeout_ms = static_cast<int>(
        GetInt(file, node["warming_timeout_ms"], "warming_timeout_ms", 1, 3600000));
  }
  if (node["connect_timeout_ms"]) {
    c.connect_timeout_ms = static_cast<int>(
        GetInt(file, node["connect_timeout_ms"], "connect_timeout_ms", 100, 600000));
  }
  if (node["max_queries_per_key"]) {
    c.max_queries_per_key = static_cast<int>(
        GetInt(file, node["max_queries_per_key"], "max_queries_per_key", 0, 100000));
  }
  if (node["replicas"]) {
    if (!node["replicas"].IsSequence()) {
      Fail(file, node["replicas"], "replicas must be a list of DSNs");
    }
    for (const auto& replica : node["replicas"]) {
      c.replicas.push_back(GetString(file, replica, "replicas"));
    }
  }
  if (node["max_replica_lag_ms"]) {
    c.max_replica_lag_ms = static_cast<int>(
        GetInt(file, node["max_replica_lag_ms"], "max_replica_lag_ms", 0, 86400000));
  }
  if (node["replica_check_interval_ms"]) {
    c.replica_check_interval_ms = static_cast<int>(
        GetInt(file, node["replica_check_interval_ms"], "replica_check_interval_ms", 50, 3600000));
  }
}

void ParseShards(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  CheckKeys(problems, file, node, "shards", {"nodes", "hot_days", "by", "fetch_size"});
  if (node["fetch_size"]) {
    c.shards.fetch_size =
        static_cast<int>(GetInt(file, node["fetch_size"], "fetch_size", 1, 1000000));
  }
  if (node["hot_days"]) {
    c.shards.hot_days = static_cast<int>(GetInt(file, node["hot_days"], "hot_days", 0, 100000));
  }
  if (node["by"]) {
    const std::string by = GetString(file, node["by"], "by");
    if (by != "day" && by != "project") {
      Fail(file, node["by"], "shards.by must be day or project, not " + by);
    }
    c.shards.by_project = by == "project";
  }
  if (!node["nodes"] || !node["nodes"].IsSequence() || node["nodes"].size() == 0) {
    Fail(file, node, "shards.nodes must list at least one {name, dsn}");
  }
  std::set<std::string> names;
  for (const auto& entry : node["nodes"]) {
    CheckKeys(problems, file, entry, "shard node", {"name", "dsn"});
    if (!entry["name"] || !entry["dsn"]) Fail(file, entry, "a shard node needs name and dsn");
    ShardNode shard{GetString(file, entry["name"], "name"), GetString(file, entry["dsn"], "dsn")};
    static const RE2 identifier_pattern("[a-z_][a-z0-9_]{0,62}");
    if (!RE2::FullMatch(shard.name, identifier_pattern)) {
      Fail(file, entry["name"], "a shard name must be a lower-case identifier: " + shard.name);
    }
    if (!names.insert(shard.name).second) {
      Fail(file, entry["name"], "duplicate shard name " + shard.name);
    }
    c.shards.nodes.push_back(std::move(shard));
  }
}

void ParseHttp(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  CheckKeys(problems, file, node, "http",
            {"max_header_bytes", "max_url_bytes", "max_body_bytes", "read_timeout_ms",
             "write_timeout_ms", "shutdown_grace_ms", "max_connections"});
  auto size = [&](const char* key, std::size_t* out) {
    if (node[key]) *out = static_cast<std::size_t>(GetInt(file, node[key], key, 1024, 1 << 30));
  };
  auto ms = [&](const char* key, int* out) {
    if (node[key]) *out = static_cast<int>(GetInt(file, node[key], key, 1, 3600000));
  };
  size("max_header_bytes", &c.max_header_bytes);
  size("max_url_bytes", &c.max_url_bytes);
  size("max_body_bytes", &c.max_body_bytes);
  ms("read_timeout_ms", &c.read_timeout_ms);
  ms("write_timeout_ms", &c.write_timeout_ms);
  ms("shutdown_grace_ms", &c.shutdown_grace_ms);
  if (node["max_connections"]) {
    c.max_connections =
        static_cast<int>(GetInt(file, node["max_connections"], "max_connections", 1, 1000000));
  }
}

ApiKey ParseApiKey(Problems& problems, const std::string& file, const YAML::Node& node) {
  CheckKeys(problems, file, node, "api key",
            {"name", "sha256", "sha256_file", "endpoints", "ingest", "scopes"});
  ApiKey key;
  if (!node["name"]) Fail(file, node, "api key has no name");
  key.name = GetString(file, node["name"], "name");
  std::string hex;
  if (node["sha256"] && node["sha256_file"]) {
    Fail(file, node, "api key " + key.name + ": give sha256 or sha256_file, not both");
  } else if (node["sha256"]) {
    hex = GetString(file, node["sha256"], "sha256");
  } else if (node["sha256_file"]) {
    std::string path =
        config::ResolvePath(file, GetString(file, node["sha256_file"], "sha256_file"));
    bool ok = false;
    hex = config::ReadFile(path, &ok);
    if (!ok) Fail(file, node["sha256_file"], "cannot read sha256_file " + path);
    hex = hex.substr(0, hex.find_first_of(" \t\r\n"));
  } else {
    Fail(file, node, "api key " + key.name + " needs sha256 or sha256_file");
  }
  if (!ParseSha256Hex(hex, &key.sha256)) {
    Fail(file, node, "api key " + key.name + ": sha256 must be 64 hex digits");
  }
  // `scopes:` names what the key may do; without it a key queries its `endpoints` (required)
  // and ingests into its `ingest` sources, as before scopes existed.
  std::set<std::string> scopes;
  const bool scoped = static_cast<bool>(node["scopes"]);
  if (scoped) {
    if (!node["scopes"].IsSequence()) {
      Fail(file, node["scopes"], "api key " + key.name + ": scopes must be a list");
    }
    for (const auto& s : node["scopes"]) {
      std::string scope = GetString(file, s, "scopes");
      if (scope != "query" && scope != "ingest" && scope != "private") {
        Fail(file, s,
             "api key " + key.name + ": unknown scope " + scope + " (query, ingest or private)");
      }
      scopes.insert(scope);
    }
    key.private_api = scopes.contains("private");
  }
  const YAML::Node& endpoints = node["endpoints"];
  if (scoped && !scopes.contains("query") && endpoints) {
    Fail(file, endpoints, "api key " + key.name + ": endpoints given without the query scope");
  }
  if (scoped && scopes.contains("query") && !endpoints) key.all_endpoints = true;
  if (!scoped && (!endpoints || !endpoints.IsSequence())) {
    Fail(file, node, "api key " + key.name + " needs an endpoints list (names, ids or \"*\")");
  }
  if (endpoints && !endpoints.IsSequence()) {
    Fail(file, endpoints,
         "api key " + key.name + ": endpoints must be a list (names, ids or \"*\")");
  }
  for (const auto& e : endpoints) {
    std::string name = GetString(file, e, "endpoints");
    if (name == "*") {
      key.all_endpoints = true;
    } else {
      key.endpoints.push_back(name);
    }
  }
  const YAML::Node& ingest = node["ingest"];
  if (scoped && !scopes.contains("ingest") && ingest) {
    Fail(file, ingest, "api key " + key.name + ": ingest given without the ingest scope");
  }
  if (scoped && scopes.contains("ingest") && !ingest) key.all_sources = true;
  if (ingest) {
    if (!ingest.IsSequence()) {
      Fail(file, ingest,
           "api key " + key.name + ": ingest must be a list of source names or \"*\"");
    }
    for (const auto& s : ingest) {
      std::string name = GetString(file, s, "ingest");
      if (name == "*") {
        key.all_sources = true;
      } else {
        key.ingest.push_back(name);
      }
    }
  }
  return key;
}

// Each file is read on its own: a broken one is reported and the others still load.
void LoadEndpointsDir(Problems& problems, const std::string& file, const YAML::Node& node,
                      Config& c) {
  std::string dir = config::ResolvePath(file, GetString(file, node, "endpoints_dir"));
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    Fail(file, node, "endpoints_dir " + dir + " is not a directory");
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    problems.Collect(path, [&] {
      c.endpoints.push_back(config::ParseEndpoint(problems, path, YAML::LoadFile(path)));
    });
  }
}

void CheckUnique(Problems& problems, const Config& c) {
  std::set<std::string> names, ids;
  for (const auto& e : c.endpoints) {
    if (!names.insert(e->name).second) {
      problems.Add(ConfigError{e->file, e->line, "duplicate endpoint name " + e->name});
    } else if (!ids.insert(e->id).second) {
      problems.Add(ConfigError{e->file, e->line, "duplicate endpoint id " + e->id});
    }
  }
}

// Every top-level key is read on its own, every API key and endpoint too: one broken part is
// reported and the rest still read.
void ParseRoot(Problems& problems, const std::string& file, const YAML::Node& root,
               const EnvSupplies& env, Config& c) {
  CheckKeys(problems, file, root, "the config",
            {"listen",   "io_threads",      "worker_threads", "database",  "catalogue_file",
             "tail",     "cache_max_bytes", "http",           "log_level", "access_log",
             "api_keys", "endpoints_dir",   "endpoints",      "shards",    "ingest",
             "sources",  "rollups",         "admin",          "log",       "retention"});
  auto read = [&](auto&& part) { problems.Collect(file, part); };
  if (root["listen"]) read([&] { ParseListen(problems, file, root["listen"], c); });
  if (root["admin"]) read([&] { config::ParseAdmin(problems, file, root["admin"], c); });
  if (root["log"]) read([&] { config::ParseLog(problems, file, root["log"], c); });
  if (root["retention"]) {
    read([&] { config::ParseRetention(problems, file, root["retention"], c); });
  }
  if (root["io_threads"]) {
    read([&] {
      c.io_threads = static_cast<int>(GetInt(file, root["io_threads"], "io_threads", 0, 1024));
    });
  }
  if (root["worker_threads"]) {
    read([&] {
      c.worker_threads =
          static_cast<int>(GetInt(file, root["worker_threads"], "worker_threads", 0, 4096));
    });
  }
  read([&] {
    if (root["database"]) {
      ParseDatabase(problems, file, root["database"], env, c);
    } else if (!env.database) {
      Fail(file, root, "the database section is required");
    }
  });
  if (root["catalogue_file"]) {
    read([&] {
      c.catalogue_file =
          config::ResolvePath(file, GetString(file, root["catalogue_file"], "catalogue_file"));
    });
  }
  if (root["cache_max_bytes"]) {
    read([&] {
      c.cache_max_bytes = static_cast<std::size_t>(
          GetInt(file, root["cache_max_bytes"], "cache_max_bytes", 0, 1LL << 40));
    });
  }
  if (root["http"]) read([&] { ParseHttp(problems, file, root["http"], c); });
  if (root["shards"]) read([&] { ParseShards(problems, file, root["shards"], c); });
  if (root["log_level"]) {
    read([&] {
      c.log_level = GetString(file, root["log_level"], "log_level");
      static const std::set<std::string> levels = {"trace", "debug", "info",
                                                   "warn",  "error", "off"};
      if (!levels.contains(c.log_level)) {
        Fail(file, root["log_level"],
             "log_level must be one of trace, debug, info, warn, error, off");
      }
    });
  }
  if (root["access_log"]) {
    read([&] { c.access_log = GetBool(file, root["access_log"], "access_log"); });
  }
  if (root["api_keys"]) {
    read([&] {
      if (!root["api_keys"].IsSequence()) Fail(file, root["api_keys"], "api_keys must be a list");
      for (const auto& k : root["api_keys"]) {
        read([&] { c.api_keys.push_back(ParseApiKey(problems, file, k)); });
      }
    });
  }
  if (root["ingest"]) read([&] { config::ParseIngest(problems, file, root["ingest"], c); });
  if (root["sources"]) read([&] { config::ParseSources(problems, file, root["sources"], c); });
  if (root["tail"]) read([&] { config::ParseTail(problems, file, root["tail"], c); });
  if (root["rollups"]) read([&] { config::ParseRollups(problems, file, root["rollups"], c); });
  if (root["endpoints_dir"]) {
    read([&] { LoadEndpointsDir(problems, file, root["endpoints_dir"], c); });
  }
  if (root["endpoints"]) {
    read([&] {
      if (!root["endpoints"].IsSequence()) {
        Fail(file, root["endpoints"], "endpoints must be a list");
      }
      for (const auto& e : root["endpoints"]) {
        read([&] { c.endpoints.push_back(config::ParseEndpoint(problems, file, e)); });
      }
    });
  }
  if (c.endpoints.empty() && problems.empty() && !env.endpoints) {
    problems.Add(
        ConfigError{file, LineOf(root), "no endpoints defined (endpoints_dir or endpoints)"});
  }
  CheckUnique(problems, c);
  config::CheckIngestKeys(problems, file, root["api_keys"] ? LineOf(root["api_keys"]) : 0, c);
}

}  // namespace

std::string ConfigError::ToString() const {
  return file + ":" + std::to_string(line) + ": " + message;
}

std::string ConfigErrors::ToString() const {
  std::string out;
  for (const ConfigError& e : list) out += (out.empty() ? "" : "\n") + e.ToString();
  return out;
}

Config LoadConfigCollecting(const std::string& path, std::vector<ConfigError>* errors) {
  return LoadConfigCollecting(path, ProcessEnvironment(), errors);
}

Config LoadConfigCollecting(const std::string& path, const EnvLookup& env,
                            std::vector<ConfigError>* errors) {
  Config c;
  Problems problems;
  if (!path.empty()) {
    c.path = std::filesystem::absolute(path).string();
    problems.Collect(path, [&] {
      YAML::Node root;
      try {
        root = YAML::LoadFile(path);
      } catch (const YAML::BadFile&) {
        throw ConfigError{path, 0, "cannot read the config file"};
      }
      ParseRoot(problems, path, root, WhatEnvironmentSupplies(env), c);
    });
  }
  for (ConfigError& e : problems.list()) errors->push_back(std::move(e));
  // Variables that are set override the file: a container's settings win over a baked-in file.
  ApplyEnvironment(env, path.empty(), c, errors);
  return c;
}

ConfigResult LoadConfig(const std::string& path) {
  std::vector<ConfigError> errors;
  Config c = LoadConfigCollecting(path, &errors);
  if (!errors.empty()) return ConfigErrors{std::move(errors)};
  return c;
}

std::variant<std::shared_ptr<EndpointDef>, ConfigErrors> LoadEndpointFile(const std::string& path) {
  Problems problems;
  std::shared_ptr<EndpointDef> endpoint;
  problems.Collect(path, [&] {
    YAML::Node root;
    try {
      root = YAML::LoadFile(path);
    } catch (const YAML::BadFile&) {
      throw ConfigError{path, 0, "cannot read the endpoint file"};
    }
    endpoint = config::ParseEndpoint(problems, path, root);
  });
  if (!problems.empty()) return ConfigErrors{std::move(problems.list())};
  return endpoint;
}

std::variant<std::shared_ptr<EndpointDef>, ConfigErrors> ParseEndpointJson(
    const std::string& json_text, const std::string& origin) {
  Problems problems;
  std::shared_ptr<EndpointDef> endpoint;
  problems.Collect(origin, [&] {
    // JSON is YAML: the files' parser and rules apply as they are.
    const YAML::Node root = YAML::Load(json_text);
    if (root.IsMap() && root["query_file"]) {
      throw ConfigError{origin, 0, "query_file is not allowed here: give the query itself"};
    }
    endpoint = config::ParseEndpoint(problems, origin, root);
  });
  if (!problems.empty()) return ConfigErrors{std::move(problems.list())};
  return endpoint;
}

std::optional<ConfigError> TranslateEndpoint(EndpointDef& e, const Catalog& catalog) {
  TranslateResult result = Translate(e.query, EndpointTranslateOptions(e, catalog));
  if (!result.ok()) {
    LineColumn pos = LocateOffset(e.query, result.error().offset);
    return ConfigError{e.file, e.line + static_cast<int>(pos.line) - 1,
                       "endpoint " + e.name + ": " + RenderCaret(result.error(), e.query)};
  }
  e.translation = std::make_shared<const Translation>(std::move(result.value()));
  return std::nullopt;
}

std::vector<ConfigError> TranslateEndpoints(Config& config, const Catalog& catalog) {
  std::vector<ConfigError> refusals;
  for (auto& e : config.endpoints) {
    if (auto refusal = TranslateEndpoint(*e, catalog)) refusals.push_back(std::move(*refusal));
  }
  return refusals;
}

TranslateOptions EndpointTranslateOptions(const EndpointDef& endpoint, const Catalog& catalog,
                                          std::optional<ConsumerQuery> consumer,
                                          std::chrono::system_clock::time_point now) {
  TranslateOptions options;
  options.catalog = &catalog;
  options.dialect = endpoint.language;
  for (const auto& [name, def] : endpoint.params) options.params[name] = ParamSqlType(def.type);
  options.consumer = std::move(consumer);
  options.now = now;
  return options;
}

ConsumerQuery::Language ConsumerSqlLanguage(const EndpointDef& endpoint) {
  return endpoint.language == SqlDialect::kClickHouse ? ConsumerQuery::Language::kClickHouseSql
                                                      : ConsumerQuery::Language::kSql;
}

std::string SandboxRefusal(const EndpointDef& endpoint, ConsumerQuery::Language language) {
  if (endpoint.sandbox) return "";
  const char* which = language == ConsumerQuery::Language::kLql ? "lql" : "sql";
  return std::string("endpoint ") + endpoint.name + " does not accept a " + which +
         " parameter (sandboxing is off)";
}

TypePtr ParamSqlType(ParamType type) {
  switch (type) {
    case ParamType::kInteger:
      return Type::Scalar(TypeKind::kInt64);
    case ParamType::kFloat:
      return Type::Scalar(TypeKind::kFloat64);
    case ParamType::kBoolean:
      return Type::Scalar(TypeKind::kBool);
    default:
      return Type::Scalar(TypeKind::kString);
  }
}

std::string_view ParamTypeName(ParamType type) {
  switch (type) {
    case ParamType::kString:
      return "string";
    case ParamType::kInteger:
      return "integer";
    case ParamType::kFloat:
      return "float";
    case ParamType::kBoolean:
      return "boolean";
    case ParamType::kTimestamp:
      return "timestamp";
    case ParamType::kEnum:
      return "enum";
  }
  return "string";
}

}  // namespace lqe::gateway
