// How query failures reach the caller, over a real socket against real Postgres: every SQLSTATE
// class a caller's query can raise has a 4xx/504 (a translator bug is a 500 that says so and is
// counted), a client that hangs up has its query cancelled, shutdown cancels what still runs,
// one API key cannot take the whole pool, and a Postgres restart costs no request once
// Postgres is back.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/json/parse.hpp>
#include <pqxx/pqxx>
#include <thread>

#include "server_fixture.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

class QueryFailureTest : public ::testing::Test {
 protected:
  void SetUp() override { CreateLogs(db_.dsn()); }

  std::shared_ptr<GatewayState> WithEndpoints(
      const std::vector<std::shared_ptr<EndpointDef>>& extra) {
    auto state = TestState(db_.dsn(), metrics_.get());
    for (const auto& e : extra) state->config.endpoints.push_back(e);
    IndexState(*state, metrics_.get());
    return state;
  }

  lqe::testing::TestDatabase db_{"qfail"};
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
};

const std::string kSlowFragment = "generate_series(1, 200000000)";

TEST_F(QueryFailureTest, SqlStateClassesMapToCallerStatuses) {
  auto one = [](const std::string& name, const std::string& sql) {
    return MakeEndpoint(name, sql, {Col("v", TypeKind::kString)});
  };
  RunningServer s(WithEndpoints({
                      one("div0", "SELECT (1 / 0)::text AS v"),
                      one("badcast", "SELECT 'abc'::int::text AS v"),
                      one("overflow", "SELECT (9223372036854775807::bigint + 1)::text AS v"),
                      one("subquery", "SELECT (SELECT g FROM generate_series(1, 2) g)::text AS v"),
                      one("huge", "SELECT repeat('x', 2000000000) AS v"),
                      one("nofn", "SELECT lqe_no_such_function() AS v"),
                      one("syntax", "SELECT FROM WHERE AS v"),
                      one("write", "SELECT nextval('lqe_no_such_sequence')::text AS v"),
                  }),
                  metrics_);
  auto call = [&](const std::string& name) {
    return Fetch(s.port(), "/api/endpoints/query/" + name, kAuth);
  };
  HttpResult div0 = call("div0");
  EXPECT_EQ(div0.status, 400);
  EXPECT_EQ(ErrorMessage(div0), "the query failed: division by zero");
  EXPECT_EQ(ErrorReason(div0), "query_error");
  HttpResult badcast = call("badcast");
  EXPECT_EQ(badcast.status, 400);
  EXPECT_EQ(ErrorMessage(badcast),
            "the query failed: invalid input syntax for type integer: \"abc\"");
  // An INT64 result out of range is named as BigQuery names it.
  HttpResult overflow = call("overflow");
  EXPECT_EQ(overflow.status, 400);
  EXPECT_EQ(ErrorMessage(overflow), "the query failed: int64 overflow (bigint out of range)");
  EXPECT_EQ(ErrorReason(overflow), "query_error");
  HttpResult subquery = call("subquery");
  EXPECT_EQ(subquery.status, 400);
  EXPECT_EQ(ErrorMessage(subquery),
            "the query failed: more than one row returned by a subquery used as an expression");
  HttpResult huge = call("huge");
  EXPECT_EQ(huge.status, 400);
  EXPECT_EQ(ErrorMessage(huge),
            "the query exceeds a database resource limit (requested length too large); narrow "
            "the time range or simplify the query");
  EXPECT_EQ(ErrorReason(huge), "resource_limit");
  HttpResult nofn = call("nofn");
  EXPECT_EQ(nofn.status, 500);
  EXPECT_EQ(ErrorMessage(nofn),
            "PostgreSQL refused the SQL lqe translated this query into (function "
            "lqe_no_such_function() does not exist); this is a bug in lqe, not in your query");
  EXPECT_EQ(ErrorReason(nofn), "translator_bug");
  HttpResult syntax = call("syntax");
  EXPECT_EQ(syntax.status, 500);
  EXPECT_EQ(ErrorReason(syntax), "translator_bug");
  HttpResult write = call("write");
  EXPECT_EQ(write.status, 500);
  EXPECT_EQ(ErrorReason(write), "translator_bug");
  std::string metrics = Fetch(s.port(), "/metrics").body;
  EXPECT_NE(metrics.find("\nlqe_translator_bugs_total 3\n"), std::string::npos) << metrics;
}

TEST_F(QueryFailureTest, ClientHangingUpCancelsItsQuery) {
  auto state = TestState(db_.dsn(), metrics_.get());
  state->config.statement_timeout_ms = 120000;
  RunningServer s(state, metrics_);
  for (int round = 0; round < 3; ++round) {
    RawConnection c(s.port());
    c.Send("GET /api/endpoints/query/slow HTTP/1.1\r\nHost: x\r\nX-API-KEY: " +
           std::string(kTestKey) + "\r\n\r\n");
    ASSERT_EQ(db_.WaitForActiveQueries(kSlowFragment, 1), 1);
    auto hung_up = std::chrono::steady_clock::now();
    c.Close();
    EXPECT_EQ(db_.WaitForActiveQueries(kSlowFragment, 0), 0);
    std::printf(
        "[measure] backend gone %.0f ms after the client hung up\n",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - hung_up)
            .count());
  }
  // The pool is whole again: every connection answers.
  HttpResult list = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p2", kAuth);
  EXPECT_EQ(list.status, 200);
}

TEST_F(QueryFailureTest, ShutdownCancelsRunningQueriesAtTheGraceDeadline) {
  auto state = TestState(db_.dsn(), metrics_.get());
  state->config.statement_timeout_ms = 120000;
  state->config.shutdown_grace_ms = 300;
  auto s = std::make_unique<RunningServer>(state, metrics_);
  RawConnection c(s->port());
  c.Send("GET /api/endpoints/query/slow HTTP/1.1\r\nHost: x\r\nX-API-KEY: " +
         std::string(kTestKey) + "\r\n\r\n");
  ASSERT_EQ(db_.WaitForActiveQueries(kSlowFragment, 1), 1);
  auto stop = std::chrono::steady_clock::now();
  s->StopAndJoin();  // returns only once the worker threads are done
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - stop).count();
  std::printf("[measure] stopped %.0f ms after Stop() with grace 300 ms\n", ms);
  EXPECT_EQ(db_.ActiveQueries(kSlowFragment), 0);
  s.reset();  // the process exiting: its sockets close
  EXPECT_TRUE(c.ClosedByServer());
}

TEST_F(QueryFailureTest, OneKeyCannotTakeTheWholePool) {
  auto state = TestState(db_.dsn(), metrics_.get());
  state->config.statement_timeout_ms = 120000;
  state->config.pool_size = 4;  // default cap: 2 per key
  RunningServer s(state, metrics_);
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::make_unique<RawConnection>(s.port()));
    held.back()->Send("GET /api/endpoints/query/slow HTTP/1.1\r\nHost: x\r\nX-API-KEY: " +
                      std::string(kTestKey) + "\r\n\r\n");
  }
  ASSERT_EQ(db_.WaitForActiveQueries(kSlowFragment, 2), 2);
  HttpResult third = Fetch(s.port(), "/api/endpoints/query/edge.list?project=p2", kAuth);
  EXPECT_EQ(third.status, 429);
  EXPECT_EQ(ErrorMessage(third),
            "API key all already has 2 queries running; retry when one has finished");
  EXPECT_EQ(third.Header("retry-after"), "1");
  // Another key still gets a connection.
  HttpResult other =
      Fetch(s.port(), "/api/endpoints/query/limited.ep", {{"X-API-KEY", kLimitedKey}});
  EXPECT_EQ(other.status, 200);
  held.clear();
  EXPECT_EQ(db_.WaitForActiveQueries(kSlowFragment, 0), 0);
  EXPECT_EQ(Fetch(s.port(), "/api/endpoints/query/edge.list?project=p2", kAuth).status, 200);
}

// A private cluster this test may stop and restart.
class RestartableCluster {
 public:
  RestartableCluster() {
    lib_ = lqe::testing::SourcePath("deploy/lib/pg-cluster.sh");
    dir_ = Sh("mktemp -d");
    Sh("chmod 755 " + dir_);
    if (Sh("source " + lib_ + "; pg_cluster_init " + dir_ + "/pg >/dev/null && echo ok") != "ok") {
      return;
    }
    // A free port can be taken by a test running beside this one before the server binds it:
    // try a fresh one then.
    for (int attempt = 0; attempt < 3 && !started_; ++attempt) {
      port_ = Sh("source " + lib_ + "; pg_free_port");
      started_ = Sh("source " + lib_ + "; pg_cluster_start " + dir_ + "/pg " + port_ +
                    " >/dev/null && echo started") == "started";
    }
  }
  ~RestartableCluster() {
    Sh("source " + lib_ + "; pg_cluster_stop " + dir_ + "/pg; rm -rf " + dir_);
  }
  bool Started() const { return started_; }
  std::string Dsn() const {
    return "host=127.0.0.1 port=" + port_ + " user=postgres dbname=postgres";
  }
  std::string Stop() { return Sh("source " + lib_ + "; pg_cluster_stop " + dir_ + "/pg"); }
  std::string Start() {
    return Sh("source " + lib_ + "; pg_cluster_start " + dir_ + "/pg " + port_);
  }
  std::string Restart() {
    // As pg_cluster_start does, as the cluster's owner; restart keeps the start options.
    return Sh("source " + lib_ + "; cd " + dir_ + " && _pg_as_owner \"$PG_BIN/pg_ctl\" -D " + dir_ +
              "/pg/data -m fast -w restart >/dev/null && echo restarted");
  }

 private:
  std::string lib_, dir_, port_;
  bool started_ = false;
};

TEST_F(QueryFailureTest, NoRequestFailsAfterAPostgresRestart) {
  RestartableCluster cluster;
  ASSERT_TRUE(cluster.Started());
  CreateLogs(cluster.Dsn());
  auto state = TestState(cluster.Dsn(), metrics_.get());
  state->config.max_queries_per_key = 8;
  RunningServer s(state, metrics_);
  const std::string target = "/api/endpoints/query/edge.list?project=p2";
  // Open every pooled connection, so each one goes stale with the restart.
  auto burst = [&] {
    std::vector<std::thread> clients;
    clients.reserve(4);
    std::atomic<int> ok{0};
    for (int i = 0; i < 4; ++i) {
      clients.emplace_back([&] {
        if (Fetch(s.port(), "/api/endpoints/query/sleepy", kAuth).status == 200) ++ok;
      });
    }
    for (auto& t : clients) t.join();
    return ok.load();
  };
  ASSERT_EQ(burst(), 4);
  ASSERT_EQ(cluster.Restart(), "restarted");
  int failures = 0;
  for (int i = 0; i < 20; ++i) {
    HttpResult r = Fetch(s.port(), target, kAuth);
    if (r.status != 200) ++failures;
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(burst(), 4);
}

TEST_F(QueryFailureTest, PostgresStoppedAndRestartedUnderLoad) {
  RestartableCluster cluster;
  ASSERT_TRUE(cluster.Started());
  CreateLogs(cluster.Dsn());
  auto state = TestState(cluster.Dsn(), metrics_.get());
  state->config.max_queries_per_key = 8;
  RunningServer s(state, metrics_);
  const std::string target = "/api/endpoints/query/edge.list?project=p2";
  std::atomic<bool> stop{false};
  std::atomic<int> ok{0}, unavailable{0}, other{0};
  std::vector<std::thread> clients;
  clients.reserve(4);
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back([&] {
      // Bounded: at most 5000 requests per client.
      for (int n = 0; n < 5000 && !stop.load(); ++n) {
        HttpResult r = Fetch(s.port(), target, kAuth);
        if (r.status == 200) {
          ++ok;
        } else if (r.status == 503 &&
                   ErrorMessage(r) == "the database is unavailable; retry shortly") {
          ++unavailable;
        } else {
          ++other;
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  cluster.Stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  cluster.Start();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  stop = true;
  for (auto& t : clients) t.join();
  std::printf("[measure] under load: %d ok, %d unavailable while down, %d other\n", ok.load(),
              unavailable.load(), other.load());
  EXPECT_EQ(other.load(), 0);
  EXPECT_GT(unavailable.load(), 0);
  int failures = 0;
  for (int i = 0; i < 50; ++i) failures += Fetch(s.port(), target, kAuth).status == 200 ? 0 : 1;
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(Fetch(s.port(), "/health").status, 200);
}

}  // namespace
}  // namespace lqe::gateway
