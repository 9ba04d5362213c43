// The gateway over a real socket against real Postgres (LQE_TEST_DSN): auth, params, max_rows,
// timeouts, redaction, cache headers, reload, limits, keep-alive, graceful shutdown, and
// Postgres going down and coming back. Endpoints here carry hand-written PostgreSQL as their
// translation so these tests do not depend on the translator.
#include "lqe/gateway/server.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <cstdio>
#include <pqxx/pqxx>
#include <thread>

#include "http_client.h"
#include "lqe_build_info.h"
#include "server_fixture.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { CreateLogs(db_.dsn()); }
  lqe::testing::TestDatabase db_{"gateway"};
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
};

TEST_F(ServerTest, AuthStatusesOverTheWire) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpResult none = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(ErrorMessage(none), "missing API key");
  EXPECT_EQ(
      Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1", {{"X-API-KEY", "bad"}}).status,
      401);
  HttpResult forbidden =
      Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1", {{"X-API-KEY", kLimitedKey}});
  EXPECT_EQ(forbidden.status, 403);
  HttpResult missing = Fetch(s.port(), "/api/endpoints/query/nope", kAuth);
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(ErrorMessage(missing), "no endpoint named nope");
  EXPECT_EQ(none.Header("access-control-allow-origin"), "*");
}

TEST_F(ServerTest, ParamErrors) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpResult missing = Fetch(s.port(), "/api/endpoints/query/edge.list", kAuth);
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(ErrorMessage(missing), "missing required parameter project");
  HttpResult extra = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1&since=x", kAuth);
  EXPECT_EQ(extra.status, 400);
  EXPECT_EQ(ErrorMessage(extra), "unknown parameter since (declared: project)");
}

TEST_F(ServerTest, RowsRenderedAndCutAtMaxRows) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpResult r = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1", kAuth);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("x-result-truncated"), "true");
  // Five p1 rows newest first, cut to max_rows = 3: e4 (10:00:04), e5 (:03), e2 (:02).
  const std::int64_t base = 1736935200000000;  // 2025-01-15T10:00:00Z in µs
  auto body = boost::json::parse(r.body);
  const auto& rows = body.at("result").as_array();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("id").as_string(), "e4");
  EXPECT_EQ(rows[0].at("timestamp").as_int64(), base + 4000000);
  EXPECT_EQ(rows[1].at("id").as_string(), "e5");
  EXPECT_EQ(rows[2].at("id").as_string(), "e2");
  EXPECT_EQ(rows[2].at("metadata").at(0).at("request").at(0).at("method").as_string(), "POST");
  HttpResult p2 = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p2", kAuth);
  EXPECT_EQ(p2.Header("x-result-truncated"), "<absent>");
  EXPECT_EQ(boost::json::parse(p2.body).at("result").as_array().size(), 1u);
}

TEST_F(ServerTest, StatementTimeoutGives504) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpResult r = Fetch(s.port(), "/api/endpoints/query/slow", kAuth);
  EXPECT_EQ(r.status, 504);
  EXPECT_EQ(ErrorMessage(r), "the query of endpoint slow timed out after 1500 ms");
}

TEST_F(ServerTest, ReadOnlyTransaction) {
  PgPool pool(db_.dsn(), 1, 2000);
  QueryResult r = RunQuery(pool, "INSERT INTO logs.edge (id) VALUES ('w')", {}, -1, 1000);
  EXPECT_EQ(r.status, QueryStatus::kFailed);
  EXPECT_EQ(r.sqlstate, "25006");
  QueryResult tz = RunQuery(
      pool, "SELECT current_setting('TimeZone'), current_setting('DateStyle')", {}, 10, 1000);
  ASSERT_EQ(tz.status, QueryStatus::kOk);
  EXPECT_EQ(tz.rows.Cell(0, 0), "UTC");
  EXPECT_EQ(tz.rows.Cell(0, 1), "ISO, YMD");
}

// The planner settings do not depend on the role the gateway logs in as: the test database's
// owner has none of the gateway role's, and the database defaults to jit on and a small
// work_mem, yet every pooled session has jit off and the gateway's work_mem.
TEST_F(ServerTest, PooledSessionsGetThePlannerSettingsWhateverTheRole) {
  {
    pqxx::connection admin(db_.dsn());
    pqxx::nontransaction tx(admin);
    tx.exec("ALTER DATABASE " + tx.quote_name(admin.dbname()) + " SET jit = on");
    tx.exec("ALTER DATABASE " + tx.quote_name(admin.dbname()) + " SET work_mem = '4MB'");
  }
  {
    pqxx::connection plain(db_.dsn());
    pqxx::nontransaction tx(plain);
    ASSERT_EQ(tx.exec1("SHOW jit")[0].as<std::string>(), "on");
  }
  PgPool pool(db_.dsn(), 2, 2000);
  QueryResult r =
      RunQuery(pool, "SELECT current_setting('jit'), current_setting('work_mem')", {}, 10, 1000);
  ASSERT_EQ(r.status, QueryStatus::kOk);
  EXPECT_EQ(r.rows.Cell(0, 0), "off");
  EXPECT_EQ(r.rows.Cell(0, 1), "64MB");
  // A second session opened while the first is leased gets them too.
  PgPool::Lease first = pool.Acquire(std::chrono::milliseconds(1000), 1000);
  PgPool::Lease second = pool.Acquire(std::chrono::milliseconds(1000), 1000);
  pqxx::nontransaction tx(*second);
  EXPECT_EQ(tx.exec1("SHOW jit")[0].as<std::string>(), "off");
}

TEST_F(ServerTest, RedactionHeader) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  auto headers = kAuth;
  headers["SVC-ENDPOINT-REDACT-PII"] = "true";
  HttpResult r = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1", headers);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.body.find("10.0.0.1"), std::string::npos);
  HttpResult plain = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1", kAuth);
  (void)plain;
  // e1 is beyond max_rows; check it through a redacted count-free read of all rows instead.
  PgPool pool(db_.dsn(), 1, 2000);
  EXPECT_EQ(
      RunQuery(pool, "SELECT 1 FROM logs.edge WHERE event_message LIKE '%10.0.0.1%'", {}, 10, 1000)
          .rows.size(),
      1u);
}

TEST_F(ServerTest, CacheHitsDoNotTouchPostgres) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpResult miss = Fetch(s.port(), "/api/endpoints/query/edge.count", kAuth);
  ASSERT_EQ(miss.status, 200) << miss.body;
  EXPECT_EQ(miss.Header("x-cache"), "MISS");
  EXPECT_EQ(miss.body, R"({"result":[{"n":6}]})");
  pqxx::connection c(db_.dsn());
  pqxx::work tx(c);
  tx.exec("INSERT INTO logs.edge (id, project) VALUES ('new', 'p1')");
  tx.commit();
  HttpResult hit = Fetch(s.port(), "/api/endpoints/query/edge.count", kAuth);
  EXPECT_EQ(hit.Header("x-cache"), "HIT");
  EXPECT_EQ(hit.Header("age"), "0");
  EXPECT_EQ(hit.body, R"({"result":[{"n":6}]})");
  HttpResult metrics = Fetch(s.port(), "/metrics");
  EXPECT_NE(metrics.body.find("lqe_requests_total{endpoint=\"edge.count\",status=\"200\"} 2"),
            std::string::npos)
      << metrics.body;
  EXPECT_NE(metrics.body.find("lqe_cache_hits_total 1"), std::string::npos);
}

// A cached result on the wire, byte for byte: the per-request lines (cache state, age, the
// Connection header each version needs) ahead of the pre-serialised head and body.
TEST_F(ServerTest, CachedResponsesOnTheWireByteForByte) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  RawConnection c(s.port());
  ASSERT_TRUE(c.Connected());
  const std::string get = "GET /api/endpoints/query/edge.count HTTP/1.1\r\nHost: x\r\nX-API-KEY: " +
                          std::string(kTestKey) + "\r\nX-Request-Id: r1\r\n";
  const std::string rest =
      "Server: lqe/" LQE_VERSION
      "\r\n"
      "Content-Type: application/json; charset=utf-8\r\n"
      "Access-Control-Allow-Origin: *\r\n"
      "Access-Control-Expose-Headers: X-Cache, Age, X-Result-Truncated, Retry-After\r\n"
      "Content-Length: 20\r\n"
      "\r\n"
      R"({"result":[{"n":6}]})";
  ASSERT_TRUE(c.Send(get + "\r\n"));
  EXPECT_EQ(c.ReadResponse(),
            "HTTP/1.1 200 OK\r\nX-Cache: MISS\r\nAge: 0\r\nX-Request-Id: r1\r\n" + rest);
  ASSERT_TRUE(c.Send(get + "\r\n"));
  EXPECT_EQ(c.ReadResponse(),
            "HTTP/1.1 200 OK\r\nX-Cache: HIT\r\nAge: 0\r\nX-Request-Id: r1\r\n" + rest);
  std::string http10 = get + "Connection: keep-alive\r\n\r\n";
  http10.replace(http10.find("HTTP/1.1"), 8, "HTTP/1.0");
  ASSERT_TRUE(c.Send(http10));
  EXPECT_EQ(c.ReadResponse(),
            "HTTP/1.0 200 OK\r\nX-Cache: HIT\r\nAge: 0\r\nX-Request-Id: r1\r\nConnection: "
            "keep-alive\r\n" +
                rest);
  ASSERT_TRUE(c.Send(get + "Connection: close\r\n\r\n"));
  EXPECT_EQ(
      c.ReadResponse(),
      "HTTP/1.1 200 OK\r\nX-Cache: HIT\r\nAge: 0\r\nX-Request-Id: r1\r\nConnection: close\r\n" +
          rest);
  EXPECT_TRUE(c.ClosedByServer());
  // Credentials are still checked on a hit.
  RawConnection other(s.port());
  ASSERT_TRUE(other.Send(
      "GET /api/endpoints/query/edge.count HTTP/1.1\r\nHost: x\r\nX-API-KEY: nope\r\n\r\n"));
  std::string refused = other.ReadResponse();
  EXPECT_EQ(StatusOf(refused), 401);
  EXPECT_EQ(MessageOf(refused), "invalid API key");
}

TEST_F(ServerTest, ReloadDropsChangedEndpointsAndKeepsOldConfigOnError) {
  std::string dsn = db_.dsn();
  bool fail = false;
  std::string next_sql = "SELECT count(*) FROM logs.edge WHERE project = 'p2'";
  StateBuilder builder = [&](std::string* error) -> std::shared_ptr<GatewayState> {
    if (fail) {
      *error = "gw.yaml:3: broken";
      return nullptr;
    }
    return TestState(dsn, metrics_.get(), next_sql);
  };
  RunningServer s(TestState(dsn, metrics_.get()), metrics_, builder);
  EXPECT_EQ(Fetch(s.port(), "/api/endpoints/query/edge.count", kAuth).body,
            R"({"result":[{"n":6}]})");
  fail = true;
  EXPECT_EQ(s.server().Reload(), "gw.yaml:3: broken");
  HttpResult still = Fetch(s.port(), "/api/endpoints/query/edge.count", kAuth);
  EXPECT_EQ(still.Header("x-cache"), "HIT");
  fail = false;
  EXPECT_EQ(s.server().Reload(), "");
  HttpResult changed = Fetch(s.port(), "/api/endpoints/query/edge.count", kAuth);
  EXPECT_EQ(changed.Header("x-cache"), "MISS");
  EXPECT_EQ(changed.body, R"({"result":[{"n":1}]})");
}

TEST_F(ServerTest, ReloadOntoAnotherDatabaseUsesANewPoolAndDropsCachedResults) {
  lqe::testing::TestDatabase other("gateway_other");
  CreateLogs(other.dsn());
  {
    pqxx::connection c(other.dsn());
    pqxx::work tx(c);
    tx.exec("DELETE FROM logs.edge WHERE project = 'p1'");
    tx.commit();
  }
  std::string dsn = db_.dsn();
  StateBuilder builder = [&](std::string* /*error*/) {
    auto next = TestState(dsn, metrics_.get());
    next->config.pool_size = 2;
    return next;
  };
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_, builder);
  EXPECT_EQ(Fetch(s.port(), "/api/endpoints/query/edge.count", kAuth).body,
            R"({"result":[{"n":6}]})");
  EXPECT_NE(Fetch(s.port(), "/metrics").body.find("lqe_pool_size 4"), std::string::npos);
  dsn = other.dsn();
  EXPECT_EQ(s.server().Reload(), "");
  HttpResult moved = Fetch(s.port(), "/api/endpoints/query/edge.count", kAuth);
  EXPECT_EQ(moved.Header("x-cache"), "MISS");
  EXPECT_EQ(moved.body, R"({"result":[{"n":1}]})");
  HttpResult list = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p1", kAuth);
  EXPECT_EQ(list.status, 200);
  EXPECT_EQ(list.body, R"({"result":[]})");
  EXPECT_NE(Fetch(s.port(), "/metrics").body.find("lqe_pool_size 2"), std::string::npos);
}

TEST_F(ServerTest, GzipBodiesDecodeToThePlainBodyWithCurl) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpResult plain = Fetch(s.port(), "/api/endpoints/query/wide", kAuth);
  ASSERT_EQ(plain.status, 200);
  ASSERT_GT(plain.body.size(), 10000u);
  EXPECT_EQ(plain.Header("content-encoding"), "<absent>");
  // curl decodes with zlib, independently of the compressor the gateway uses.
  std::string url = "http://127.0.0.1:" + std::to_string(s.port()) + "/api/endpoints/query/wide";
  std::string curl = "curl -s -H \"X-API-KEY: " + std::string(kTestKey) + "\" ";
  EXPECT_EQ(Sh(curl + "--compressed " + url), plain.body);
  std::string headers = Sh(curl + "-H \"Accept-Encoding: gzip\" -o /dev/null -D - " + url);
  EXPECT_NE(headers.find("Content-Encoding: gzip"), std::string::npos) << headers;
  std::string size =
      Sh(curl + "-H \"Accept-Encoding: gzip\" -o /dev/null -w %{size_download} " + url);
  EXPECT_LT(std::stoul(size), plain.body.size() / 4) << size;
}

TEST_F(ServerTest, OversizedUrlAndHeadersGetStatusesNotResets) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpResult url =
      Fetch(s.port(), "/api/endpoints/query/edge.list?project=" + std::string(20000, 'a'), kAuth);
  EXPECT_EQ(url.error, "");
  EXPECT_EQ(url.status, 414);
  EXPECT_EQ(ErrorMessage(url), "the request URL is too long");
  HttpResult medium =
      Fetch(s.port(), "/api/endpoints/query/edge.list?project=" + std::string(9000, 'a'), kAuth);
  EXPECT_EQ(medium.status, 414);
  auto big = kAuth;
  big["X-Filler"] = std::string(20000, 'b');
  HttpResult headers = Fetch(s.port(), "/health", big);
  EXPECT_EQ(headers.error, "");
  EXPECT_EQ(headers.status, 431);
  EXPECT_EQ(ErrorMessage(headers), "the request headers are too large");
}

TEST_F(ServerTest, KeepAliveGzipAndPost) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpConnection c(s.port());
  for (int i = 0; i < 3; ++i) {
    HttpResult r = c.Send("GET", "/health");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, R"({"status":"ok"})");
  }
  auto headers = kAuth;
  headers["Content-Type"] = "application/json";
  HttpResult post =
      c.Send("POST", "/api/endpoints/query/edge.list", headers, R"({"project":"p2"})");
  EXPECT_EQ(post.status, 200);
  EXPECT_NE(post.body.find("\"x1\""), std::string::npos);
  HttpResult pre = c.Send("OPTIONS", "/api/endpoints/query/edge.list");
  EXPECT_EQ(pre.status, 204);
  EXPECT_EQ(pre.Header("access-control-allow-origin"), "*");
}

TEST_F(ServerTest, GracefulShutdownFinishesInFlightRequests) {
  auto s = std::make_unique<RunningServer>(TestState(db_.dsn(), metrics_.get()), metrics_);
  unsigned short port = s->port();
  HttpResult in_flight;
  std::thread client([&] { in_flight = Fetch(port, "/api/endpoints/query/sleepy", kAuth); });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  s.reset();  // Stop() and join: waits for the sleeping query
  client.join();
  EXPECT_EQ(in_flight.status, 200) << in_flight.error;
  EXPECT_EQ(in_flight.body, R"({"result":[{"n":1}]})");
}

TEST_F(ServerTest, PostgresDownGives503AndThePoolRecovers) {
  std::string lib = lqe::testing::SourcePath("deploy/lib/pg-cluster.sh");
  std::string dir = Sh("mktemp -d");
  Sh("chmod 755 " + dir);
  ASSERT_EQ(Sh("source " + lib + "; pg_cluster_init " + dir + "/pg >/dev/null && echo ok"), "ok");
  // A free port may be taken by another test's server before ours binds it: try another one.
  std::string port;
  std::string started;
  for (int attempt = 0; attempt < 5 && started != "started"; ++attempt) {
    port = Sh("source " + lib + "; pg_free_port");
    std::string start = "source " + lib;
    start.append("; pg_cluster_start ").append(dir).append("/pg ").append(port);
    start.append(" >/dev/null 2>&1 && echo started");
    started = Sh(start);
  }
  ASSERT_EQ(started, "started");
  std::string dsn = "host=127.0.0.1 port=" + port + " user=postgres dbname=postgres";
  CreateLogs(dsn);
  RunningServer s(TestState(dsn, metrics_.get()), metrics_);
  std::string target = "/api/endpoints/query/edge.list?project=p2";
  EXPECT_EQ(Fetch(s.port(), target, kAuth).status, 200);
  Sh("source " + lib + "; pg_cluster_stop " + dir + "/pg");
  HttpResult down = Fetch(s.port(), target, kAuth);
  EXPECT_EQ(down.status, 503);
  EXPECT_EQ(down.Header("retry-after"), "5");
  EXPECT_EQ(ErrorMessage(down), "the database is unavailable; retry shortly");
  EXPECT_EQ(Fetch(s.port(), "/ready").status, 503);
  EXPECT_EQ(Fetch(s.port(), "/health").status, 200);
  Sh("source " + lib + "; pg_cluster_start " + dir + "/pg " + port);
  HttpResult back = Fetch(s.port(), target, kAuth);
  EXPECT_EQ(back.status, 200) << back.body;
  EXPECT_EQ(Fetch(s.port(), "/ready").status, 200);
  Sh("source " + lib + "; pg_cluster_stop " + dir + "/pg; rm -rf " + dir);
}

}  // namespace
}  // namespace lqe::gateway
