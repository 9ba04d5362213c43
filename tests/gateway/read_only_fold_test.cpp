// A gateway that ingests nothing and has only the read-only query role still folds the edge
// rollup's delta on its schedule: rows inserted by SQL leave counts in the delta, the gateway
// empties it, and the chart answers the same before and after.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <chrono>
#include <pqxx/pqxx>
#include <thread>

#include "config_server.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

class ReadOnlyFoldTest : public ConfigServerTest {
 protected:
  ReadOnlyFoldTest() : ConfigServerTest("ro_fold") {}
};

TEST_F(ReadOnlyFoldTest, ServeFoldsTheDeltaOnItsScheduleWithoutIngest) {
  {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    for (int i = 0; i < 30; ++i) {
      tx.exec(
          "INSERT INTO logs.edge (id, timestamp, event_message, project, metadata) VALUES ('r" +
          std::to_string(i) + "', now() - interval '" + std::to_string(10 + i) +
          " minutes', 'GET', 'default', " +
          "'{\"request\":{\"url\":\"https://a.supabase.co/rest/v1/t\",\"path\":\"/rest/v1/t\"}}')");
    }
    tx.commit();
  }
  auto scalar = [&](const std::string& sql) { return std::stoll(One(sql)); };
  ASSERT_GT(scalar("SELECT count(*) FROM logs.edge_api_minute_delta"), 0);

  // The shipped chart endpoint, uncached, so each call reads the rollup, the delta and the raw
  // rows again.
  std::string yaml =
      lqe::testing::ReadFileText(lqe::testing::SourcePath("sql/usage.api-counts.yaml"));
  yaml.replace(yaml.find("cache_seconds: 900"), 18, "cache_seconds: 0");
  yaml.erase(yaml.find("cache_warming_seconds: 300"), 26);
  dir_.Write("endpoints/usage.api-counts.yaml", yaml);
  dir_.Write("endpoints/usage.api-counts.sql",
             lqe::testing::ReadFileText(lqe::testing::SourcePath("sql/usage.api-counts.sql")));
  ASSERT_NO_FATAL_FAILURE(Serve(ServerYaml(QueryDsn()) +
                                "ingest:\n  compact_interval_ms: 200\napi_keys:\n" +
                                ApiKeyYaml("r", kTestKey, "['*']") +
                                "endpoints_dir: " + dir_.path().string() + "/endpoints\n"));
  auto chart = [&] {
    HttpResult r = GetEndpoint("usage.api-counts", "interval=1day&project=supabase");
    EXPECT_EQ(r.status, 200) << r.body;
    return r.body;
  };
  // Every request is counted once, wherever its count is (delta, rollup or raw rows).
  auto rest_total = [](const std::string& body) {
    std::int64_t total = 0;
    boost::system::error_code ec;
    const boost::json::value parsed = boost::json::parse(body, ec);
    if (ec || !parsed.is_object() || !parsed.as_object().contains("result")) {
      return std::int64_t{-1};
    }
    for (const auto& row : parsed.at("result").as_array()) {
      total += row.at("total_rest_requests").to_number<std::int64_t>();
    }
    return total;
  };
  const std::string before = chart();
  EXPECT_EQ(rest_total(before), 30) << before;

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (scalar("SELECT count(*) FROM logs.edge_api_minute_delta") > 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(scalar("SELECT count(*) FROM logs.edge_api_minute_delta"), 0);
  EXPECT_EQ(scalar("SELECT sum(requests) FROM logs.edge_api_minute"), 30);
  const std::string metrics = MetricsText();
  EXPECT_NE(metrics.find("lqe_rollup_compaction_failures_total 0\n"), std::string::npos) << metrics;
  // The same answer, now read from the folded rollup.
  EXPECT_EQ(chart(), before);
}

}  // namespace
}  // namespace lqe::gateway
