// The request handlers: pure functions of a Request and the Context (current config snapshot,
// cache, query runner, metrics). No sockets, so tests call them directly.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lqe/catalog.h"
#include "lqe/gateway/config.h"
#include "lqe/gateway/hit_memo.h"
#include "lqe/gateway/http_types.h"
#include "lqe/gateway/ingest.h"
#include "lqe/gateway/key_limiter.h"
#include "lqe/gateway/metrics.h"
#include "lqe/gateway/params.h"
#include "lqe/gateway/pg_hosts.h"
#include "lqe/gateway/pg_pool.h"
#include "lqe/gateway/query_cancel.h"
#include "lqe/gateway/result_cache.h"
#include "lqe/stored_query_cache.h"

namespace lqe::gateway {

namespace tail {
class Hub;
struct TailRequest;
}  // namespace tail

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
  // The primary (whose pool `pool` is) and the read replicas; endpoint queries read through it.
  std::shared_ptr<PgHosts> hosts;
};

// Runs SQL with text params, at most max_rows rows, under a statement timeout of timeout_ms,
// cancellable through `cancel` (may be null; see RunQuery).
using QueryRunner = std::function<QueryResult(const std::string& sql,
                                              const std::vector<std::optional<std::string>>& params,
                                              int max_rows, int timeout_ms, QueryCancel* cancel)>;

struct Context {
  std::shared_ptr<const GatewayState> state;
  ResultCache* cache = nullptr;
  QueryRunner run_query;
  std::function<bool()> ready;  // Postgres reachable
  std::function<std::string()> metrics_text;
  Metrics* metrics = nullptr;
  HitMemo* memo = nullptr;  // the calling thread's; null: no memo
  // Cancels this request's uncached query when its client goes away (null: never).
  std::shared_ptr<QueryCancel> cancel;
  // Cancels queries whose result others share (cache fills and warming) at shutdown only.
  std::shared_ptr<QueryCancel> shared_cancel;
  KeyLimiter* key_limiter = nullptr;  // null: no per-key cap
  IngestService* ingest = nullptr;    // null: ingest answers 503
  tail::Hub* tails = nullptr;         // null: the live tail answers 503
  // The request came in on admin.listen: only /metrics, /health and /ready are served there.
  bool admin_listener = false;
  std::function<std::chrono::system_clock::time_point()> now = [] {
    return std::chrono::system_clock::now();
  };
};

// A query request that passed routing, auth and validation.
struct Prepared {
  const EndpointDef* endpoint = nullptr;  // owned by the context's state
  std::string api_key;                    // the key's name, for the per-key query cap
  ValidatedParams params;
  bool redact = false;
  std::string cache_key;
};

// What the fast path hands a worker thread: a request it already routed, authenticated and
// validated, whose answer may block (a query that is not a cache hit, /ready, /metrics). The
// worker finishes it without doing any of that again.
// An ingest request that passed auth: its key and, when the URL or headers named it, its source
// (both owned by the context's state).
struct IngestTarget {
  const ApiKey* key = nullptr;
  const IngestSource* source = nullptr;  // null: named by the body, or 401
  bool otlp = false;                     // POST /v1/logs (ingest/otlp_logs.h)
};

struct PendingRequest {
  enum class Kind : std::uint8_t {
    kQuery,
    kReady,
    kMetrics,
    kIngest,
    kManagement,
    kTail,
    kLogApi  // /api/logs/{events,hits,facets}, /api/endpoints/openapi.json
  };
  Kind kind = Kind::kQuery;
  Prepared query;                           // for kQuery
  IngestTarget ingest;                      // for kIngest
  std::shared_ptr<tail::TailRequest> tail;  // for kTail: an open tail the session streams
};
using FastOutcome = std::variant<Response, PendingRequest>;

// Everything that does not block: routing, CORS, auth, validation, health, cache hits. Returns
// the response, or the pending request for HandlePending on a worker thread.
FastOutcome HandleFast(const Request& request, Context& context);
// The blocking rest; may wait on Postgres.
Response HandlePending(const Request& request, const PendingRequest& pending, Context& context);
// Both in turn: full handling of one request.
Response Handle(const Request& request, Context& context);
// Adds the CORS headers every response carries. (Bodies are gzip-encoded when rendered.)
void FinishResponse(const Request& request, Response& response);
// The headers FinishResponse adds that do not depend on the request: pre-serialised answers
// (cached results) carry them in their buffer, so they must never depend on the request. A
// header that does would go in FinishResponse, which still runs for every response.
void AddCommonHeaders(Response& response);

// Builds a snapshot: loads the config, the catalogue (Postgres and/or catalogue_file) and
// translates every endpoint. `metrics` may be null. On failure returns nullptr and sets *error.
std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::string* error);
// The same with every problem (config, catalogue, each endpoint's translation) as a list.
std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::vector<ConfigError>* problems);
struct BuildOptions {
  // Postgres unreachable and no catalogue_file: use the seed catalogue compiled into the binary
  // (with a warning) instead of failing, so `lqe translate` and `lqe check` work offline. The
  // server does not: the database's catalogue has the fields loads added since.
  bool builtin_catalogue_offline = false;
};
std::shared_ptr<GatewayState> BuildState(const std::string& config_path, Metrics* metrics,
                                         std::vector<ConfigError>* problems,
                                         const BuildOptions& options);
// Fills the lookup maps and metric handles of a snapshot from its config's endpoints.
void IndexState(GatewayState& state, Metrics* metrics);
// The catalogue: rows of catalogue_file, then rows of logs.field_catalogue (when `dsn` is
// reachable) overriding by (source, path). Neither: the built-in seed when `builtin_offline`.
std::shared_ptr<const Catalog> LoadCatalog(const Config& config, std::string* error,
                                           std::string* warning, bool builtin_offline = false);

}  // namespace lqe::gateway
