// `lqe serve --migrate` / LQE_MIGRATE=1: the migrations `lqe migrate` applies, and the config's
// rollups, run against the config's database before serving, so that a container needs no
// separate migrate step. (A sharded layout still runs `lqe migrate --config` to move partitions.)
#include <spdlog/spdlog.h>

#include <pqxx/pqxx>

#include "commands.h"
#include "lqe/gateway/config.h"
#include "lqe/schema/migrate.h"
#include "lqe/schema/rollups.h"

namespace lqe::cli {

std::string MigrateForServe(const std::string& config_path) {
  auto loaded = gateway::LoadConfig(config_path);
  if (auto* errors = std::get_if<gateway::ConfigErrors>(&loaded)) return errors->ToString();
  const auto& config = std::get<gateway::Config>(loaded);
  try {
    pqxx::connection conn(config.dsn);
    const auto report = schema::Migrate(conn, schema::MigrateOptions{});
    spdlog::info("migrations: {} applied, {} already applied; partitions created: {}",
                 report.applied.size(), report.already_applied, report.partitions_created.size());
    if (!config.rollups.empty()) schema::ApplyRollups(conn, config.rollups, report.gateway_role);
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (auto nl = what.find('\n'); nl != std::string::npos) what.resize(nl);
    return what;
  }
  return "";
}

}  // namespace lqe::cli
