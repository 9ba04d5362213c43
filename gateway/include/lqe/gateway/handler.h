// The request handlers: pure functions of a Request and the Context (current config snapshot,
// cache, query runner, metrics). No sockets, so tests call them directly.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lqe/catalog.h"
#include "lqe/gateway/config.h"
#include "lqe/gateway/hit_memo.h"
#include "lqe/gateway/http_types.h"
#include "lqe/gateway/metrics.h"
#include "lqe/gateway/pg_pool.h"
#include "lqe/gateway/result_cache.h"
#include "lqe/stored_query_cache.h"

namespace lqe::gateway {

// One immutable configuration snapshot; reload builds a new one and swaps it in.
struct GatewayState {
  Config config;
  std::shared_ptr<const Catalog> catalog;
  std::map<std::string, std::shared_ptr<const EndpointDef>, std::less<>> by_name;
  std::map<std::string, std::shared_ptr<const EndpointDef>, std::less<>> by_id;
  std::map<std::string, std::shared_ptr<EndpointMetrics>, std::less<>> endpoint_metrics;
  // Per sandboxed endpoint (by name): its stored query's translated WITH, reused by every
  // consumer query and dropped with this snapshot on a reload.
  std::map<std::string, std::shared_ptr<StoredQueryCache>, std::less<>> stored_queries;
  // The connection pool for config.dsn, set by the server. A reload that keeps the database
  // settings shares the previous snapshot's pool; one that changes them gets a new pool, and
  // queries already running finish on the old one.
  std::shared_ptr<PgPool> pool;
};

// Runs SQL with text params, at most max_rows rows (see RunQuery).
using QueryRunner = std::function<QueryResult(
    const std::string& sql, const std::vector<std::optional<std::string>>& params, int max_rows)>;

struct Context {
  std::shared_ptr<const GatewayState> state;
  ResultCache* cache = nullptr;
  QueryRunner run_query;
  std::function<bool()> ready;  // Postgres reachable
  std::function<std::string()> metrics_text;
  Metrics* metrics = nullptr;
  HitMemo* memo = nullptr;  // the calling thread's; null: no memo
  std::function<std::chrono::system_clock::time_point()> now = [] {
    return std::chrono::system_clock::now();
  };
};

// Full handling; may block on Postgres.
Response Handle(const Request& request, Context& context);
// Answers without blocking (errors, CORS, health, cache hits), or nullopt when Handle must run
// on a worker thread.
std::optional<Response> HandleFast(const Request& request, Context& context);
// Adds CORS headers, and gzip-encodes when the client accepts it.
void FinishResponse(const Request& request, Response& response);

// Builds a snapshot: loads the config, the catalogue (Postgres and/or catalogue_file) and
// translates every endpoint. `metrics` may be null. On failure returns nullptr and sets *error.
std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::string* error);
// The same with every problem (config, catalogue, each endpoint's translation) as a list.
std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::vector<ConfigError>* problems);
// Fills the lookup maps and metric handles of a snapshot from its config's endpoints.
void IndexState(GatewayState& state, Metrics* metrics);
// The catalogue: rows of catalogue_file, then rows of logs.field_catalogue (when `dsn` is
// reachable) overriding by (source, path).
std::shared_ptr<const Catalog> LoadCatalog(const Config& config, std::string* error,
                                           std::string* warning);

}  // namespace lqe::gateway
