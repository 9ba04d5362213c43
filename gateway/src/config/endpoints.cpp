// Endpoint definitions: one YAML mapping each, inline in the config or one per file in
// endpoints_dir; the query inline or in query_file next to it.

#include "config/yaml_util.h"
#include "lqe/base/ascii.h"
#include "lqe/base/uuid.h"
#include "lqe/gateway/auth.h"
#include "lqe/gateway/params.h"

namespace lqe::gateway::config {
namespace {

// A stable id for endpoints declared without one: a UUID-shaped digest of the name.
std::string DerivedId(const std::string& name) {
  auto digest = Sha256("lqe-endpoint:" + name);
  std::string hex = HexEncode(digest.data(), 16);
  hex[12] = '8';
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20, 12);
}

ParamType ParseParamType(const std::string& file, const YAML::Node& node) {
  std::string t = GetString(file, node, "type");
  if (t == "string") return ParamType::kString;
  if (t == "integer") return ParamType::kInteger;
  if (t == "float") return ParamType::kFloat;
  if (t == "boolean") return ParamType::kBoolean;
  if (t == "timestamp") return ParamType::kTimestamp;
  if (t == "enum") return ParamType::kEnum;
  Fail(file, node,
       "unknown parameter type '" + t +
           "' (allowed: string, integer, float, boolean, timestamp, enum)");
}

ParamDef ParseParam(Problems& problems, const std::string& file, const std::string& name,
                    const YAML::Node& node) {
  CheckKeys(problems, file, node, "parameter " + name,
            {"type", "values", "required", "default", "description"});
  ParamDef def;
  def.name = name;
  if (!node["type"]) Fail(file, node, "parameter " + name + " has no type");
  def.type = ParseParamType(file, node["type"]);
  if (def.type == ParamType::kEnum) {
    const YAML::Node& values = node["values"];
    if (!values || !values.IsSequence() || values.size() == 0) {
      Fail(file, node, "enum parameter " + name + " needs a non-empty 'values' list");
    }
    for (const auto& v : values) def.values.push_back(GetString(file, v, "values"));
  } else if (node["values"]) {
    Fail(file, node["values"], "'values' is only allowed on enum parameters");
  }
  if (node["required"]) def.required = GetBool(file, node["required"], "required");
  if (node["description"]) def.description = GetString(file, node["description"], "description");
  if (node["default"]) {
    std::string error;
    auto value = NormaliseValue(def, GetString(file, node["default"], "default"), &error);
    if (!value) Fail(file, node["default"], "bad default: " + error);
    def.default_value = value;
  }
  return def;
}

SqlDialect ParseLanguage(const std::string& file, const YAML::Node& node) {
  const std::string language = GetString(file, node, "language");
  if (language == "bigquery") return SqlDialect::kBigQuery;
  if (language == "clickhouse") return SqlDialect::kClickHouse;
  Fail(file, node, "unknown language '" + language + "' (allowed: bigquery, clickhouse)");
}

void ParseSettings(Problems& problems, const std::string& file, const YAML::Node& node,
                   EndpointDef& e) {
  if (node["language"]) e.language = ParseLanguage(file, node["language"]);
  if (node["max_rows"]) {
    e.max_rows = static_cast<int>(GetInt(file, node["max_rows"], "max_rows", 1, 1000000));
  }
  if (node["cache_seconds"]) {
    e.cache_seconds =
        static_cast<int>(GetInt(file, node["cache_seconds"], "cache_seconds", 0, 31536000));
  }
  if (node["cache_warming_seconds"] && !node["cache_warming_seconds"].IsNull()) {
    e.cache_warming_seconds = static_cast<int>(
        GetInt(file, node["cache_warming_seconds"], "cache_warming_seconds", 1, 31536000));
  }
  if (node["cache_warming_timeout_ms"]) {
    e.cache_warming_timeout_ms = static_cast<int>(
        GetInt(file, node["cache_warming_timeout_ms"], "cache_warming_timeout_ms", 1, 3600000));
  }
  if (node["sandbox"]) e.sandbox = GetBool(file, node["sandbox"], "sandbox");
  if (node["redact_pii"]) e.redact_pii = GetBool(file, node["redact_pii"], "redact_pii");
  if (const YAML::Node& params = node["params"]) {
    if (params.IsNull()) return;
    if (!params.IsMap()) Fail(file, params, "params must be a mapping of name to declaration");
    for (const auto& item : params) {
      std::string name = item.first.as<std::string>();
      if (name == "sql" || name == "lql" || name == "api_key") {
        Fail(file, item.first, "parameter name '" + name + "' is reserved");
      }
      problems.Collect(file,
                       [&] { e.params[name] = ParseParam(problems, file, name, item.second); });
    }
  }
}

std::string Version(const EndpointDef& e) {
  std::string text =
      e.query + '\0' + std::to_string(e.max_rows) + '\0' + std::to_string(e.cache_seconds) + '\0' +
      std::to_string(e.cache_warming_seconds.value_or(-1)) + '\0' + (e.sandbox ? "s" : "-") +
      (e.redact_pii ? "r" : "-") + (e.language == SqlDialect::kClickHouse ? "c" : "");
  for (const auto& [name, def] : e.params) {
    text += '\0' + name + ':' + std::string(ParamTypeName(def.type)) + ':' +
            (def.required ? "1" : "0") + ':' + def.default_value.value_or("\x01");
    for (const auto& v : def.values) text += ',' + v;
  }
  auto digest = Sha256(text);
  return HexEncode(digest.data(), 8);
}

}  // namespace

std::shared_ptr<EndpointDef> ParseEndpoint(Problems& problems, const std::string& file,
                                           const YAML::Node& node) {
  CheckKeys(problems, file, node, "endpoint",
            {"id", "name", "description", "query", "query_file", "max_rows", "cache_seconds",
             "cache_warming_seconds", "cache_warming_timeout_ms", "sandbox", "redact_pii", "params",
             "language"});
  auto e = std::make_shared<EndpointDef>();
  e->file = file;
  e->line = LineOf(node);
  if (!node["name"]) Fail(file, node, "endpoint has no name");
  e->name = GetString(file, node["name"], "name");
  if (e->name.empty() || e->name.find('/') != std::string::npos) {
    Fail(file, node["name"], "endpoint name must be non-empty and contain no '/'");
  }
  if (node["id"]) {
    e->id = ascii::Lower(GetString(file, node["id"], "id"));
    if (!IsUuid(e->id)) Fail(file, node["id"], "id must be a UUID");
  } else {
    e->id = DerivedId(e->name);
  }
  if (node["query"] && node["query_file"]) {
    Fail(file, node["query_file"], "give either query or query_file, not both");
  }
  if (node["query"]) {
    e->query = GetString(file, node["query"], "query");
    e->line = LineOf(node["query"]) + (e->query.find('\n') != std::string::npos ? 1 : 0);
  } else if (node["query_file"]) {
    std::string path = ResolvePath(file, GetString(file, node["query_file"], "query_file"));
    bool ok = false;
    e->query = ReadFile(path, &ok);
    if (!ok) Fail(file, node["query_file"], "cannot read query_file " + path);
    e->file = path;
    e->line = 1;
  } else {
    Fail(file, node, "endpoint " + e->name + " has neither query nor query_file");
  }
  if (e->query.find_first_not_of(" \t\r\n") == std::string::npos) {
    Fail(file, node, "endpoint " + e->name + " has an empty query");
  }
  ParseSettings(problems, file, node, *e);
  e->version = Version(*e);
  return e;
}

}  // namespace lqe::gateway::config
