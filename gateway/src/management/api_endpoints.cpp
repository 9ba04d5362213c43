#include "management/api_endpoints.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <pqxx/pqxx>

#include "lqe/gateway/pg_pool.h"

namespace lqe::gateway::management {

std::vector<std::shared_ptr<EndpointDef>> LoadApiEndpoints(const Config& config,
                                                           const Catalog& catalog) {
  std::vector<std::shared_ptr<EndpointDef>> loaded;
  if (config.dsn.empty()) return loaded;
  try {
    pqxx::connection conn(DsnWithConnectTimeout(config.dsn, config.connect_timeout_ms));
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

std::string ApiStateMark(const std::string& dsn) {
  try {
    pqxx::connection conn(DsnWithConnectTimeout(dsn, 2000));
    pqxx::read_transaction tx(conn);
    std::string mark;
    for (const char* table : {"lqe_admin.endpoints", "lqe_admin.sources"}) {
      if (tx.exec_params1("SELECT to_regclass($1) IS NULL", table)[0].as<bool>()) {
        mark += "none ";
        continue;
      }
      mark +=
          tx.exec1(std::string("SELECT count(*)::text || ' ' || coalesce(max(updated_at)::text, "
                               "'') || ' ' || coalesce(sum(id), 0)::text FROM ") +
                   table)[0]
              .as<std::string>();
      mark += ' ';
    }
    return mark;
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace lqe::gateway::management
