#include "management/api_endpoints.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <pqxx/pqxx>

namespace lqe::gateway::management {
namespace {

std::string WithConnectTimeout(const std::string& dsn) {
  if (dsn.find("://") == std::string::npos) return dsn + " connect_timeout=2";
  return dsn + (dsn.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=2";
}

}  // namespace

std::vector<std::shared_ptr<EndpointDef>> LoadApiEndpoints(const Config& config,
                                                           const Catalog& catalog) {
  std::vector<std::shared_ptr<EndpointDef>> loaded;
  if (config.dsn.empty()) return loaded;
  try {
    pqxx::connection conn(WithConnectTimeout(config.dsn));
    pqxx::read_transaction tx(conn);
    if (tx.exec1("SELECT to_regclass('lqe_admin.endpoints') IS NULL")[0].as<bool>()) return loaded;
    for (const auto& row : tx.exec("SELECT name, token::text, definition::text "
                                   "FROM lqe_admin.endpoints ORDER BY id")) {
      const std::string name = row[0].as<std::string>();
      const bool shadowed =
          std::any_of(config.endpoints.begin(), config.endpoints.end(),
                      [&](const std::shared_ptr<EndpointDef>& e) { return e->name == name; });
      if (shadowed) {
        spdlog::warn("endpoint {} of /api/endpoints is left out: an endpoint file has that name",
                     name);
        continue;
      }
      auto parsed = ParseEndpointJson(row[2].as<std::string>(), "api:" + name);
      if (auto* errors = std::get_if<ConfigErrors>(&parsed)) {
        spdlog::warn("endpoint {} of /api/endpoints is left out: {}", name, errors->ToString());
        continue;
      }
      auto endpoint = std::get<std::shared_ptr<EndpointDef>>(std::move(parsed));
      endpoint->id = row[1].as<std::string>();
      endpoint->from_api = true;
      if (auto refusal = TranslateEndpoint(*endpoint, catalog)) {
        spdlog::warn("endpoint {} of /api/endpoints is left out: {}", name, refusal->message);
        continue;
      }
      loaded.push_back(std::move(endpoint));
    }
  } catch (const std::exception& e) {
    spdlog::warn("endpoints of /api/endpoints not read: {}", e.what());
  }
  return loaded;
}

std::string ApiEndpointsMark(const std::string& dsn) {
  try {
    pqxx::connection conn(WithConnectTimeout(dsn));
    pqxx::read_transaction tx(conn);
    if (tx.exec1("SELECT to_regclass('lqe_admin.endpoints') IS NULL")[0].as<bool>()) return "none";
    return tx
        .exec1(
            "SELECT count(*)::text || ' ' || coalesce(max(updated_at)::text, '') || ' ' || "
            "coalesce(sum(id), 0)::text FROM lqe_admin.endpoints")[0]
        .as<std::string>();
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace lqe::gateway::management
