#include "support.h"

#include <algorithm>
#include <fstream>
#include <random>

#include "lqe/gateway/auth.h"

namespace lqe::gateway::testing {

std::string Sha256Hex(const std::string& text) {
  auto digest = Sha256(text);
  return HexEncode(digest.data(), digest.size());
}

std::string Header(const Response& r, const std::string& name) {
  for (const auto& [n, v] : r.headers) {
    if (n == name) return v;
  }
  if (r.wire) {
    std::string_view head = std::string_view(r.wire->bytes).substr(0, r.wire->body_offset);
    std::string prefix = name + ": ";
    for (std::size_t at = 0; at < head.size();) {
      std::size_t end = std::min(head.find("\r\n", at), head.size());
      std::string_view line = head.substr(at, end - at);
      if (line.starts_with(prefix)) return std::string(line.substr(prefix.size()));
      at = end + 2;
    }
  }
  return "<absent>";
}

OutputColumn Col(const std::string& name, TypeKind kind) {
  return {name, Type::Scalar(kind)};
}

OutputColumn RecordCol(const std::string& name) {
  return {name, Type::Array(Type::Record({}))};
}

std::shared_ptr<EndpointDef> MakeEndpoint(const std::string& name, const std::string& pg_sql,
                                          std::vector<OutputColumn> columns,
                                          const std::vector<std::string>& bound_params) {
  auto e = std::make_shared<EndpointDef>();
  e->name = name;
  e->id = "00000000-0000-4000-8000-" + Sha256Hex(name).substr(0, 12);
  e->query = pg_sql;
  e->version = "v1";
  auto t = std::make_shared<Translation>();
  t->pg_sql = pg_sql;
  t->columns = std::move(columns);
  for (const auto& p : bound_params) t->params.push_back({p, Type::Scalar(TypeKind::kString)});
  e->translation = t;
  return e;
}

void AddParam(EndpointDef& e, const std::string& name, ParamType type, bool required,
              std::vector<std::string> values) {
  ParamDef def;
  def.name = name;
  def.type = type;
  def.required = required;
  def.values = std::move(values);
  e.params[name] = def;
}

std::shared_ptr<GatewayState> MakeState(std::vector<std::shared_ptr<EndpointDef>> endpoints,
                                        Metrics* metrics) {
  auto state = std::make_shared<GatewayState>();
  ApiKey all;
  all.name = "all";
  ParseSha256Hex(Sha256Hex(kTestKey), &all.sha256);
  all.all_endpoints = true;
  ApiKey limited;
  limited.name = "limited";
  ParseSha256Hex(Sha256Hex(kLimitedKey), &limited.sha256);
  limited.endpoints = {"limited.ep"};
  state->config.api_keys = {all, limited};
  state->config.endpoints = std::move(endpoints);
  state->catalog = std::make_shared<Catalog>();
  IndexState(*state, metrics);
  return state;
}

Request Get(const std::string& target, const std::string& key) {
  Request r;
  r.method = "GET";
  r.target = target;
  if (!key.empty()) r.headers["x-api-key"] = key;
  return r;
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() / ("lqe_gw_test_" + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& name, const std::string& text) const {
  auto p = path_ / name;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace lqe::gateway::testing
