// GET|POST /api/endpoints/query/<id-or-name>: auth, endpoint lookup, parameter validation,
// sandbox translation, cache, execution, rendering and redaction.
#include <spdlog/spdlog.h>

#include <boost/json/serialize.hpp>

#include "handlers/routes.h"
#include "http/gzip.h"
#include "lqe/gateway/auth.h"
#include "lqe/gateway/errors.h"
#include "lqe/gateway/params.h"
#include "lqe/gateway/redact.h"
#include "lqe/gateway/render.h"
#include "lqe/regex.h"

namespace lqe::gateway {
namespace {

namespace json = boost::json;

bool LooksLikeUuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

const EndpointDef* FindEndpoint(const GatewayState& state, const Route& route) {
  if (!route.by_name_only && LooksLikeUuid(route.endpoint)) {
    std::string id(route.endpoint);
    for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto it = state.by_id.find(id);
    if (it != state.by_id.end()) return it->second.get();
  }
  auto it = state.by_name.find(route.endpoint);
  return it == state.by_name.end() ? nullptr : it->second.get();
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

std::variant<Prepared, Response> PrepareQuery(const Request& request, const Route& route,
                                              RawParams raw, const GatewayState& state) {
  std::optional<std::string> api_key_param;
  if (auto it = raw.find("api_key"); it != raw.end()) api_key_param = it->second;
  std::string token = ExtractToken(request, api_key_param ? &*api_key_param : nullptr);
  if (token.empty()) return ErrorResponse(401, "missing API key", {{"reason", "unauthorized"}});
  const ApiKey* key = FindApiKey(state.config.api_keys, token);
  if (key == nullptr) return ErrorResponse(401, "invalid API key", {{"reason", "unauthorized"}});
  const EndpointDef* endpoint = FindEndpoint(state, route);
  if (endpoint == nullptr) {
    return ErrorResponse(404, "no endpoint named " + route.endpoint, {{"reason", "not_found"}});
  }
  if (!KeyAllows(*key, *endpoint)) {
    return ErrorResponse(403, "this API key may not run endpoint " + endpoint->name,
                         {{"reason", "forbidden"}});
  }
  bool query_has_consumer = raw.contains("sql") || raw.contains("lql");
  bool body_params = request.method == "POST" || (endpoint->sandbox && !query_has_consumer);
  if (body_params && request.body.find_first_not_of(" \t\r\n") != std::string::npos) {
    if (auto error = MergeJsonBody(request.body, &raw)) {
      return ErrorResponse(400, *error, {{"reason", "invalid_body"}});
    }
  }
  auto validated = ValidateParams(*endpoint, raw);
  if (auto* error = std::get_if<Response>(&validated)) return std::move(*error);
  Prepared prepared;
  prepared.endpoint = endpoint;
  prepared.params = std::move(std::get<ValidatedParams>(validated));
  if (!endpoint->sandbox && (prepared.params.sql || prepared.params.lql)) {
    const char* which = prepared.params.sql ? "sql" : "lql";
    return ErrorResponse(400,
                         std::string("endpoint ") + endpoint->name + " does not accept a " + which +
                             " parameter (sandboxing is off)",
                         {{"reason", "sandbox_disabled"}, {"parameter", which}});
  }
  const std::string* redact_header = request.Header(kRedactHeader);
  if (redact_header == nullptr) redact_header = request.Header(kLegacyRedactHeader);
  prepared.redact = RedactionEnabled(redact_header, endpoint->redact_pii);
  prepared.cache_key = CacheKey(*endpoint, prepared.params, prepared.redact);
  return prepared;
}

Response FromQueryFailure(const QueryResult& r, const EndpointDef& e, int timeout_ms) {
  switch (r.status) {
    case QueryStatus::kTimeout:
      return ErrorResponse(504,
                           "the query of endpoint " + e.name + " timed out after " +
                               std::to_string(timeout_ms) + " ms",
                           {{"reason", "timeout"}});
    case QueryStatus::kUnavailable: {
      Response response = ErrorResponse(503, "the database is unavailable; retry shortly",
                                        {{"reason", "unavailable"}});
      response.AddHeader("Retry-After", "5");
      return response;
    }
    case QueryStatus::kBadQuery:
      return ErrorResponse(400, "the query failed: " + r.message,
                           {{"reason", "query_error"}, {"sqlstate", r.sqlstate}});
    default:
      return ErrorResponse(500, "the query failed: " + r.message,
                           {{"reason", "backend_error"}, {"sqlstate", r.sqlstate}});
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

// Writes {"result":[...]} straight from the result rows, in one pass.
std::string RenderBody(const Translation& t, const ResultRows& rows, bool redact) {
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
      AppendValue(body, *column.type, rows.Cell(r, order[k]), redact);
    }
    body.push_back('}');
  }
  body.append("]}");
  return body;
}

// gzip_level 0: no compressed copy (the client does not want one and it is not cached).
ResultPtr RenderResult(const Translation& t, const QueryResult& r, bool redact, int gzip_level) {
  auto result = std::make_shared<CachedResult>();
  result->body = RenderBody(t, r.rows, redact);
  if (gzip_level > 0 && result->body.size() >= 1024) {
    result->gzip_body = Gzip(result->body, gzip_level);
  }
  result->truncated = r.truncated;
  return result;
}

}  // namespace

std::variant<Prepared, Response> Prepare(const Request& request, const Route& route, RawParams raw,
                                         const GatewayState& state) {
  return PrepareQuery(request, route, std::move(raw), state);
}

Response OkResponse(const Request& request, const CachedResult& result) {
  Response response;
  if (!result.gzip_body.empty() && AcceptsGzip(request)) {
    response.body = result.gzip_body;
    response.body_is_gzip = true;
  } else {
    response.body = result.body;
  }
  if (!result.gzip_body.empty()) response.AddHeader("Vary", "Accept-Encoding");
  if (result.truncated) response.AddHeader("X-Result-Truncated", "true");
  return response;
}

Response RespondFromLookup(const Request& request, const Prepared& p, const CacheLookup& lookup) {
  Response response;
  if (const auto* result = std::get_if<ResultPtr>(&lookup.outcome)) {
    response = OkResponse(request, **result);
  } else {
    response = std::get<Response>(lookup.outcome);
  }
  if (p.endpoint->cache_seconds > 0 && response.status == 200) {
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
std::variant<std::shared_ptr<const Translation>, Response> ChooseTranslation(const Prepared& p,
                                                                             Context& context) {
  const EndpointDef& e = *p.endpoint;
  if (!p.params.sql && !p.params.lql) return e.translation;
  TranslateOptions options;
  options.catalog = context.state->catalog.get();
  for (const auto& [name, def] : e.params) options.params[name] = ParamSqlType(def.type);
  ConsumerQuery consumer;
  consumer.language = p.params.sql ? ConsumerQuery::Language::kSql : ConsumerQuery::Language::kLql;
  consumer.text = p.params.sql ? *p.params.sql : *p.params.lql;
  options.consumer = consumer;
  options.now = context.now();
  TranslateResult result = Translate(e.query, options);
  if (!result.ok()) {
    const Diagnostic& d = result.error();
    return DiagnosticResponse(d, d.source == DiagSource::kStored ? std::string_view(e.query)
                                                                 : std::string_view(consumer.text));
  }
  return std::make_shared<const Translation>(std::move(result.value()));
}

// Values for $1..$n in order; RE2 patterns converted for Postgres. On a bad pattern, the 400.
std::variant<std::vector<std::optional<std::string>>, Response> BindArgs(const Translation& t,
                                                                         const Prepared& p) {
  std::vector<std::optional<std::string>> args;
  for (const BoundParam& bp : t.params) {
    auto it = p.params.values.find(bp.name);
    std::optional<std::string> value = it == p.params.values.end() ? std::nullopt : it->second;
    if (value && bp.transform == ParamTransform::kRegexPattern) {
      RegexConversion converted = ConvertRe2ToPosix(*value);
      if (!converted.error.empty()) {
        return ErrorResponse(
            400, "invalid regular expression in parameter " + bp.name + ": " + converted.error,
            {{"reason", "invalid_parameter"}, {"parameter", bp.name}});
      }
      value = converted.pattern;
    }
    args.push_back(std::move(value));
  }
  return args;
}

}  // namespace

Response RunPrepared(const Request& request, const Prepared& p, Context& context) {
  const EndpointDef& e = *p.endpoint;
  auto chosen = ChooseTranslation(p, context);
  if (auto* refusal = std::get_if<Response>(&chosen)) return std::move(*refusal);
  auto translation = std::get<std::shared_ptr<const Translation>>(chosen);
  if (!translation) return ErrorResponse(500, "endpoint " + e.name + " has no translated query");
  auto bound = BindArgs(*translation, p);
  if (auto* error = std::get_if<Response>(&bound)) return std::move(*error);
  auto args = std::get<std::vector<std::optional<std::string>>>(std::move(bound));
  int timeout_ms = context.state->config.statement_timeout_ms;
  // Cached results keep a well-compressed copy for every later hit; an uncached one is
  // compressed quickly, and only for a client that asked.
  bool cached = e.cache_seconds > 0 && context.cache != nullptr;
  int gzip_level = cached ? 6 : (AcceptsGzip(request) ? 1 : 0);
  // The loader may outlive this request (the warmer keeps it): it holds the snapshot that owns
  // the endpoint, never references to the request.
  Loader loader = [translation, args = std::move(args), run_query = context.run_query,
                   metrics = context.metrics, state = context.state, &e, timeout_ms,
                   redact = p.redact, gzip_level]() -> LoadOutcome {
    QueryResult r = run_query(translation->pg_sql, args, e.max_rows);
    if (metrics != nullptr) metrics->QueryTime().Observe(r.seconds);
    if (r.status != QueryStatus::kOk) return FromQueryFailure(r, e, timeout_ms);
    return RenderResult(*translation, r, redact, gzip_level);
  };
  if (!cached) {
    return RespondFromLookup(request, p, CacheLookup{loader(), CacheState::kBypass, {}});
  }
  CachePolicy policy;
  policy.ttl = std::chrono::seconds(e.cache_seconds);
  if (e.cache_warming_seconds) policy.warming = std::chrono::seconds(*e.cache_warming_seconds);
  return RespondFromLookup(request, p, context.cache->GetOrLoad(p.cache_key, e.id, policy, loader));
}

}  // namespace lqe::gateway
