// The two stored endpoints of sql/ through the real translator, migrations and a real socket:
// rows compared with results computed here from the fixture (project filter, exclusive start,
// inclusive end, newest first, the 100-row cap, chart buckets per interval, multi-match paths
// counted in each column, zeros never null), sandbox queries and refusals.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <pqxx/pqxx>

#include "config_server.h"
#include "lqe/gateway/auth.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

constexpr std::int64_t kMinute = 60'000'000;
constexpr std::int64_t kHour = 60 * kMinute;

std::int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Iso(std::int64_t micros, bool fraction = true) {
  std::time_t seconds = static_cast<std::time_t>(micros / 1'000'000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out(buf);
  if (fraction) {
    char frac[16];
    std::snprintf(frac, sizeof(frac), ".%06lldZ", static_cast<long long>(micros % 1'000'000));
    out += frac;
  }
  return out;
}

struct EdgeRow {
  std::string id;
  std::int64_t ts;
  std::string project;
  std::string path;
  std::string host;
};

class StoredEndpointsTest : public ConfigServerTest {
 protected:
  StoredEndpointsTest() : ConfigServerTest("stored") {}

  void SetUp() override {
    MigrateDatabase(10, "lqe_gateway");  // the role the gateway config below logs in as
    now_ = NowMicros();
  }

  void Insert(const std::vector<EdgeRow>& rows) {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    for (const EdgeRow& r : rows) {
      std::string metadata = R"({"request":{"method":"GET","path":")" + r.path +
                             R"(","url":"https://)" + r.host + ".example.co" + r.path + R"("}})";
      tx.exec_params(
          "INSERT INTO logs.edge (id, timestamp, event_message, project, metadata) VALUES "
          "($1, 'epoch'::timestamptz + $2::bigint * interval '1 microsecond', $3, $4, $5::jsonb)",
          r.id, r.ts, "GET " + r.path, r.project, metadata);
    }
    tx.commit();
  }

  void Start() {
    Serve(ServerYaml(DsnAs("lqe_gateway")) + CatalogueYaml() + "api_keys:\n" +
          ApiKeyYaml("t", kTestKey, "['*']") + ShippedEndpointsYaml());
  }

  boost::json::value Get(const std::string& target, int expect_status = 200) {
    HttpResult r = Fetch(Port(), target, {{"X-API-KEY", kTestKey}});
    EXPECT_EQ(r.status, expect_status) << target << "\n" << r.body;
    return boost::json::parse(r.body);
  }

  std::vector<std::string> Ids(const boost::json::value& body) {
    std::vector<std::string> ids;
    for (const auto& row : body.at("result").as_array()) ids.emplace_back(row.at("id").as_string());
    return ids;
  }

  std::int64_t now_ = 0;
};

TEST_F(StoredEndpointsTest, LogsAllFiltersByProjectAndTimeNewestFirst) {
  std::vector<EdgeRow> rows;
  rows.reserve(11);
  for (int i = 0; i < 10; ++i) {
    rows.push_back({"a" + std::to_string(i), now_ - (10 - i) * kMinute, "p1", "/rest/v1/t", "p1"});
  }
  rows.push_back({"b0", now_ - 5 * kMinute, "p2", "/rest/v1/t", "p2"});
  Insert(rows);
  Start();
  // Expected: p1 rows, newest first.
  std::vector<std::string> all = {"a9", "a8", "a7", "a6", "a5", "a4", "a3", "a2", "a1", "a0"};
  EXPECT_EQ(Ids(Get("/api/endpoints/query/logs.all?project=p1")), all);
  EXPECT_EQ(
      Ids(Get("/api/endpoints/query/logs.all?project=p1&iso_timestamp_start=&iso_timestamp_end=")),
      all);
  // Start is exclusive (a2 excluded), end inclusive (a7 included).
  std::string window = "&iso_timestamp_start=" + UrlEncode(Iso(rows[2].ts)) +
                       "&iso_timestamp_end=" + UrlEncode(Iso(rows[7].ts));
  EXPECT_EQ(Ids(Get("/api/endpoints/query/logs.all?project=p1" + window)),
            (std::vector<std::string>{"a7", "a6", "a5", "a4", "a3"}));
  auto body = Get("/api/endpoints/query/logs.all?project=p2");
  ASSERT_EQ(body.at("result").as_array().size(), 1u);
  const auto& row = body.at("result").at(0);
  EXPECT_EQ(row.at("timestamp").as_int64(), rows[10].ts);
  EXPECT_EQ(row.at("event_message").as_string(), "GET /rest/v1/t");
  EXPECT_EQ(row.at("metadata").at(0).at("request").at(0).at("method").as_string(), "GET");
}

TEST_F(StoredEndpointsTest, LogsAllCapsAtOneHundredRows) {
  std::vector<EdgeRow> rows;
  rows.reserve(130);
  for (int i = 0; i < 130; ++i) {
    rows.push_back({"r" + std::to_string(i), now_ - i * kMinute, "p1", "/x", "p1"});
  }
  Insert(rows);
  Start();
  auto ids = Ids(Get("/api/endpoints/query/logs.all?project=p1"));
  ASSERT_EQ(ids.size(), 100u);
  EXPECT_EQ(ids.front(), "r0");
  EXPECT_EQ(ids.back(), "r99");
}

TEST_F(StoredEndpointsTest, SandboxQueriesAndRefusals) {
  Insert({{"s1", now_ - kMinute, "p1", "/rest/v1/a", "p1"},
          {"s2", now_ - 2 * kMinute, "p1", "/auth/v1/b", "p1"}});
  Start();
  auto count = Get("/api/endpoints/query/logs.all?project=p1&sql=" +
                   UrlEncode("select count(*) as count from edge_logs"));
  EXPECT_EQ(count.at("result").at(0).at("count").as_int64(), 2);
  auto paths = Get("/api/endpoints/query/logs.all?project=p1&sql=" +
                   UrlEncode("select r.path from edge_logs cross join unnest(metadata) as m "
                             "cross join unnest(m.request) as r order by timestamp desc"));
  EXPECT_EQ(paths.at("result").at(0).at("path").as_string(), "/rest/v1/a");
  // Every CTE exposes the project as `identifier` (hosted Studio's queries select it).
  auto identifiers =
      Get("/api/endpoints/query/logs.all?project=p1&sql=" +
          UrlEncode("select identifier, count(*) as n from edge_logs group by identifier"));
  EXPECT_EQ(boost::json::serialize(identifiers.at("result")), R"([{"identifier":"p1","n":2}])");
  for (const char* cte :
       {"postgres_logs", "function_edge_logs", "function_logs", "auth_logs", "realtime_logs",
        "storage_logs", "restapi_logs", "pooler_logs", "postgrest_logs", "pgbouncer_logs"}) {
    EXPECT_EQ(Get("/api/endpoints/query/logs.all?project=p1&sql=" +
                  UrlEncode(std::string("select identifier from ") + cte))
                  .at("result")
                  .as_array()
                  .size(),
              0u)
        << cte;
  }
  EXPECT_EQ(Get("/api/endpoints/query/logs.all?project=p1&sql=" +
                UrlEncode("select id from postgrest_logs"))
                .at("result")
                .as_array()
                .size(),
            0u);
  // The consumer may read only the stored CTEs: a log table by name is refused with the
  // translator's message and position.
  auto refused = Get(
      "/api/endpoints/query/logs.all?project=p1&sql=" + UrlEncode("select id from logs.edge"), 400);
  EXPECT_EQ(refused.at("error").at("code").as_int64(), 400);
  EXPECT_EQ(refused.at("error").at("status").as_string(), "BAD_REQUEST");
  // Studio's proxy passes on only `message`, so the hint (the readable CTEs) is inside it too.
  const std::string refused_message(refused.at("error").at("message").as_string());
  EXPECT_EQ(refused_message.substr(0, refused_message.find(';')),
            "table \"logs.edge\" is not available here at 1:16");
  EXPECT_NE(refused_message.find("; hint: A consumer query can read only these CTEs: edge_logs, "
                                 "postgres_logs, "),
            std::string::npos)
      << refused_message;
  EXPECT_EQ(refused.at("error").at("hint").as_string(),
            refused_message.substr(refused_message.find("; hint: ") + 8));
  EXPECT_EQ(refused.at("error").at("source").as_string(), "sql");
  EXPECT_EQ(refused.at("error").at("line").as_int64(), 1);
  EXPECT_EQ(refused.at("error").at("column").as_int64(), 16);
  // A did-you-mean is in the message as well.
  auto misspelt = Get("/api/endpoints/query/logs.all?project=p1&sql=" +
                          UrlEncode("select evnt_message from edge_logs"),
                      400);
  EXPECT_EQ(misspelt.at("error").at("message").as_string(),
            "column \"evnt_message\" not found at 1:8; hint: Did you mean \"event_message\"?");
  // Clients add a trailing slash to the endpoint route.
  EXPECT_EQ(Get("/api/endpoints/query/logs.all/?project=p1&sql=" +
                UrlEncode("select count(*) as count from edge_logs"))
                .at("result")
                .at(0)
                .at("count")
                .as_int64(),
            2);
  auto syntax =
      Get("/api/endpoints/query/logs.all?project=p1&sql=" + UrlEncode("select from from"), 400);
  EXPECT_EQ(syntax.at("error").at("source").as_string(), "sql");
  auto lql = Get("/api/endpoints/query/logs.all?project=p1&lql=" + UrlEncode("f:edge_logs"));
  EXPECT_EQ(lql.at("result").as_array().size(), 2u);
}

TEST_F(StoredEndpointsTest, ApiCountsBucketsPerInterval) {
  // Paths matching several areas count in each; the other project's host never matches.
  std::vector<EdgeRow> rows = {
      {"c1", now_ - 10 * kMinute, "p1", "/rest/v1/t", "p1"},
      {"c2", now_ - 20 * kMinute, "p1", "/storage/v1/o", "p1"},
      {"c3", now_ - 30 * kMinute, "p1", "/auth/v1/rest/storage", "p1"},
      {"c4", now_ - 40 * kMinute, "p1", "/realtime/v1/ws", "p1"},
      {"c5", now_ - 15 * kMinute, "p2", "/rest/v1/t", "p2"},
      {"c6", now_ - 3 * kHour, "p1", "/rest/v1/t", "p1"},
      {"c7", now_ - 50 * kHour, "p1", "/storage/v1/o", "p1"},
  };
  Insert(rows);
  Start();
  struct Counts {
    std::int64_t rest = 0, storage = 0, auth = 0, realtime = 0;
  };
  auto expect = [&](std::int64_t window, std::int64_t bucket) {
    std::map<std::string, Counts> buckets;
    for (const EdgeRow& r : rows) {
      if (r.ts < now_ - window || r.host != "p1") continue;
      Counts& c = buckets[Iso(r.ts - ((r.ts % bucket) + bucket) % bucket, false)];
      c.rest += r.path.find("/rest") != std::string::npos;
      c.storage += r.path.find("/storage") != std::string::npos;
      c.auth += r.path.find("/auth") != std::string::npos;
      c.realtime += r.path.find("/realtime") != std::string::npos;
    }
    return buckets;
  };
  for (auto [interval, window, bucket] :
       std::vector<std::tuple<std::string, std::int64_t, std::int64_t>>{
           {"minutely", kHour, kMinute},
           {"hourly", kHour, kHour},
           {"daily", kHour * 7 * 24, kHour * 24}}) {
    auto expected = expect(window, bucket);
    auto body = Get("/api/endpoints/query/usage.api-counts?project=p1&interval=" + interval);
    const auto& result = body.at("result").as_array();
    ASSERT_EQ(result.size(), expected.size()) << interval << " " << boost::json::serialize(body);
    auto it = expected.begin();
    for (const auto& row : result) {
      EXPECT_EQ(row.at("timestamp").as_string(), it->first) << interval;
      EXPECT_EQ(row.at("total_rest_requests").as_int64(), it->second.rest) << interval;
      EXPECT_EQ(row.at("total_storage_requests").as_int64(), it->second.storage) << interval;
      EXPECT_EQ(row.at("total_auth_requests").as_int64(), it->second.auth) << interval;
      EXPECT_EQ(row.at("total_realtime_requests").as_int64(), it->second.realtime) << interval;
      ++it;
    }
  }
  HttpResult bad = Fetch(Port(), "/api/endpoints/query/usage.api-counts?project=p1&interval=weekly",
                         {{"X-API-KEY", kTestKey}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("expected one of minutely, hourly, daily"), std::string::npos);
  HttpResult cached =
      Fetch(Port(), "/api/endpoints/query/usage.api-counts?project=p1&interval=daily",
            {{"X-API-KEY", kTestKey}});
  EXPECT_EQ(cached.Header("x-cache"), "HIT");
}

}  // namespace
}  // namespace lqe::gateway
