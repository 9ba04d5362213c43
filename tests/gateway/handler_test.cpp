// Handlers without sockets: routes, CORS, auth matrix, parameter and sandbox errors, statuses
// from query failures, cache headers under a fake clock, redaction, truncation and gzip.
#include "lqe/gateway/handler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/parse.hpp>

#include "lqe/base/utf8.h"
#include "support.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

std::string Message(const Response& r) {
  return std::string(boost::json::parse(r.Body()).at("error").at("message").as_string());
}

class HandlerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto logs = MakeEndpoint("logs.all", "SELECT $1",
                             {Col("id", TypeKind::kString), Col("timestamp", TypeKind::kTimestamp)},
                             {"project"});
    AddParam(*logs, "project", ParamType::kString, true);
    logs->sandbox = true;
    auto counts = MakeEndpoint("usage.api-counts", "SELECT counts",
                               {Col("timestamp", TypeKind::kDatetime), Col("n", TypeKind::kInt64)});
    AddParam(*counts, "interval", ParamType::kEnum, true, {"minutely", "hourly", "daily"});
    counts->cache_seconds = 900;
    counts->cache_warming_seconds = 300;
    counts_ = counts;
    auto limited = MakeEndpoint("limited.ep", "SELECT limited", {Col("ip", TypeKind::kString)});
    limited->max_rows = 2;
    state_ = MakeState({logs, counts, limited});
    context_.state = state_;
    context_.cache = cache_.get();
    context_.run_query = [this](const std::string& sql,
                                const std::vector<std::optional<std::string>>& params, int max_rows,
                                int timeout_ms, QueryCancel* /*cancel*/) {
      ++queries_;
      timeouts_.push_back(timeout_ms);
      last_sql_ = sql;
      last_params_ = params;
      QueryResult r = next_;
      if (r.status == QueryStatus::kOk && static_cast<int>(r.rows.size()) > max_rows) {
        r.rows.Truncate(static_cast<std::size_t>(max_rows));
        r.truncated = true;
      }
      return r;
    };
    context_.ready = [this] { return ready_; };
    context_.metrics_text = [] { return std::string("lqe_requests_total 1\n"); };
    next_.rows = {{"a", "2024-01-02 03:04:05.123456+00"}};
  }

  Response Run(const Request& r) { return Handle(r, context_); }
  // The fast path's answer, or nullopt when it hands the request to a worker.
  std::optional<Response> Fast(const Request& r) {
    FastOutcome outcome = HandleFast(r, context_);
    if (auto* response = std::get_if<Response>(&outcome)) return std::move(*response);
    return std::nullopt;
  }

  FakeClock clock_;
  std::unique_ptr<ResultCache> cache_ = MakeInProcessCache(clock_, 1 << 20);
  std::shared_ptr<GatewayState> state_;
  Context context_;
  QueryResult next_;
  int queries_ = 0;
  std::vector<int> timeouts_;  // of every query run, in order
  std::shared_ptr<EndpointDef> counts_;
  bool ready_ = true;
  std::string last_sql_;
  std::vector<std::optional<std::string>> last_params_;
};

TEST_F(HandlerTest, RunsByNameAndByIdAndLegacyRoutes) {
  const std::string id = state_->by_name.at("logs.all")->id;
  for (const std::string& path : std::vector<std::string>{
           "/api/endpoints/query/logs.all", "/api/endpoints/query/" + id,
           "/endpoints/query/logs.all", "/api/endpoints/query/name/logs.all",
           "/api/endpoints/query/logs.all/", "/api/endpoints/query/" + id + "/",
           "/endpoints/query/logs.all/", "/api/endpoints/query/name/logs.all/"}) {
    Response r = Run(Get(path + "?project=p1"));
    EXPECT_EQ(r.status, 200) << path << r.Body();
    EXPECT_EQ(r.Body(), R"({"result":[{"id":"a","timestamp":1704164645123456}]})");
  }
  EXPECT_EQ(last_params_, (std::vector<std::optional<std::string>>{"p1"}));
  EXPECT_EQ(last_sql_, "SELECT $1");
}

TEST_F(HandlerTest, AuthMatrix) {
  Response none = Run(Get("/api/endpoints/query/logs.all?project=p", ""));
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(Message(none), "missing API key");
  Response wrong = Run(Get("/api/endpoints/query/logs.all?project=p", "nope"));
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(Message(wrong), "invalid API key");
  EXPECT_EQ(Run(Get("/api/endpoints/query/missing", "nope")).status,
            401);  // no lookup without a key
  Response missing = Run(Get("/api/endpoints/query/missing"));
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(Message(missing), "no endpoint named missing");
  Response forbidden = Run(Get("/api/endpoints/query/logs.all?project=p", kLimitedKey));
  EXPECT_EQ(forbidden.status, 403);
  EXPECT_EQ(Message(forbidden), "this API key may not run endpoint logs.all");
  EXPECT_EQ(Run(Get("/api/endpoints/query/limited.ep", kLimitedKey)).status, 200);
  Request bearer = Get("/api/endpoints/query/logs.all?project=p", "");
  bearer.headers["authorization"] = std::string("Bearer ") + kTestKey;
  EXPECT_EQ(Run(bearer).status, 200);
  Response param =
      Run(Get("/api/endpoints/query/logs.all?project=p&api_key=" + std::string(kTestKey), ""));
  EXPECT_EQ(param.status, 200);
  EXPECT_EQ(queries_, 3);
}

TEST_F(HandlerTest, ParameterErrorsComeBeforeAnyQuery) {
  Response missing = Run(Get("/api/endpoints/query/usage.api-counts"));
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(Message(missing), "missing required parameter interval");
  Response bad = Run(Get("/api/endpoints/query/usage.api-counts?interval=weekly"));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Message(bad),
            "invalid value for parameter interval: expected one of minutely, hourly, daily");
  Response extra = Run(Get("/api/endpoints/query/usage.api-counts?interval=daily&x=1"));
  EXPECT_EQ(extra.status, 400);
  EXPECT_EQ(Message(extra), "unknown parameter x (declared: interval)");
  Response sandbox = Run(Get("/api/endpoints/query/limited.ep?sql=select%201"));
  EXPECT_EQ(sandbox.status, 400);
  EXPECT_EQ(Message(sandbox),
            "endpoint limited.ep does not accept a sql parameter (sandboxing is off)");
  Response lql = Run(Get("/api/endpoints/query/limited.ep?lql=f:x"));
  EXPECT_EQ(Message(lql),
            "endpoint limited.ep does not accept a lql parameter (sandboxing is off)");
  EXPECT_EQ(queries_, 0);
}

TEST_F(HandlerTest, PostBodyParams) {
  Request post = Get("/api/endpoints/query/logs.all");
  post.method = "POST";
  post.body = R"({"project":"from-body"})";
  EXPECT_EQ(Run(post).status, 200);
  EXPECT_EQ(last_params_[0], "from-body");
  post.body = "[]";
  Response bad = Run(post);
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Message(bad), "the request body must be a JSON object");
}

TEST_F(HandlerTest, QueryFailuresMapToStatuses) {
  next_ = {};
  next_.status = QueryStatus::kTimeout;
  Response timeout = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(timeout.status, 504);
  EXPECT_EQ(Message(timeout), "the query of endpoint logs.all timed out after 15000 ms");
  next_.status = QueryStatus::kUnavailable;
  Response down = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(down.status, 503);
  EXPECT_EQ(Header(down, "Retry-After"), "5");
  EXPECT_EQ(Message(down), "the database is unavailable; retry shortly");
  next_.status = QueryStatus::kBadQuery;
  next_.message = "division by zero";
  Response bad = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Message(bad), "the query failed: division by zero");
  next_.status = QueryStatus::kFailed;
  next_.message = "could not write block";
  Response failed = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(failed.status, 500);
  EXPECT_EQ(Message(failed), "the query failed: could not write block");
  next_.status = QueryStatus::kTooExpensive;
  next_.message = "requested length too large";
  next_.sqlstate = "54000";
  Response big = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(big.status, 400);
  EXPECT_EQ(Message(big),
            "the query exceeds a database resource limit (requested length too large); narrow the "
            "time range or simplify the query");
  EXPECT_EQ(big.reason, "resource_limit");
  EXPECT_EQ(big.endpoint_name, "logs.all");
  next_.status = QueryStatus::kTranslatorBug;
  next_.message = "function bq_nope(bigint) does not exist";
  next_.sqlstate = "42883";
  Metrics metrics;
  context_.metrics = &metrics;
  Response bug = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(bug.status, 500);
  EXPECT_EQ(Message(bug),
            "PostgreSQL refused the SQL lqe translated this query into (function bq_nope(bigint) "
            "does not exist); this is a bug in lqe, not in your query");
  EXPECT_EQ(bug.reason, "translator_bug");
  EXPECT_NE(metrics.Render({}, 0, 0).find("\nlqe_translator_bugs_total 1\n"), std::string::npos);
  next_.status = QueryStatus::kCancelled;
  Response gone = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(gone.status, 499);  // never sent: the session drops the connection
  EXPECT_EQ(gone.reason, "client_closed");
}

TEST_F(HandlerTest, OneKeyMayRunOnlyItsShareOfThePool) {
  KeyLimiter limiter;
  context_.key_limiter = &limiter;
  state_->config.pool_size = 4;  // default share: 2
  auto first = limiter.TryAcquire("all", 2);
  auto second = limiter.TryAcquire("all", 2);
  ASSERT_TRUE(first && second);
  Response busy = Run(Get("/api/endpoints/query/logs.all?project=p"));
  EXPECT_EQ(busy.status, 429);
  EXPECT_EQ(Message(busy),
            "API key all already has 2 queries running; retry when one has finished");
  EXPECT_EQ(Header(busy, "Retry-After"), "1");
  EXPECT_EQ(queries_, 0);
  state_->config.max_queries_per_key = 3;
  EXPECT_EQ(Run(Get("/api/endpoints/query/logs.all?project=p")).status, 200);
  EXPECT_EQ(limiter.Running("all"), 2);  // the request's slot was given back
  first.reset();
  state_->config.max_queries_per_key = 0;
  EXPECT_EQ(Run(Get("/api/endpoints/query/logs.all?project=p")).status, 200);
}

TEST_F(HandlerTest, TheFastPathHandsTheWorkerAPreparedRequest) {
  Request r = Get("/api/endpoints/query/logs.all?project=p7");
  FastOutcome fast = HandleFast(r, context_);
  ASSERT_TRUE(std::holds_alternative<PendingRequest>(fast));
  const PendingRequest& pending = std::get<PendingRequest>(fast);
  EXPECT_EQ(pending.kind, PendingRequest::Kind::kQuery);
  EXPECT_EQ(pending.query.endpoint->name, "logs.all");
  EXPECT_EQ(pending.query.api_key, "all");
  EXPECT_EQ(pending.query.params.values.at("project"), "p7");
  // The worker does not authenticate again: a key removed in between does not matter to it.
  state_->config.api_keys.clear();
  Response done = HandlePending(r, pending, context_);
  EXPECT_EQ(done.status, 200);
  EXPECT_EQ(last_params_[0], "p7");
  EXPECT_EQ(std::get<PendingRequest>(HandleFast(Get("/ready"), context_)).kind,
            PendingRequest::Kind::kReady);
  EXPECT_EQ(Fast(Get("/health"))->Body(), R"({"status":"ok"})");
}

TEST_F(HandlerTest, ErrorsNameTheirEndpointAndReasonForTheAccessLog) {
  Response missing = Run(Get("/api/endpoints/query/logs.all"));
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.endpoint_name, "logs.all");
  EXPECT_EQ(missing.reason, "missing_parameter");
  Response unknown = Run(Get("/api/endpoints/query/nope"));
  EXPECT_EQ(unknown.endpoint_name, "");
  EXPECT_EQ(unknown.reason, "not_found");
  Response forbidden = Run(Get("/api/endpoints/query/logs.all?project=p", kLimitedKey));
  EXPECT_EQ(forbidden.endpoint_name, "logs.all");
  EXPECT_EQ(forbidden.reason, "forbidden");
}

TEST_F(HandlerTest, CacheHeadersAndFastPath) {
  next_.rows = {{"2024-01-02 03:04:00", "7"}};
  Request r = Get("/api/endpoints/query/usage.api-counts?interval=hourly");
  EXPECT_FALSE(Fast(r).has_value());  // miss needs the worker path
  Response miss = Run(r);
  EXPECT_EQ(Header(miss, "X-Cache"), "MISS");
  EXPECT_EQ(miss.Body(), R"({"result":[{"n":7,"timestamp":"2024-01-02T03:04:00"}]})");
  clock_.Advance(std::chrono::seconds(42));
  auto hit = Fast(r);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->status, 200);
  EXPECT_EQ(Header(*hit, "X-Cache"), "HIT");
  EXPECT_EQ(Header(*hit, "Age"), "42");
  EXPECT_EQ(hit->Body(), miss.Body());
  clock_.Advance(std::chrono::seconds(300));
  EXPECT_EQ(Header(Run(r), "X-Cache"), "STALE");
  EXPECT_EQ(queries_, 1);
  // Another parameter value is another entry; uncached endpoints send no X-Cache.
  EXPECT_EQ(Header(Run(Get("/api/endpoints/query/usage.api-counts?interval=daily")), "X-Cache"),
            "MISS");
  EXPECT_EQ(Header(Run(Get("/api/endpoints/query/logs.all?project=p")), "X-Cache"), "<absent>");
}

TEST_F(HandlerTest, CacheWarmingRunsUnderItsOwnTimeout) {
  auto fill_and_warm = [&](const std::string& interval) {
    Request r = Get("/api/endpoints/query/usage.api-counts?interval=" + interval);
    EXPECT_EQ(Header(Run(r), "X-Cache"), "MISS");
    clock_.Advance(std::chrono::seconds(300));
    EXPECT_EQ(Header(Run(r), "X-Cache"), "STALE");
    cache_->RunWarming([](const std::function<void()>& job) { job(); });
    EXPECT_EQ(Header(Run(r), "X-Cache"), "HIT");
  };
  // A caller's query runs under statement_timeout_ms, the refresh under warming_timeout_ms ...
  fill_and_warm("hourly");
  EXPECT_EQ(timeouts_, (std::vector<int>{15000, 60000}));
  // ... or under the endpoint's own cache_warming_timeout_ms.
  // (The hourly entry, requested since its refresh, is refreshed again alongside: the loader it
  // was filled with keeps the warming timeout it was made with.)
  counts_->cache_warming_timeout_ms = 2500;
  state_->config.statement_timeout_ms = 700;
  timeouts_.clear();
  fill_and_warm("daily");
  std::sort(timeouts_.begin(), timeouts_.end());
  EXPECT_EQ(timeouts_, (std::vector<int>{700, 2500, 60000}));
}

TEST_F(HandlerTest, HitMemoRepeatsOnlyTheSameDecision) {
  HitMemo memo;
  context_.memo = &memo;
  next_.rows = {{"2024-01-02 03:04:00", "7"}};
  const std::string target = "/api/endpoints/query/usage.api-counts?interval=hourly";
  Request r = Get(target);
  EXPECT_FALSE(Fast(r).has_value());  // a miss is never remembered
  EXPECT_EQ(memo.size(), 0u);
  Response miss = Run(r);
  auto first = Fast(r);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(memo.size(), 1u);
  // The memo answers without preparing again: a parameter rule changed behind its back (which a
  // real reload never does in place) is not re-checked for the same request...
  auto counts = std::const_pointer_cast<EndpointDef>(state_->by_name.at("usage.api-counts"));
  counts->params.at("interval").values = {"daily"};
  auto again = Fast(r);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(Header(*again, "X-Cache"), "HIT");
  EXPECT_EQ(again->Body(), miss.Body());
  EXPECT_EQ(again->endpoint_name, "usage.api-counts");
  // ...but any other credentials or redaction headers are prepared from scratch.
  EXPECT_EQ(Fast(Get(target, "nope"))->status, 401);
  EXPECT_EQ(Fast(Get(target, kLimitedKey))->status, 403);
  Request bearer = Get(target, "");
  bearer.headers["authorization"] = std::string("Bearer ") + kTestKey;
  EXPECT_EQ(Fast(bearer)->status, 400);  // the changed rule applies here
  Request redacted = Get(target);
  redacted.headers["svc-endpoint-redact-pii"] = "true";
  EXPECT_EQ(Fast(redacted)->status, 400);
  Request posted = Get(target);
  posted.body = "{}";
  EXPECT_EQ(Fast(posted)->status, 400);
  // A new config snapshot empties the memo; a dropped cache entry is never served from it.
  counts->params.at("interval").values = {"hourly"};
  context_.cache->InvalidateEndpoint(counts->id);
  EXPECT_FALSE(Fast(r).has_value());
  context_.state = MakeState({counts});
  EXPECT_FALSE(Fast(r).has_value());
  EXPECT_EQ(memo.size(), 0u);
  EXPECT_EQ(queries_, 1);
}

TEST_F(HandlerTest, HitMemoKeys) {
  HitMemo memo;
  // The key as a value: KeyFor reuses its buffer.
  auto key_of = [&memo](const Request& request) -> std::optional<std::string> {
    const std::string* key = memo.KeyFor(request);
    return key == nullptr ? std::nullopt : std::optional<std::string>(*key);
  };
  Request r = Get("/api/endpoints/query/x?a=1");
  auto key = key_of(r);
  ASSERT_TRUE(key.has_value());
  Request empty_header = r;
  empty_header.headers["lf-endpoint-redact-pii"] = "";
  EXPECT_NE(key_of(empty_header), key);  // present-but-empty differs from absent
  Request other_key = Get("/api/endpoints/query/x?a=1", "other");
  EXPECT_NE(key_of(other_key), key);
  EXPECT_EQ(key_of(r), key);
  Request post = r;
  post.method = "POST";
  EXPECT_FALSE(key_of(post).has_value());
  Request long_target = Get("/api/endpoints/query/x?a=" + std::string(HitMemo::kMaxKeyBytes, 'a'));
  EXPECT_FALSE(key_of(long_target).has_value());
}

TEST_F(HandlerTest, ErrorsAreNotCached) {
  next_.status = QueryStatus::kTimeout;
  Request r = Get("/api/endpoints/query/usage.api-counts?interval=hourly");
  EXPECT_EQ(Run(r).status, 504);
  next_.status = QueryStatus::kOk;
  next_.rows = {{"2024-01-02 03:04:00", "1"}};
  EXPECT_EQ(Run(r).status, 200);
  EXPECT_EQ(queries_, 2);
}

TEST_F(HandlerTest, RedactionByHeaderAndSeparateCacheEntries) {
  next_.rows = {{"2024-01-02 03:04:00", "1"}};
  auto counts = std::const_pointer_cast<EndpointDef>(state_->by_name.at("usage.api-counts"));
  counts->translation = std::make_shared<Translation>(
      Translation{"SELECT ip", {}, {Col("ip", TypeKind::kString)}, {}});
  next_.rows = {{"client 10.1.2.3 said hi"}};
  Request plain = Get("/api/endpoints/query/usage.api-counts?interval=hourly");
  Request redacted = plain;
  redacted.headers["svc-endpoint-redact-pii"] = "TRUE";
  Request lf = plain;
  lf.headers["lf-endpoint-redact-pii"] = "true";
  EXPECT_EQ(Run(plain).Body(), R"({"result":[{"ip":"client 10.1.2.3 said hi"}]})");
  EXPECT_EQ(Run(redacted).Body(), R"({"result":[{"ip":"client REDACTED said hi"}]})");
  EXPECT_EQ(Header(Run(lf), "X-Cache"), "HIT");  // same redacted entry
  EXPECT_EQ(Run(plain).Body(), R"({"result":[{"ip":"client 10.1.2.3 said hi"}]})");
  EXPECT_EQ(queries_, 2);
}

TEST_F(HandlerTest, EndpointRedactionCanBeSwitchedOffPerRequest) {
  auto limited = std::const_pointer_cast<EndpointDef>(state_->by_name.at("limited.ep"));
  limited->redact_pii = true;
  next_.rows = {{"mail ann@example.com"}};
  EXPECT_EQ(Run(Get("/api/endpoints/query/limited.ep")).Body(),
            R"({"result":[{"ip":"mail REDACTED"}]})");
  Request off = Get("/api/endpoints/query/limited.ep");
  off.headers["svc-endpoint-redact-pii"] = "yes";
  EXPECT_EQ(Run(off).Body(), R"({"result":[{"ip":"mail ann@example.com"}]})");
}

TEST_F(HandlerTest, MaxRowsCutsAndSaysSo) {
  next_.rows = {{"1"}, {"2"}, {"3"}};
  Response r = Run(Get("/api/endpoints/query/limited.ep"));
  EXPECT_EQ(r.Body(), R"({"result":[{"ip":"1"},{"ip":"2"}]})");
  EXPECT_EQ(Header(r, "X-Result-Truncated"), "true");
  next_.rows = {{"1"}, {"2"}};
  EXPECT_EQ(Header(Run(Get("/api/endpoints/query/limited.ep")), "X-Result-Truncated"), "<absent>");
}

TEST_F(HandlerTest, GzipWhenAccepted) {
  next_.rows = ResultRows(std::vector<ResultRows::Row>(200, {"some repeated text"}));
  auto limited = std::const_pointer_cast<EndpointDef>(state_->by_name.at("limited.ep"));
  limited->max_rows = 1000;
  Request r = Get("/api/endpoints/query/limited.ep");
  r.headers["accept-encoding"] = "gzip, deflate";
  Response gz = Run(r);
  EXPECT_TRUE(gz.body_is_gzip);
  EXPECT_EQ(static_cast<unsigned char>(gz.Body()[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(gz.Body()[1]), 0x8b);
  EXPECT_EQ(Header(gz, "Vary"), "Accept-Encoding");
  r.headers["accept-encoding"] = "gzip;q=0";
  EXPECT_FALSE(Run(r).body_is_gzip);
}

TEST_F(HandlerTest, CorsPreflightAndHeaders) {
  Request options = Get("/api/endpoints/query/logs.all", "");
  options.method = "OPTIONS";
  Response pre = Run(options);
  FinishResponse(options, pre);
  EXPECT_EQ(pre.status, 204);
  EXPECT_EQ(Header(pre, "Access-Control-Allow-Origin"), "*");
  EXPECT_NE(Header(pre, "Access-Control-Allow-Headers").find("SVC-ENDPOINT-REDACT-PII"),
            std::string::npos);
  EXPECT_NE(Header(pre, "Access-Control-Allow-Headers").find("LF-ENDPOINT-REDACT-PII"),
            std::string::npos);
  EXPECT_NE(Header(pre, "Access-Control-Allow-Headers").find("X-API-KEY"), std::string::npos);
  // Supabase Studio sends x-client-info on every request.
  EXPECT_NE(Header(pre, "Access-Control-Allow-Headers").find("X-Client-Info"), std::string::npos);
  EXPECT_EQ(Header(pre, "Access-Control-Allow-Methods"), "GET, POST, OPTIONS");
}

TEST_F(HandlerTest, OperationalRoutesAndUnknowns) {
  EXPECT_EQ(Run(Get("/health", "")).Body(), R"({"status":"ok"})");
  EXPECT_EQ(Run(Get("/ready", "")).status, 200);
  ready_ = false;
  Response not_ready = Run(Get("/ready", ""));
  EXPECT_EQ(not_ready.status, 503);
  EXPECT_EQ(Message(not_ready), "the database is unreachable");
  Response metrics = Run(Get("/metrics", ""));
  EXPECT_EQ(metrics.content_type, "text/plain; version=0.0.4; charset=utf-8");
  Response nowhere = Run(Get("/nowhere", ""));
  EXPECT_EQ(nowhere.status, 404);
  EXPECT_EQ(Message(nowhere), "no route for /nowhere");
  // One trailing slash is accepted on endpoint routes (RunsByName...), not two.
  Response two_slashes = Run(Get("/api/endpoints/query/logs.all//?project=p1"));
  EXPECT_EQ(two_slashes.status, 404);
  EXPECT_EQ(Message(two_slashes), "no route for /api/endpoints/query/logs.all//");
  // A target whose decoded path is not UTF-8 is refused before routing; and any message that
  // echoes request bytes has them replaced by U+FFFD, so error bodies are always valid JSON.
  Response bad_bytes = Run(Get("/api/endpoints/query/x%FF%C3y"));
  EXPECT_EQ(bad_bytes.status, 400);
  EXPECT_EQ(Message(bad_bytes), "malformed request target");
  Response echoed = ToResponse(MakeError(404, "no route for /x\xFF\xC3y", "not_found"));
  EXPECT_TRUE(lqe::IsValidUtf8(echoed.Body())) << echoed.Body();
  EXPECT_EQ(Message(echoed), "no route for /x\xEF\xBF\xBD\xEF\xBF\xBDy");
  Request del = Get("/api/endpoints/query/logs.all");
  del.method = "DELETE";
  Response d = Run(del);
  EXPECT_EQ(d.status, 405);
  EXPECT_EQ(Message(d), "method DELETE is not allowed here");
  Request legacy_post = Get("/endpoints/query/logs.all?project=p");
  legacy_post.method = "POST";
  EXPECT_EQ(Run(legacy_post).status, 405);
  Response bad_target = Run(Get("no-slash", ""));
  EXPECT_EQ(bad_target.status, 400);
  EXPECT_EQ(Message(bad_target), "malformed request target");
  Response error_shape = Run(Get("/api/endpoints/query/logs.all", ""));
  auto body = boost::json::parse(error_shape.Body());
  EXPECT_EQ(body.at("error").at("code").as_int64(), 401);
  EXPECT_EQ(body.at("error").at("status").as_string(), "UNAUTHENTICATED");
}

}  // namespace
}  // namespace lqe::gateway
