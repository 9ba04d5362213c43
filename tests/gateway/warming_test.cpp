// Cache warming against real Postgres under a fake clock: a refresh runs under its own timeout
// (longer than a caller's statement_timeout), and while it runs past the entry's lifetime,
// callers keep getting the warm result (STALE) instead of a cold miss that would time out.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <pqxx/pqxx>
#include <thread>

#include "lqe/gateway/handler.h"
#include "lqe/gateway/pg_pool.h"
#include "lqe/gateway/result_cache.h"
#include "server_fixture.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

// Counts logs.edge; sleeps 3 s once it holds more than six rows (CreateLogs writes six): long
// enough for the test to see the refresh running and ask while it runs.
constexpr const char* kSlowOnceGrown =
    "SELECT (SELECT count(*) FROM logs.edge) AS n FROM (SELECT pg_sleep(CASE WHEN (SELECT "
    "count(*) FROM logs.edge) > 6 THEN 3.0 ELSE 0 END)) AS s";

class WarmingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CreateLogs(db_.dsn());
    auto chart = MakeEndpoint("chart", kSlowOnceGrown, {Col("n", TypeKind::kInt64)});
    chart->cache_seconds = 900;
    chart->cache_warming_seconds = 300;
    chart->cache_warming_timeout_ms = 30000;
    auto uncached = MakeEndpoint("uncached", kSlowOnceGrown, {Col("n", TypeKind::kInt64)});
    state_ = MakeState({chart, uncached});
    state_->config.statement_timeout_ms = 500;
    context_.state = state_;
    context_.cache = cache_.get();
    context_.run_query = [this](const std::string& sql,
                                const std::vector<std::optional<std::string>>& params, int max_rows,
                                int timeout_ms, QueryCancel* cancel) {
      return RunQuery(pool_, sql, params, max_rows, timeout_ms, cancel);
    };
  }

  Response Get(const std::string& endpoint) {
    return Handle(testing::Get("/api/endpoints/query/" + endpoint), context_);
  }

  // Polls (bounded) until a backend of this database runs pg_sleep.
  bool WaitForSleepingRefresh() {
    pqxx::connection c(db_.dsn());
    for (int i = 0; i < 400; ++i) {
      pqxx::nontransaction tx(c);
      if (tx.exec1("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                   "AND state = 'active' AND wait_event = 'PgSleep'")[0]
              .as<int>() > 0) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return false;
  }

  static std::string CacheState(const Response& r) {
    for (const auto& [name, value] : r.headers) {
      if (name == "X-Cache") return value;
    }
    return "<absent>";
  }

  lqe::testing::TestDatabase db_{"warming"};
  PgPool pool_{db_.dsn(), 2, 2000};
  FakeClock clock_;
  std::unique_ptr<ResultCache> cache_ = MakeInProcessCache(clock_, 1 << 20);
  std::shared_ptr<GatewayState> state_;
  Context context_;
};

TEST_F(WarmingTest, SlowRefreshRunsUnderItsOwnTimeoutAndKeepsTheEntryWarm) {
  Response fill = Get("chart");
  EXPECT_EQ(fill.status, 200);
  EXPECT_EQ(CacheState(fill), "MISS");
  EXPECT_EQ(fill.Body(), R"({"result":[{"n":6}]})");
  {
    pqxx::connection c(db_.dsn());
    pqxx::work tx(c);
    tx.exec("INSERT INTO logs.edge VALUES ('e7', '2025-01-15 10:00:06+00', 'new', 'p1', '{}')");
    tx.commit();
  }
  // The query now sleeps 3 s: over a caller's statement_timeout_ms (500) ...
  Response caller = Get("uncached");
  EXPECT_EQ(caller.status, 504);
  EXPECT_EQ(boost::json::parse(caller.Body()).at("error").at("message").as_string(),
            "the query of endpoint uncached timed out after 500 ms");
  // ... but within the endpoint's cache_warming_timeout_ms (30000).
  clock_.Advance(std::chrono::seconds(300));
  EXPECT_EQ(CacheState(Get("chart")), "STALE");
  std::thread warmer;
  cache_->RunWarming(
      [&warmer](std::function<void()> job) { warmer = std::thread(std::move(job)); });
  ASSERT_TRUE(warmer.joinable());
  ASSERT_TRUE(WaitForSleepingRefresh());
  // Past the entry's lifetime while the refresh still runs: the warm result, not a cold miss.
  clock_.Advance(std::chrono::seconds(700));
  Response during = Get("chart");
  EXPECT_EQ(during.status, 200);
  EXPECT_EQ(CacheState(during), "STALE");
  EXPECT_EQ(during.Body(), R"({"result":[{"n":6}]})");
  warmer.join();
  Response after = Get("chart");
  EXPECT_EQ(after.status, 200);
  EXPECT_EQ(CacheState(after), "HIT");
  EXPECT_EQ(after.Body(), R"({"result":[{"n":7}]})");
  EXPECT_EQ(cache_->Stats().refreshes, 1u);
  EXPECT_EQ(cache_->Stats().refresh_failures, 0u);
}

}  // namespace
}  // namespace lqe::gateway
