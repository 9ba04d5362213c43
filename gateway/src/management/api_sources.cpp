#include "management/api_sources.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <pqxx/pqxx>

#include "lqe/gateway/pg_pool.h"

namespace lqe::gateway::management {

std::vector<IngestSource> LoadApiSources(const Config& config) {
  std::vector<IngestSource> loaded;
  if (config.dsn.empty()) return loaded;
  try {
    pqxx::connection conn(DsnWithConnectTimeout(config.dsn, config.connect_timeout_ms));
    pqxx::read_transaction tx(conn);
    const bool migrated = tx.exec1(
                                "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = "
                                "to_regclass('lqe_admin.sources') AND attname = 'log_table')")[0]
                              .as<bool>();
    if (!migrated) return loaded;
    for (const auto& row : tx.exec("SELECT name, token::text, log_table FROM lqe_admin.sources "
                                   "WHERE log_table IS NOT NULL ORDER BY id")) {
      IngestSource source{row[0].as<std::string>(), row[1].as<std::string>(),
                          row[2].as<std::string>()};
      const bool declared =
          std::any_of(config.sources.begin(), config.sources.end(),
                      [&](const IngestSource& s) { return s.name == source.name; });
      if (declared) {
        spdlog::warn("source {} of /api/sources is left out: the configuration declares it",
                     source.name);
        continue;
      }
      loaded.push_back(std::move(source));
    }
  } catch (const std::exception& e) {
    spdlog::warn("sources of /api/sources not read: {}", e.what());
  }
  return loaded;
}

}  // namespace lqe::gateway::management
