#include "logapi/log_api.h"

#include <spdlog/spdlog.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <charconv>

#include "logapi/bucket_size.h"
#include "logapi/counted_hits.h"
#include "logapi/filter_sql.h"
#include "logapi/log_request.h"
#include "lqe/gateway/auth.h"
#include "management/openapi.h"
#include "tail/tail_hub.h"

namespace lqe::gateway::logapi {
namespace {

namespace json = boost::json;

constexpr std::string_view kOpenApiPath = "/api/endpoints/openapi.json";
// Cached answers are short-lived: a range that ends now keeps filling.
constexpr std::chrono::seconds kCacheSeconds{5};

std::string_view ApiName(LogApi api) {
  switch (api) {
    case LogApi::kEvents:
      return "events";
    case LogApi::kHits:
      return "hits";
    case LogApi::kFacets:
      return "facets";
  }
  return "";
}

struct Sql {
  std::string text;
  SqlParams params;
};

std::int64_t ToInt(const std::optional<std::string_view>& text) {
  std::int64_t value = 0;
  if (text) std::from_chars(text->data(), text->data() + text->size(), value);
  return value;
}

json::value ParseJson(const std::optional<std::string_view>& text) {
  if (!text) return nullptr;
  std::error_code ec;
  json::value value = json::parse(*text, ec);
  return ec ? json::value(nullptr) : value;
}

// The value a facet groups by: one JSON value per event ('null' when the event has none).
std::string FacetValue(const LogRequest& r, SqlParams& params) {
  const std::string& column = r.field_path.front();
  if (column == "metadata" || column == "extra") {
    return "coalesce(jsonb_path_query_first(e." + column + ", " +
           params.Add(JsonPath(r.field_path, 1)) + "::jsonpath), 'null'::jsonb)";
  }
  return "coalesce(to_jsonb(e." + column + "), 'null'::jsonb)";
}

std::variant<Sql, GatewayError> BuildSql(const LogRequest& r, const Buckets& buckets,
                                         std::chrono::system_clock::time_point now) {
  if (r.api == LogApi::kHits) {
    SqlParams unused;
    auto condition = FilterCondition(r.lql, now, unused);
    if (auto* text = std::get_if<std::string>(&condition); text != nullptr && *text == "TRUE") {
      Sql counted;
      if (auto counted_sql = CountedHitsSql(r, buckets, counted.params)) {
        counted.text = std::move(*counted_sql);
        return counted;
      }
    }
  }
  Sql sql;
  // The bucket and facet parameters come first, in the order the text uses them.
  std::string select;
  std::string tail;
  switch (r.api) {
    case LogApi::kEvents:
      select =
          "SELECT e.id, (extract(epoch FROM e.\"timestamp\") * 1000000)::bigint, e.event_message, "
          "e.project, e.metadata::text, e.extra::text";
      tail = " ORDER BY e.\"timestamp\" DESC, e.id DESC LIMIT " + std::to_string(r.limit);
      break;
    case LogApi::kHits:
      select = "SELECT ((extract(epoch FROM e.\"timestamp\") * 1000000)::bigint - " +
               sql.params.Add(std::to_string(buckets.first_micros)) + "::bigint) / " +
               sql.params.Add(std::to_string(buckets.seconds * 1000000)) +
               "::bigint AS b, count(*)";
      tail = " GROUP BY 1";
      break;
    case LogApi::kFacets:
      select = "SELECT " + FacetValue(r, sql.params) + " AS value, count(*) AS n";
      tail = " GROUP BY 1";
      break;
  }
  const std::string range =
      "e.\"timestamp\" >= " + sql.params.Add(tail::IsoMicros(r.start_micros)) +
      "::timestamptz AND e.\"timestamp\" < " + sql.params.Add(tail::IsoMicros(r.end_micros)) +
      "::timestamptz";
  auto condition = FilterCondition(r.lql, now, sql.params);
  if (auto* diag = std::get_if<Diagnostic>(&condition)) {
    GatewayError error = DiagnosticError(*diag, r.lql);
    error.details["parameter"] = "lql";
    return error;
  }
  // The table name comes from the config's sources (checked to [a-z0-9_]).
  sql.text = select + " FROM logs.\"" + r.table + "\" AS e WHERE " + range + " AND " +
             std::get<std::string>(condition) + tail;
  if (r.api == LogApi::kFacets) {
    sql.text = "SELECT g.value::text, g.n, sum(g.n) OVER () FROM (" + sql.text +
               ") AS g ORDER BY g.n DESC, g.value::text LIMIT " + std::to_string(r.limit);
  }
  return sql;
}

std::string EventsBody(const ResultRows& rows) {
  json::array events;
  events.reserve(rows.size());
  for (std::size_t n = 0; n < rows.size(); ++n) {
    auto cell = [&](std::size_t c) { return rows.Cell(n, c); };
    json::object event;
    event["id"] = cell(0) ? json::value(*cell(0)) : json::value(nullptr);
    event["timestamp"] = tail::IsoMicros(ToInt(cell(1)));
    event["event_message"] = cell(2) ? json::value(*cell(2)) : json::value(nullptr);
    event["project"] = cell(3) ? json::value(*cell(3)) : json::value(nullptr);
    json::value metadata = ParseJson(cell(4));
    event["metadata"] = metadata.is_object() ? std::move(metadata) : json::object();
    json::value extra = ParseJson(cell(5));
    event["extra"] = extra.is_object() ? std::move(extra) : json::object();
    events.push_back(std::move(event));
  }
  json::object body;
  body["events"] = std::move(events);
  return json::serialize(body);
}

std::string HitsBody(const LogRequest& r, const Buckets& buckets, const ResultRows& rows) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(buckets.count), 0);
  std::int64_t total = 0;
  for (std::size_t n = 0; n < rows.size(); ++n) {
    const std::int64_t b = ToInt(rows.Cell(n, 0));
    const std::int64_t count = ToInt(rows.Cell(n, 1));
    if (b >= 0 && b < buckets.count) counts[static_cast<std::size_t>(b)] += count;
    total += count;
  }
  json::array hits;
  hits.reserve(counts.size());
  const std::int64_t size = buckets.seconds * 1000000;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    json::object hit;
    hit["timestamp"] = tail::IsoMicros(buckets.first_micros + static_cast<std::int64_t>(i) * size);
    hit["count"] = counts[i];
    hits.push_back(std::move(hit));
  }
  json::object body;
  body["start"] = tail::IsoMicros(r.start_micros);
  body["end"] = tail::IsoMicros(r.end_micros);
  body["bucket_seconds"] = buckets.seconds;
  body["total"] = total;
  body["hits"] = std::move(hits);
  return json::serialize(body);
}

std::string FacetsBody(const LogRequest& r, const ResultRows& rows) {
  json::array values;
  std::int64_t shown = 0;
  std::int64_t total = 0;
  for (std::size_t n = 0; n < rows.size(); ++n) {
    json::object value;
    value["value"] = ParseJson(rows.Cell(n, 0));
    const std::int64_t count = ToInt(rows.Cell(n, 1));
    value["count"] = count;
    shown += count;
    total = ToInt(rows.Cell(n, 2));
    values.push_back(std::move(value));
  }
  json::object body;
  body["field"] = r.field;
  body["values"] = std::move(values);
  body["other"] = total - shown;
  return json::serialize(body);
}

GatewayError QueryFailure(const QueryResult& r, const LogRequest& request, int timeout_ms) {
  switch (r.status) {
    case QueryStatus::kTimeout:
      return MakeError(504,
                       "the " + std::string(ApiName(request.api)) + " query timed out after " +
                           std::to_string(timeout_ms) + " ms; narrow the time range or the filter",
                       "timeout");
    case QueryStatus::kCancelled:
      return MakeError(499, "the client closed the connection before the query finished",
                       "client_closed");
    case QueryStatus::kUnavailable: {
      GatewayError error =
          MakeError(503, "the database is unavailable; retry shortly", "unavailable");
      error.headers.emplace_back("Retry-After", "5");
      return error;
    }
    case QueryStatus::kBadQuery:
      return MakeError(400, "the query failed: " + r.message, "query_error",
                       {{"sqlstate", r.sqlstate}});
    case QueryStatus::kTooExpensive:
      return MakeError(400,
                       "the query exceeds a database resource limit (" + r.message +
                           "); narrow the time range or the filter",
                       "resource_limit", {{"sqlstate", r.sqlstate}});
    default:
      spdlog::error("/api/logs/{} on {} failed: {} ({})", ApiName(request.api), request.table,
                    r.message, r.sqlstate);
      return MakeError(500, "the query failed: " + r.message, "backend_error",
                       {{"sqlstate", r.sqlstate}});
  }
}

std::string CacheKey(const LogRequest& r) {
  std::string key = "logapi\x1f";
  for (const std::string& part : {std::string(ApiName(r.api)), r.table, r.lql,
                                  std::to_string(r.start_micros), std::to_string(r.end_micros),
                                  std::to_string(r.limit), std::to_string(r.buckets), r.field}) {
    key += part;
    key += '\x1f';
  }
  return key;
}

Response Run(const LogRequest& r, Context& context) {
  const Buckets buckets =
      r.api == LogApi::kHits ? ChooseBuckets(r.start_micros, r.end_micros, r.buckets) : Buckets{};
  auto built = BuildSql(r, buckets, context.now());
  if (auto* error = std::get_if<GatewayError>(&built)) return ToResponse(*error);
  auto sql = std::make_shared<const Sql>(std::get<Sql>(std::move(built)));
  const bool cached = r.range_given && context.cache != nullptr;
  const int timeout_ms = context.state->config.statement_timeout_ms;
  std::shared_ptr<QueryCancel> cancel = cached ? context.shared_cancel : context.cancel;
  Loader loader = [sql, r, buckets, timeout_ms, cancel,
                   run_query = context.run_query]() -> LoadOutcome {
    QueryResult result = run_query(sql->text, sql->params.values(), -1, timeout_ms, cancel.get());
    if (result.status != QueryStatus::kOk) return QueryFailure(result, r, timeout_ms);
    std::string body;
    switch (r.api) {
      case LogApi::kEvents:
        body = EventsBody(result.rows);
        break;
      case LogApi::kHits:
        body = HitsBody(r, buckets, result.rows);
        break;
      case LogApi::kFacets:
        body = FacetsBody(r, result.rows);
        break;
    }
    return MakeCachedResult(body, "", false);
  };
  CacheLookup lookup;
  if (cached) {
    CachePolicy policy;
    policy.ttl = kCacheSeconds;
    lookup = context.cache->GetOrLoad(CacheKey(r), "logapi:" + r.table, policy, loader);
  } else {
    lookup = CacheLookup{loader(), CacheState::kBypass, {}};
  }
  if (auto* error = std::get_if<GatewayError>(&lookup.outcome)) return ToResponse(*error);
  Response response;
  response.body = std::string(std::get<ResultPtr>(lookup.outcome)->body());
  response.cache_state = CacheStateName(lookup.state);
  response.AddHeader("X-Cache", response.cache_state);
  response.endpoint_name = "logs/" + std::string(ApiName(r.api));
  return response;
}

const ApiKey* CallerKey(const Request& request, const RawParams& raw, const GatewayState& state) {
  const std::string* api_key_param = nullptr;
  if (auto it = raw.find("api_key"); it != raw.end()) api_key_param = &it->second;
  return FindApiKey(state.config.api_keys, ExtractToken(request, api_key_param));
}

std::string PathOf(const Request& request, RawParams* raw) {
  std::string path;
  if (!ParseQueryString(request.target, &path, raw)) return {};
  return path;
}

}  // namespace

bool IsLogApiPath(std::string_view path) {
  return path == kOpenApiPath || LogApiOf(path).has_value();
}

FastOutcome HandleFast(const Request& request, const RawParams& raw, Context& context) {
  RawParams ignored;
  const std::string path = PathOf(request, &ignored);
  if (path == kOpenApiPath) {
    // Any valid key: the document names only the endpoints that key may run.
    if (CallerKey(request, raw, *context.state) == nullptr) {
      return ToResponse(MakeError(401, "missing or invalid API key", "unauthorized"));
    }
    return PendingRequest{PendingRequest::Kind::kLogApi, {}, {}, {}};
  }
  auto parsed = ParseLogRequest(*LogApiOf(path), request, raw, *context.state, context.now());
  if (auto* error = std::get_if<GatewayError>(&parsed)) return ToResponse(*error);
  // The LQL's positioned errors before a worker is taken.
  SqlParams params;
  auto condition = FilterCondition(std::get<LogRequest>(parsed).lql, context.now(), params);
  if (auto* diag = std::get_if<Diagnostic>(&condition)) {
    GatewayError error = DiagnosticError(*diag, std::get<LogRequest>(parsed).lql);
    error.details["parameter"] = "lql";
    return ToResponse(error);
  }
  return PendingRequest{PendingRequest::Kind::kLogApi, {}, {}, {}};
}

Response Handle(const Request& request, Context& context) {
  RawParams raw;
  const std::string path = PathOf(request, &raw);
  const GatewayState& state = *context.state;
  if (path == kOpenApiPath) {
    const ApiKey* key = CallerKey(request, raw, state);
    if (key == nullptr) {
      return ToResponse(MakeError(401, "missing or invalid API key", "unauthorized"));
    }
    Response response;
    response.body = management::EndpointsOpenApiDocument(state, *key);
    return response;
  }
  auto api = LogApiOf(path);
  if (!api) return ToResponse(MakeError(404, "no route for " + path, "not_found"));
  auto parsed = ParseLogRequest(*api, request, raw, state, context.now());
  if (auto* error = std::get_if<GatewayError>(&parsed)) return ToResponse(*error);
  return Run(std::get<LogRequest>(parsed), context);
}

}  // namespace lqe::gateway::logapi
