// GET|POST /api/endpoints/query/<id-or-name>: auth, endpoint lookup, parameter validation,
// sandbox translation, cache, execution, rendering and redaction.
#include <spdlog/spdlog.h>

#include <boost/json/serialize.hpp>

#include "handlers/routes.h"
#include "http/gzip.h"
#include "lqe/base/ascii.h"
#include "lqe/base/uuid.h"
#include "lqe/gateway/auth.h"
#include "lqe/gateway/errors.h"
#include "lqe/gateway/params.h"
#include "lqe/gateway/redact.h"
#include "lqe/gateway/render.h"
#include "lqe/regex.h"
#include "render/clickhouse_json.h"

namespace lqe::gateway {
namespace {

namespace json = boost::json;

const EndpointDef* FindEndpoint(const GatewayState& state, const Route& route) {
  if (!route.by_name_only && IsUuid(route.endpoint)) {
    std::string id(route.endpoint);
    for (char& c : id) c = ascii::ToLower(c);
    auto it = state.by_id.find(id);
    if (it != state.by_id.end()) return it->second.get();
  }
  auto it = state.by_name.find(route.endpoint);
  return it == state.by_name.end() ? nullptr : it->second.get();
}

// PostgreSQL's words for a query's own runtime error, named as BigQuery names it where they
// differ: an INT64 result out of range is BigQuery's "int64 overflow".
std::string BadQueryMessage(const QueryResult& r) {
  if (r.sqlstate == "22003" && r.message.find("bigint out of range") != std::string::npos) {
    return "int64 overflow (" + r.message + ")";
  }
  return r.message;
}

std::string CacheKey(const EndpointDef& e, const ValidatedParams& p, bool redact) {
  std::string key = e.id + '\n' + e.version + '\n' + p.canonical + '\n';
  if (p.sql) {
    key += "sql:" + *p.sql;
  } else if (p.lql) {
    key += "lql:" + *p.lql;
  }
  key += redact ? "\nredacted" : "\nplain";
  return key;
}

// An error about a known endpoint: the access log names it.
GatewayError About(const EndpointDef& endpoint, GatewayError error) {
  error.endpoint = endpoint.name;
  return error;
}

std::variant<Prepared, GatewayError> PrepareQuery(const Request& request, const Route& route,
                                                  RawParams raw, const GatewayState& state) {
  std::optional<std::string> api_key_param;
  if (auto it = raw.find("api_key"); it != raw.end()) api_key_param = it->second;
  std::string token = ExtractToken(request, api_key_param ? &*api_key_param : nullptr);
  if (token.empty()) return MakeError(401, "missing API key", "unauthorized");
  const ApiKey* key = FindApiKey(state.config.api_keys, token);
  if (key == nullptr) return MakeError(401, "invalid API key", "unauthorized");
  const EndpointDef* endpoint = FindEndpoint(state, route);
  if (endpoint == nullptr) {
    return MakeError(404, "no endpoint named " + route.endpoint, "not_found");
  }
  if (!KeyAllows(*key, *endpoint)) {
    return About(*endpoint, MakeError(403, "this API key may not run endpoint " + endpoint->name,
                                      "forbidden"));
  }
  bool query_has_consumer = raw.contains("sql") || raw.contains("lql");
  bool body_params = request.method == "POST" || (endpoint->sandbox && !query_has_consumer);
  if (body_params && request.body.find_first_not_of(" \t\r\n") != std::string::npos) {
    if (auto error = MergeJsonBody(request.body, &raw)) {
      return About(*endpoint, MakeError(400, *error, "invalid_body"));
    }
  }
  auto validated = ValidateParams(*endpoint, raw);
  if (auto* error = std::get_if<GatewayError>(&validated)) {
    return About(*endpoint, std::move(*error));
  }
  Prepared prepared;
  prepared.endpoint = endpoint;
  prepared.api_key = key->name;
  prepared.params = std::move(std::get<ValidatedParams>(validated));
  if (!endpoint->sandbox && (prepared.params.sql || prepared.params.lql)) {
    const bool sql = prepared.params.sql.has_value();
    return About(*endpoint,
                 MakeError(400,
                           SandboxRefusal(*endpoint, sql ? ConsumerQuery::Language::kSql
                                                         : ConsumerQuery::Language::kLql),
                           "sandbox_disabled", {{"parameter", sql ? "sql" : "lql"}}));
  }
  const std::string* redact_header = request.Header(kRedactHeader);
  if (redact_header == nullptr) redact_header = request.Header(kLegacyRedactHeader);
  prepared.redact = RedactionEnabled(redact_header, endpoint->redact_pii);
  prepared.cache_key = CacheKey(*endpoint, prepared.params, prepared.redact);
  return prepared;
}

GatewayError FromQueryFailure(const QueryResult& r, const EndpointDef& e, int timeout_ms,
                              const std::string& sql, Metrics* metrics) {
  switch (r.status) {
    case QueryStatus::kTimeout:
      return MakeError(504,
                       "the query of endpoint " + e.name + " timed out after " +
                           std::to_string(timeout_ms) + " ms",
                       "timeout");
    case QueryStatus::kCancelled:
      // Never sent: the client is gone (or the server is stopping); the log shows it.
      return MakeError(499, "the client closed the connection before the query finished",
                       "client_closed");
    case QueryStatus::kUnavailable: {
      if (!r.shard.empty()) {
        GatewayError error = MakeError(503,
                                       "shard " + r.shard +
                                           " is unavailable; this query reads partitions stored "
                                           "on it; retry shortly",
                                       "shard_unavailable", {{"shard", r.shard}});
        error.headers.emplace_back("Retry-After", "5");
        return error;
      }
      GatewayError error =
          MakeError(503, "the database is unavailable; retry shortly", "unavailable");
      error.headers.emplace_back("Retry-After", "5");
      return error;
    }
    case QueryStatus::kBadQuery:
      return MakeError(400, "the query failed: " + BadQueryMessage(r), "query_error",
                       {{"sqlstate", r.sqlstate}});
    case QueryStatus::kTooExpensive:
      return MakeError(400,
                       "the query exceeds a database resource limit (" + r.message +
                           "); narrow the time range or simplify the query",
                       "resource_limit", {{"sqlstate", r.sqlstate}});
    case QueryStatus::kTranslatorBug:
      if (metrics != nullptr) metrics->CountTranslatorBug();
      spdlog::error(
          "translator bug: PostgreSQL refused the SQL lqe emitted for endpoint {}: {} ({}); SQL: "
          "{}",
          e.name, r.message, r.sqlstate, sql);
      return MakeError(500,
                       "PostgreSQL refused the SQL lqe translated this query into (" + r.message +
                           "); this is a bug in lqe, not in your query",
                       "translator_bug", {{"sqlstate", r.sqlstate}});
    default:
      return MakeError(500, "the query failed: " + r.message, "backend_error",
                       {{"sqlstate", r.sqlstate}});
  }
}

// Result columns in output order: sorted by name, the last duplicate winning, as the reference
// service returns them. Only the first `count` columns take part.
std::vector<std::size_t> SortedColumns(const Translation& t, std::size_t count) {
  std::map<std::string_view, std::size_t> sorted;
  for (std::size_t i = 0; i < count && i < t.columns.size(); ++i) sorted[t.columns[i].name] = i;
  std::vector<std::size_t> order;
  order.reserve(sorted.size());
  for (const auto& [name, index] : sorted) order.push_back(index);
  return order;
}

// Writes {"result":[...]} straight from the result rows, in one pass; a ClickHouse endpoint's
// values as ClickHouse's JSON output writes them.
std::string RenderBody(const Translation& t, const ResultRows& rows, bool redact,
                       SqlDialect language) {
  // One allocation for the whole body: the values' text plus room for keys and wrapping.
  std::size_t estimate = 16;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < rows.Columns(r); ++c) {
      auto text = rows.Cell(r, c);
      estimate += (text ? text->size() + text->size() / 8 : 4) + 32;
    }
  }
  std::string body;
  body.reserve(estimate);
  body.append("{\"result\":[");
  std::vector<std::size_t> order;
  std::size_t order_for = static_cast<std::size_t>(-1);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (std::size_t columns = rows.Columns(r); columns != order_for) {
      order = SortedColumns(t, columns);
      order_for = columns;
    }
    body.append(r == 0 ? "{" : ",{");
    for (std::size_t k = 0; k < order.size(); ++k) {
      if (k > 0) body.push_back(',');
      const OutputColumn& column = t.columns[order[k]];
      AppendJsonString(body, column.name);
      body.push_back(':');
      if (language == SqlDialect::kClickHouse) {
        AppendClickHouseValue(body, *column.type, rows.Cell(r, order[k]), redact);
      } else {
        AppendValue(body, *column.type, rows.Cell(r, order[k]), redact);
      }
    }
    body.push_back('}');
  }
  body.append("]}");
  return body;
}

// gzip_level 0: no compressed copy (the client does not want one and it is not cached).
ResultPtr RenderResult(const Translation& t, const QueryResult& r, bool redact, int gzip_level,
                       SqlDialect language) {
  std::string body = RenderBody(t, r.rows, redact, language);
  std::string gzip_body;
  if (gzip_level > 0 && body.size() >= 1024) gzip_body = Gzip(body, gzip_level);
  return MakeCachedResult(body, gzip_body, r.truncated);
}

}  // namespace

std::variant<Prepared, GatewayError> Prepare(const Request& request, const Route& route,
                                             RawParams raw, const GatewayState& state) {
  return PrepareQuery(request, route, std::move(raw), state);
}

// A 200 from the result's pre-serialised form: the response shares the buffer with the cache.
Response OkResponse(const Request& request, const ResultPtr& result) {
  Response response;
  const bool gzip = result->HasGzip() && AcceptsGzip(request);
  response.wire = std::shared_ptr<const WireForm>(result, gzip ? &result->gzip : &result->plain);
  response.body_is_gzip = gzip;
  return response;
}

Response RespondFromLookup(const Request& request, const Prepared& p, const CacheLookup& lookup) {
  const auto* result = std::get_if<ResultPtr>(&lookup.outcome);
  // Built once (no temporary to move from): this runs for every cache hit.
  Response response = result != nullptr ? OkResponse(request, *result)
                                        : ToResponse(std::get<GatewayError>(lookup.outcome));
  if (p.endpoint->cache_seconds > 0 && response.status == 200) {
    response.headers.reserve(response.headers.size() + 2);
    response.cache_state = CacheStateName(lookup.state);
    response.AddHeader("X-Cache", response.cache_state);
    response.AddHeader("Age", std::to_string(lookup.age.count()));
  }
  response.endpoint_name = p.endpoint->name;
  return response;
}

namespace {

// The translation to run: the stored one, or the stored query sandboxed with the consumer's
// sql/lql. On a refusal returns the 400.
std::variant<std::shared_ptr<const Translation>, GatewayError> ChooseTranslation(const Prepared& p,
                                                                                 Context& context) {
  const EndpointDef& e = *p.endpoint;
  if (!p.params.sql && !p.params.lql) return e.translation;
  ConsumerQuery consumer;
  consumer.language = p.params.sql ? ConsumerSqlLanguage(e) : ConsumerQuery::Language::kLql;
  consumer.text = p.params.sql ? *p.params.sql : *p.params.lql;
  TranslateOptions options =
      EndpointTranslateOptions(e, *context.state->catalog, consumer, context.now());
  if (const auto it = context.state->stored_queries.find(e.name);
      it != context.state->stored_queries.end()) {
    options.stored_cache = it->second.get();
  }
  TranslateResult result = Translate(e.query, options);
  if (!result.ok()) {
    const Diagnostic& d = result.error();
    return DiagnosticError(d, d.source == DiagSource::kStored ? std::string_view(e.query)
                                                              : std::string_view(consumer.text));
  }
  return std::make_shared<const Translation>(std::move(result.value()));
}

// Values for $1..$n in order; RE2 patterns converted for Postgres. On a bad pattern, the 400.
std::variant<std::vector<std::optional<std::string>>, GatewayError> BindArgs(const Translation& t,
                                                                             const Prepared& p) {
  std::vector<std::optional<std::string>> args;
  for (const BoundParam& bp : t.params) {
    auto it = p.params.values.find(bp.name);
    std::optional<std::string> value = it == p.params.values.end() ? std::nullopt : it->second;
    if (value && bp.transform == ParamTransform::kRegexPattern) {
      RegexConversion converted = ConvertRe2ToPosix(*value);
      if (!converted.error.empty()) {
        return MakeError(
            400, "invalid regular expression in parameter " + bp.name + ": " + converted.error,
            "invalid_parameter", {{"parameter", bp.name}});
      }
      value = converted.pattern;
    }
    args.push_back(std::move(value));
  }
  return args;
}

// The per-key cap on uncached queries: `max_queries_per_key`, or half the pool.
int QueriesPerKey(const Config& config) {
  if (config.max_queries_per_key > 0) return config.max_queries_per_key;
  return std::max(1, config.pool_size / 2);
}

Response Refuse(const EndpointDef& e, GatewayError error) {
  error.endpoint = e.name;
  return ToResponse(error);
}

}  // namespace

Response RunPrepared(const Request& request, const Prepared& p, Context& context) {
  const EndpointDef& e = *p.endpoint;
  auto chosen = ChooseTranslation(p, context);
  if (auto* refusal = std::get_if<GatewayError>(&chosen)) return Refuse(e, std::move(*refusal));
  auto translation = std::get<std::shared_ptr<const Translation>>(chosen);
  if (!translation) {
    return Refuse(e, MakeError(500, "endpoint " + e.name + " has no translated query", "internal"));
  }
  auto bound = BindArgs(*translation, p);
  if (auto* error = std::get_if<GatewayError>(&bound)) return Refuse(e, std::move(*error));
  auto args = std::get<std::vector<std::optional<std::string>>>(std::move(bound));
  int limit = QueriesPerKey(context.state->config);
  std::optional<KeyLimiter::Slot> slot = context.key_limiter != nullptr
                                             ? context.key_limiter->TryAcquire(p.api_key, limit)
                                             : std::nullopt;
  if (context.key_limiter != nullptr) {
    if (!slot) {
      GatewayError busy =
          MakeError(429,
                    "API key " + p.api_key + " already has " + std::to_string(limit) +
                        " queries running; retry when one has finished",
                    "too_many_queries");
      busy.headers.emplace_back("Retry-After", "1");
      return Refuse(e, std::move(busy));
    }
  }
  const Config& config = context.state->config;
  // Cached results keep a well-compressed copy for every later hit; an uncached one is
  // compressed quickly, and only for a client that asked.
  bool cached = e.cache_seconds > 0 && context.cache != nullptr;
  int gzip_level = cached ? 6 : (AcceptsGzip(request) ? 1 : 0);
  // A cached result is shared with other callers and the warmer: only shutdown cancels it. An
  // uncached one is this caller's alone and stops when the caller hangs up.
  std::shared_ptr<QueryCancel> cancel = cached ? context.shared_cancel : context.cancel;
  // The loaders may outlive this request (the warmer keeps one): they hold the snapshot that owns
  // the endpoint, never references to the request.
  auto make_loader = [&](int timeout_ms) -> Loader {
    return [translation, args, run_query = context.run_query, metrics = context.metrics,
            state = context.state, &e, timeout_ms, redact = p.redact, gzip_level,
            cancel]() -> LoadOutcome {
      QueryResult r = run_query(translation->pg_sql, args, e.max_rows, timeout_ms, cancel.get());
      if (metrics != nullptr) metrics->QueryTime().Observe(r.seconds);
      if (r.status != QueryStatus::kOk) {
        return FromQueryFailure(r, e, timeout_ms, translation->pg_sql, metrics);
      }
      return RenderResult(*translation, r, redact, gzip_level, e.language);
    };
  };
  Loader loader = make_loader(config.statement_timeout_ms);
  if (!cached) {
    return RespondFromLookup(request, p, CacheLookup{loader(), CacheState::kBypass, {}});
  }
  CachePolicy policy;
  policy.ttl = std::chrono::seconds(e.cache_seconds);
  if (e.cache_warming_seconds) policy.warming = std::chrono::seconds(*e.cache_warming_seconds);
  // Warming has its own timeout: nobody waits for it, and callers keep the previous result.
  Loader refresher = make_loader(e.cache_warming_timeout_ms.value_or(config.warming_timeout_ms));
  return RespondFromLookup(request, p,
                           context.cache->GetOrLoad(p.cache_key, e.id, policy, loader, refresher));
}

}  // namespace lqe::gateway
