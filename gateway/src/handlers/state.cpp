// Building a configuration snapshot: config, catalogue, translated endpoints, metric handles.
#include <spdlog/spdlog.h>

#include <fstream>
#include <iterator>
#include <pqxx/pqxx>
#include <sstream>

#include "lqe/gateway/handler.h"
#include "lqe/schema/embedded.h"
#include "management/api_endpoints.h"
#include "management/api_sources.h"

namespace lqe::gateway {

std::shared_ptr<const Catalog> LoadCatalog(const Config& config, std::string* error,
                                           std::string* warning, bool builtin_offline) {
  std::map<std::pair<std::string, std::string>, CatalogEntry> merged;
  bool have_any = false;
  if (!config.catalogue_file.empty()) {
    std::ifstream in(config.catalogue_file);
    if (!in) {
      *error = "cannot read catalogue_file " + config.catalogue_file;
      return nullptr;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string parse_error;
    auto entries = Catalog::ParseTsv(text.str(), &parse_error);
    if (!parse_error.empty()) {
      *error = config.catalogue_file + ": " + parse_error;
      return nullptr;
    }
    for (auto& e : entries) merged[{e.source, e.path}] = e;
    have_any = true;
  }
  try {
    pqxx::connection conn(config.dsn +
                          (config.dsn.find("://") != std::string::npos
                               ? (config.dsn.find('?') == std::string::npos ? "?" : "&") +
                                     std::string("connect_timeout=2")
                               : std::string(" connect_timeout=2")));
    pqxx::read_transaction tx(conn);
    for (const auto& row :
         tx.exec("SELECT source, path, bq_type, mode FROM logs.field_catalogue")) {
      CatalogEntry e{row[0].c_str(), row[1].c_str(), row[2].c_str(),
                     row[3].is_null() ? "NULLABLE" : row[3].c_str()};
      merged[{e.source, e.path}] = e;
    }
    // Backfilled promoted fields (008_promoted_fields.sql) are read from their typed columns, when
    // the column holds the type the catalogue has now (an INT64 later widened to FLOAT64 does not).
    if (tx.exec1("SELECT to_regclass('logs.promoted_backfill') IS NOT NULL")[0].as<bool>()) {
      for (const auto& row : tx.exec("SELECT source, path, bq_type, column_name "
                                     "FROM logs.promoted_fields WHERE backfilled")) {
        const auto it = merged.find({row[0].c_str(), row[1].c_str()});
        if (it != merged.end() && it->second.type == row[2].c_str()) {
          it->second.column = row[3].c_str();
        }
      }
    }
    have_any = true;
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (auto nl = what.find('\n'); nl != std::string::npos) what.resize(nl);
    *warning = "field catalogue not read from Postgres (" + what + ")";
  }
  if (!have_any && builtin_offline) {
    std::string parse_error;
    for (auto& e : Catalog::ParseTsv(schema::EmbeddedCatalogueSeed(), &parse_error)) {
      merged[{e.source, e.path}] = e;
    }
    if (!parse_error.empty()) {
      *error = "built-in field catalogue: " + parse_error;
      return nullptr;
    }
    *warning += "; using the built-in field catalogue";
    have_any = true;
  }
  if (!have_any) {
    *error = "no field catalogue: Postgres is unreachable and no catalogue_file is configured";
    return nullptr;
  }
  std::vector<CatalogEntry> entries;
  entries.reserve(merged.size());
  for (auto& [k, e] : merged) entries.push_back(e);
  std::string build_error;
  auto catalog = std::make_shared<Catalog>(Catalog::FromEntries(entries, &build_error));
  if (!build_error.empty()) {
    *error = "field catalogue: " + build_error;
    return nullptr;
  }
  return catalog;
}

std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::string* error) {
  std::vector<ConfigError> problems;
  auto state = BuildState(config_path, metrics, &problems);
  if (!state) *error = ConfigErrors{std::move(problems)}.ToString();
  return state;
}

std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::vector<ConfigError>* problems_out) {
  return BuildState(config_path, metrics, problems_out, BuildOptions{});
}

std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::vector<ConfigError>* problems_out,
                                         const BuildOptions& options) {
  // Every problem is collected (config, catalogue, each endpoint's translation) so that one run
  // reports all of them.
  std::vector<ConfigError>& problems = *problems_out;
  auto state = std::make_shared<GatewayState>();
  state->config = LoadConfigCollecting(config_path, &problems);
  std::string catalog_error, warning;
  // A broken config still has its good endpoints translated, when there is a catalogue to use.
  if (!state->config.endpoints.empty() &&
      (!state->config.dsn.empty() || !state->config.catalogue_file.empty())) {
    state->catalog =
        LoadCatalog(state->config, &catalog_error, &warning, options.builtin_catalogue_offline);
  }
  if (!warning.empty()) spdlog::warn("{}", warning);
  if (!state->catalog && !catalog_error.empty()) {
    problems.push_back({config_path, 0, catalog_error});
  }
  if (state->catalog) {
    std::vector<ConfigError> refusals = TranslateEndpoints(state->config, *state->catalog);
    problems.insert(problems.end(), std::make_move_iterator(refusals.begin()),
                    std::make_move_iterator(refusals.end()));
    // Those created through /api/endpoints, when the database answered (the catalogue was read
    // from it): a broken one is left out, never fatal.
    if (warning.empty()) {
      for (auto& e : management::LoadApiEndpoints(state->config, *state->catalog)) {
        state->config.endpoints.push_back(std::move(e));
      }
      for (auto& s : management::LoadApiSources(state->config)) {
        state->config.sources.push_back(std::move(s));
      }
    }
  }
  if (!problems.empty()) return nullptr;
  IndexState(*state, metrics);
  return state;
}

void IndexState(GatewayState& state, Metrics* metrics) {
  for (const auto& e : state.config.endpoints) {
    state.by_name[e->name] = e;
    state.by_id[e->id] = e;
    if (metrics != nullptr) state.endpoint_metrics[e->name] = metrics->ForEndpoint(e->name);
    if (e->sandbox) state.stored_queries[e->name] = std::make_shared<StoredQueryCache>();
  }
}

}  // namespace lqe::gateway
