// Request dispatch: routes, CORS, health, readiness, metrics, and the split between the
// non-blocking fast path (cache hits, errors) and the full path that may query Postgres.
#include "lqe/gateway/handler.h"

#include "console/console_handler.h"
#include "handlers/admin_routes.h"
#include "handlers/routes.h"
#include "ingest/ingest_handler.h"
#include "ingest/otlp_logs.h"
#include "logapi/log_api.h"
#include "lqe/gateway/errors.h"
#include "management/routes.h"
#include "params/text_check.h"
#include "tail/tail_request.h"

namespace lqe::gateway {
namespace {

constexpr std::string_view kAllowedHeaders =
    "Authorization, Content-Type, Content-Length, X-Requested-With, X-API-KEY, "
    "SVC-ENDPOINT-REDACT-PII, LF-ENDPOINT-REDACT-PII, LF-ENDPOINT-LABELS, "
    "LF-ENDPOINT-BIGQUERY-RESERVATION, LF-ENDPOINT-CLICKHOUSE-READ-CLUSTER-LABEL, X-Client-Info";

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

Response Preflight() {
  Response response;
  response.status = 204;
  response.content_type.clear();
  response.AddHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  response.AddHeader("Access-Control-Allow-Headers", std::string(kAllowedHeaders));
  response.AddHeader("Access-Control-Max-Age", "1728000");
  return response;
}

Response JsonStatus(int status, std::string_view text) {
  Response response;
  response.status = status;
  response.body = std::string(R"({"status":")") + std::string(text) + "\"}";
  return response;
}

struct Parsed {
  Route route;
  RawParams raw;
};

// Common first steps: target parsing, routing, method checks. A preflight or error response
// ends the request here.
std::variant<Parsed, Response> ParseAndRoute(const Request& request) {
  Parsed parsed;
  std::string path;
  if (!ParseQueryString(request.target, &path, &parsed.raw) || CheckParamText(path)) {
    return ToResponse(MakeError(400, "malformed request target", "bad_target"));
  }
  parsed.route = MatchRoute(path);
  if (parsed.route.kind == Route::Kind::kUnknown) {
    return ToResponse(MakeError(404, "no route for " + path, "not_found"));
  }
  if (parsed.route.kind == Route::Kind::kIngest || parsed.route.kind == Route::Kind::kManagement ||
      parsed.route.kind == Route::Kind::kConsole) {
    return parsed;  // its own auth and methods
  }
  if (request.method == "OPTIONS") return Preflight();
  bool is_query = parsed.route.kind == Route::Kind::kQuery;
  bool allowed =
      request.method == "GET" || (request.method == "POST" && is_query && !parsed.route.get_only);
  if (!allowed) {
    GatewayError error =
        MakeError(405, "method " + request.method + " is not allowed here", "method_not_allowed");
    error.headers.emplace_back(
        "Allow", is_query && !parsed.route.get_only ? "GET, POST, OPTIONS" : "GET, OPTIONS");
    return ToResponse(error);
  }
  return parsed;
}

}  // namespace

Route MatchRoute(std::string_view path) {
  Route route;
  auto take = [&](std::string_view prefix, bool by_name, bool get_only) {
    if (!StartsWith(path, prefix)) return false;
    std::string_view rest = path.substr(prefix.size());
    if (rest.size() > 1 && rest.back() == '/') rest.remove_suffix(1);  // clients add one
    if (rest.empty() || rest.find('/') != std::string_view::npos) return false;
    route.kind = Route::Kind::kQuery;
    route.endpoint = std::string(rest);
    route.by_name_only = by_name;
    route.get_only = get_only;
    return true;
  };
  if (take("/api/endpoints/query/name/", true, false) ||
      take("/api/endpoints/query/", false, false) || take("/endpoints/query/", false, true)) {
    return route;
  }
  if (path == "/health") route.kind = Route::Kind::kHealth;
  if (path == "/ready") route.kind = Route::Kind::kReady;
  if (path == "/metrics") route.kind = Route::Kind::kMetrics;
  if (ingest::IsIngestPath(path)) route.kind = Route::Kind::kIngest;
  if (management::IsManagementPath(path)) route.kind = Route::Kind::kManagement;
  if (path == "/api/logs/tail") route.kind = Route::Kind::kTail;
  if (logapi::IsLogApiPath(path)) route.kind = Route::Kind::kLogApi;
  if (console::IsConsolePath(path)) {
    route.kind = Route::Kind::kConsole;
    route.endpoint = std::string(path);
  }
  return route;
}

namespace {

// A repeat of a request already answered from the cache: straight to the cache lookup.
std::optional<Response> HandleFromMemo(const Request& request, Context& context,
                                       const std::string* memo_key) {
  if (context.memo == nullptr || context.cache == nullptr || memo_key == nullptr) {
    return std::nullopt;
  }
  const HitMemo::Entry* entry = context.memo->Find(*memo_key, context.state);
  if (entry == nullptr) return std::nullopt;
  auto hit = context.cache->Peek(entry->cache_key);
  if (!hit) return std::nullopt;
  Prepared prepared;
  prepared.endpoint = entry->endpoint;
  prepared.redact = entry->redact;
  return RespondFromLookup(request, prepared, *hit);
}

}  // namespace

FastOutcome HandleFast(const Request& request, Context& context) {
  const std::string* memo_key = context.memo != nullptr ? context.memo->KeyFor(request) : nullptr;
  if (auto response = HandleFromMemo(request, context, memo_key)) return std::move(*response);
  auto parsed = ParseAndRoute(request);
  if (auto* response = std::get_if<Response>(&parsed)) return std::move(*response);
  Parsed& p = std::get<Parsed>(parsed);
  if (auto refusal = AdminRouteRefusal(request, p.route.kind, context)) return std::move(*refusal);
  switch (p.route.kind) {
    case Route::Kind::kHealth:
      return JsonStatus(200, "ok");
    case Route::Kind::kReady:
      return PendingRequest{PendingRequest::Kind::kReady, {}, {}, {}};
    case Route::Kind::kMetrics:
      return PendingRequest{PendingRequest::Kind::kMetrics, {}, {}, {}};
    case Route::Kind::kIngest:
      return ingest::HandleFast(request, p.raw, *context.state);
    case Route::Kind::kManagement:
      return PendingRequest{PendingRequest::Kind::kManagement, {}, {}, {}};
    case Route::Kind::kTail:
      return tail::HandleFast(request, p.raw, context);
    case Route::Kind::kLogApi:
      return logapi::HandleFast(request, p.raw, context);
    case Route::Kind::kConsole:
      return console::Serve(request, p.route.endpoint);
    default:
      break;
  }
  auto prepared = Prepare(request, p.route, std::move(p.raw), *context.state);
  if (auto* error = std::get_if<GatewayError>(&prepared)) return ToResponse(*error);
  Prepared& q = std::get<Prepared>(prepared);
  if (q.endpoint->cache_seconds > 0 && context.cache != nullptr) {
    if (auto hit = context.cache->Peek(q.cache_key)) {
      if (memo_key != nullptr) {
        context.memo->Remember(*memo_key, context.state, {q.endpoint, q.redact, q.cache_key});
      }
      return RespondFromLookup(request, q, *hit);
    }
  }
  return PendingRequest{PendingRequest::Kind::kQuery, std::move(q), {}, {}};
}

Response HandlePending(const Request& request, const PendingRequest& pending, Context& context) {
  switch (pending.kind) {
    case PendingRequest::Kind::kReady:
      if (context.ready && context.ready()) return JsonStatus(200, "ready");
      return ToResponse(MakeError(503, "the database is unreachable", "unavailable"));
    case PendingRequest::Kind::kMetrics: {
      Response response;
      response.content_type = "text/plain; version=0.0.4; charset=utf-8";
      response.body = context.metrics_text ? context.metrics_text() : std::string();
      return response;
    }
    case PendingRequest::Kind::kIngest: {
      if (pending.ingest.otlp) return ingest::otlp::HandleOtlp(request, pending, context);
      auto job = ingest::PrepareJob(request, pending, *context.state, nullptr);
      if (auto* response = std::get_if<Response>(&job)) return std::move(*response);
      return ingest::SubmitAndWait(std::get<IngestJob>(std::move(job)), context);
    }
    case PendingRequest::Kind::kManagement:
      return management::Handle(request, *context.state);
    case PendingRequest::Kind::kTail:
      // Streamed by the HTTP session; a caller without one cannot follow a tail.
      return ToResponse(MakeError(501, "the live tail needs a streaming connection", "internal"));
    case PendingRequest::Kind::kLogApi:
      return logapi::Handle(request, context);
    case PendingRequest::Kind::kQuery:
      break;
  }
  return RunPrepared(request, pending.query, context);
}

Response Handle(const Request& request, Context& context) {
  FastOutcome fast = HandleFast(request, context);
  if (auto* response = std::get_if<Response>(&fast)) return std::move(*response);
  return HandlePending(request, std::get<PendingRequest>(fast), context);
}

void AddCommonHeaders(Response& response) {
  response.AddHeader("Access-Control-Allow-Origin", "*");
  if (response.status != 204) {
    response.AddHeader("Access-Control-Expose-Headers",
                       "X-Cache, Age, X-Result-Truncated, Retry-After");
  }
}

void FinishResponse(const Request& request, Response& response) {
  (void)request;
  // A pre-serialised answer got the common headers when it was serialised.
  if (!response.wire) AddCommonHeaders(response);
}

}  // namespace lqe::gateway
