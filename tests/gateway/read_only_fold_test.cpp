// A gateway that ingests nothing and has only the read-only query role still folds the edge
// rollup's delta on its schedule: rows inserted by SQL leave counts in the delta, the gateway
// empties it, and the chart answers the same before and after.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <chrono>
#include <pqxx/pqxx>
#include <thread>

#include "http_client.h"
#include "lqe/gateway/server.h"
#include "lqe/schema/migrate.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

constexpr const char* kKey = "reader-key";

TEST(ReadOnlyFoldTest, ServeFoldsTheDeltaOnItsScheduleWithoutIngest) {
  lqe::testing::TestDatabase db{"ro_fold"};
  {
    pqxx::connection conn(db.dsn());
    schema::MigrateOptions options;
    options.partition_days_back = 2;
    schema::Migrate(conn, options);
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
  auto scalar = [&](const std::string& sql) {
    pqxx::connection conn(db.dsn());
    pqxx::work tx(conn);
    return tx.exec1(sql)[0].as<std::int64_t>();
  };
  ASSERT_GT(scalar("SELECT count(*) FROM logs.edge_api_minute_delta"), 0);

  std::string dsn = db.dsn();
  auto user = dsn.find("user=postgres");
  if (user != std::string::npos) dsn.replace(user, 13, "user=lqe_gateway_" + db.name());
  TempDir dir;
  // The shipped chart endpoint, uncached, so each call reads the rollup, the delta and the raw
  // rows again.
  std::string yaml =
      lqe::testing::ReadFileText(lqe::testing::SourcePath("sql/usage.api-counts.yaml"));
  yaml.replace(yaml.find("cache_seconds: 900"), 18, "cache_seconds: 0");
  yaml.erase(yaml.find("cache_warming_seconds: 300"), 26);
  dir.Write("endpoints/usage.api-counts.yaml", yaml);
  dir.Write("endpoints/usage.api-counts.sql",
            lqe::testing::ReadFileText(lqe::testing::SourcePath("sql/usage.api-counts.sql")));
  const std::string config_path = dir.Write(
      "gw.yaml",
      "listen: 127.0.0.1:0\naccess_log: false\ndatabase:\n  dsn: " + dsn +
          "\n  pool_size: 2\ningest:\n  compact_interval_ms: 200\napi_keys:\n  - {name: r, "
          "sha256: " +
          Sha256Hex(kKey) + ", endpoints: ['*']}\nendpoints_dir: " + dir.path().string() +
          "/endpoints\n");
  auto metrics = std::make_shared<Metrics>();
  std::string error;
  auto state = BuildState(config_path, metrics.get(), &error);
  ASSERT_NE(state, nullptr) << error;
  auto chart = [&](unsigned short port) {
    HttpResult r =
        Fetch(port, "/api/endpoints/query/usage.api-counts?interval=1day&project=supabase",
              {{"x-api-key", kKey}});
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
  Server server(config_path, state, metrics);
  ASSERT_EQ(server.Bind(), "");
  std::thread thread([&] { server.Run(false); });
  const std::string before = chart(server.port());
  EXPECT_EQ(rest_total(before), 30) << before;

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (scalar("SELECT count(*) FROM logs.edge_api_minute_delta") > 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(scalar("SELECT count(*) FROM logs.edge_api_minute_delta"), 0);
  EXPECT_EQ(scalar("SELECT sum(requests) FROM logs.edge_api_minute"), 30);
  HttpResult r = Fetch(server.port(), "/metrics");
  EXPECT_NE(r.body.find("lqe_rollup_compaction_failures_total 0\n"), std::string::npos) << r.body;
  // The same answer, now read from the folded rollup.
  EXPECT_EQ(chart(server.port()), before);
  server.Stop();
  thread.join();
}

}  // namespace
}  // namespace lqe::gateway
