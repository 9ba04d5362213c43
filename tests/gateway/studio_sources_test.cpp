// The four log sources Studio's pages read besides the nine (supavisor_logs, pg_upgrade_logs,
// etl_replication_logs, auth_audit_logs): an event posted over HTTP to each under its default
// source name, read back through logs.all with the SQL Studio's log pages send (listing, count,
// chart, single log), over a real socket and real PostgreSQL.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <chrono>

#include "config_server.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

constexpr const char* kKey = "studio-key";

class StudioSourcesTest : public ConfigServerTest {
 protected:
  StudioSourcesTest() : ConfigServerTest("studio_sources", kKey) {}

  // No sources: section, so the default source names apply.
  std::string Config() const override { return OneKeyYaml("studio"); }

  // The rows logs.all answers for `sql` (Studio sends the window as iso_timestamp_*).
  boost::json::array Query(const std::string& sql, const std::string& project = "proj") {
    return SqlRows("logs.all", project, sql);
  }

  static std::string Event(const std::string& id, const std::string& message,
                           const std::string& rest, const std::string& timestamp = "") {
    return R"([{"id":")" + id + R"(","event_message":")" + message + R"(","timestamp":")" +
           (timestamp.empty()
                ? IsoSeconds(std::chrono::system_clock::now() - std::chrono::seconds(30))
                : timestamp) +
           R"(")" + rest + "}]";
  }

  // A stored endpoint's rows for Studio's parameters.
  boost::json::array Endpoint(const std::string& name, const std::string& params) {
    return ResultRows(GetEndpoint(name, params), name);
  }

  // Studio's log-event-chart query (Logs.utils.ts genChartQuery) for a table without
  // error/warning conditions, over the last hours per minute.
  static std::string ChartSql(const std::string& table, const std::string& joins) {
    const std::string start = IsoSeconds(std::chrono::system_clock::now() - std::chrono::hours(7));
    return "SELECT\n-- log-event-chart\n  timestamp_trunc(t.timestamp, minute) as timestamp,\n"
           "  count(CASE WHEN NOT (false OR false) THEN 1 END) as ok_count,\n"
           "  count(CASE WHEN false THEN 1 END) as error_count,\n"
           "  count(CASE WHEN false THEN 1 END) as warning_count,\nFROM\n  " +
           table + " t\n  " + joins + "\n  where t.timestamp > '" + start +
           "'\nGROUP BY\ntimestamp\nORDER BY\n  timestamp ASC\n  ";
  }
};

TEST_F(StudioSourcesTest, SupavisorLogsPage) {
  Ingest("supavisor.logs.prod", Event("s1", "ClientHandler: Client is connected",
                                      R"(,"metadata":{"project":"proj","level":"info"})"));
  Ingest("supavisor.logs.prod",
         Event("s2", "other project", R"(,"metadata":{"project":"other","level":"info"})"));
  // Listing with the database filter (Logs.constants.ts: m.project like '<ref>%').
  auto rows = Query(
      "select id, supavisor_logs.timestamp, event_message from supavisor_logs cross join "
      "unnest(metadata) as m where (m.project like 'proj%') and "
      "(regexp_contains(event_message, 'connected')) order by timestamp desc limit 100");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("id").as_string(), "s1");
  EXPECT_EQ(rows[0].at("event_message").as_string(), "ClientHandler: Client is connected");
  EXPECT_TRUE(rows[0].at("timestamp").is_int64());
  rows = Query("SELECT count(*) as count FROM supavisor_logs cross join unnest(metadata) as m ");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("count").as_int64(), 1);
  rows = Query(ChartSql("supavisor_logs", "cross join unnest(metadata) as m"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("ok_count").as_int64(), 1);
  EXPECT_EQ(rows[0].at("error_count").as_int64(), 0);
  rows = Query(
      "select id, timestamp, event_message, metadata from supavisor_logs where id = 's1' limit 1");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("metadata").at(0).at("level").as_string(), "info");
  // The other project's event is its own.
  rows = Query("select id from supavisor_logs", "other");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("id").as_string(), "s2");
}

TEST_F(StudioSourcesTest, PgUpgradeLogsPage) {
  Ingest("pg_upgrade.logs.prod",
         Event("u1", "pg_upgrade: checking cluster",
               R"(,"project":"proj","metadata":{"log_file":"pg_upgrade_server.log"})"));
  auto rows = Query(
      "select id, pg_upgrade_logs.timestamp, event_message from pg_upgrade_logs  order by "
      "timestamp desc limit 100");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("id").as_string(), "u1");
  EXPECT_EQ(rows[0].at("event_message").as_string(), "pg_upgrade: checking cluster");
  rows = Query("SELECT count(*) as count FROM pg_upgrade_logs  ");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("count").as_int64(), 1);
  rows = Query(ChartSql("pg_upgrade_logs", ""));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("ok_count").as_int64(), 1);
  // The selection panel shows metadata[0].log_file.
  rows = Query(
      "select id, timestamp, event_message, metadata from pg_upgrade_logs where id = 'u1' limit 1");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("metadata").at(0).at("log_file").as_string(), "pg_upgrade_server.log");
  EXPECT_TRUE(Query("select id from pg_upgrade_logs", "other").empty());
}

TEST_F(StudioSourcesTest, EtlReplicationLogsPage) {
  Ingest("etl_replication.logs.prod",
         Event("e1", "table copy done",
               R"(,"project":"proj","metadata":{"pipeline_id":7,"level":"info"})"));
  Ingest("etl_replication.logs.prod",
         Event("e2", "pipeline 8 started", R"(,"project":"proj","metadata":{"pipeline_id":8})"));
  // Studio's pipeline filter reads a pipeline_id column (Logs.constants.ts).
  auto rows = Query(
      "select id, etl_replication_logs.timestamp, event_message from etl_replication_logs\n  "
      "where (pipeline_id = 7)\n  order by timestamp desc\n  limit 100\n  ");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("id").as_string(), "e1");
  rows = Query("SELECT count(*) as count FROM etl_replication_logs  ");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("count").as_int64(), 2);
  rows = Query(ChartSql("etl_replication_logs", ""));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("ok_count").as_int64(), 2);
}

TEST_F(StudioSourcesTest, AuthAuditLogs) {
  Ingest(
      "gotrue.audit_logs.prod",
      Event(
          "a1", "login",
          R"(,"project":"proj","metadata":{"level":"info","auth_event":{"action":"login","actor_id":"u-1","log_type":"account"}})"));
  // Studio's "Auth Audit Logs" template (Logs.constants.ts).
  auto rows = Query(
      "select\n  cast(timestamp as datetime) as timestamp,\n  event_message, metadata \nfrom "
      "auth_audit_logs \nlimit 10\n");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("event_message").as_string(), "login");
  EXPECT_EQ(rows[0].at("metadata").at(0).at("auth_event").at(0).at("action").as_string(), "login");
  rows = Query("SELECT count(*) as count FROM auth_audit_logs  ");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("count").as_int64(), 1);
}

// The endpoints Studio's Edge Function and project pages call (docs/endpoints-studio.md), with
// Studio's parameters (project, function_id, interval), on events of one minute.
TEST_F(StudioSourcesTest, FunctionAndUsageEndpoints) {
  // Two minutes ago, at second 10 of its minute: every event falls into one bucket.
  const auto now = std::chrono::system_clock::now();
  const auto minute = std::chrono::floor<std::chrono::minutes>(now - std::chrono::minutes(2));
  const std::string ts = IsoSeconds(minute + std::chrono::seconds(10));
  auto invocation = [&](const std::string& id, const std::string& project, const std::string& fn,
                        int status, int ms) {
    Ingest("deno-relay-logs",
           Event(id, "POST | " + std::to_string(status),
                 R"(,"metadata":{"project_ref":")" + project + R"(","function_id":")" + fn +
                     R"(","execution_time_ms":)" + std::to_string(ms) +
                     R"(,"response":{"status_code":)" + std::to_string(status) + "}}",
                 ts));
  };
  invocation("i1", "proj", "fn1", 200, 10);
  invocation("i2", "proj", "fn1", 404, 20);
  invocation("i3", "proj", "fn1", 500, 60);
  invocation("i4", "proj", "fn2", 200, 1000);
  invocation("i5", "other", "fn1", 200, 1000);
  auto event = [&](const std::string& id, const std::string& rest) {
    Ingest("deno-subhosting-events",
           Event(id, "line",
                 R"(,"metadata":{"project_ref":"proj","function_id":"fn1",)" + rest + "}", ts));
  };
  event("l1", R"("event_type":"Log","level":"info")");
  event("l2", R"("event_type":"Log","level":"error")");
  event(
      "l3",
      R"("event_type":"Shutdown","cpu_time_used":10,"memory_used":{"heap":1048576,"external":1048576})"
      R"(,"level":"log")");
  event(
      "l4",
      R"("event_type":"Shutdown","cpu_time_used":30,"memory_used":{"heap":3145728,"external":1048576})"
      R"(,"level":"log")");
  for (const char* id : {"e1", "e2"}) {
    Ingest("cloudflare.logs.prod", Event(id, "GET /rest/v1/t", R"(,"project":"proj")", ts));
  }
  Ingest("cloudflare.logs.prod", Event("e3", "GET /rest/v1/t", R"(,"project":"other")", ts));

  const std::string function = "project=proj&function_id=fn1&interval=1hr";
  auto rows = Endpoint("functions.req-stats", function);
  ASSERT_EQ(rows.size(), 1u);
  auto number = [](const boost::json::value& row, const char* key) {
    return row.at(key).to_number<double>();
  };
  EXPECT_TRUE(rows[0].at("timestamp").is_int64());
  EXPECT_EQ(number(rows[0], "count"), 3);
  EXPECT_EQ(number(rows[0], "success_count"), 1);
  EXPECT_EQ(number(rows[0], "redirect_count"), 0);
  EXPECT_EQ(number(rows[0], "client_err_count"), 1);
  EXPECT_EQ(number(rows[0], "server_err_count"), 1);
  EXPECT_EQ(number(rows[0], "avg_execution_time"), 30);
  EXPECT_EQ(number(rows[0], "max_execution_time"), 60);

  rows = Endpoint("functions.resource-usage", function);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(number(rows[0], "avg_cpu_time_used"), 20);
  EXPECT_EQ(number(rows[0], "max_cpu_time_used"), 30);
  EXPECT_EQ(number(rows[0], "avg_heap_memory_used"), 2097152);
  EXPECT_EQ(number(rows[0], "avg_external_memory_used"), 1048576);
  EXPECT_EQ(number(rows[0], "avg_memory_used"), 3);

  rows = Endpoint("functions.combined-stats", function);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(number(rows[0], "requests_count"), 3);
  EXPECT_EQ(number(rows[0], "success_count"), 1);
  EXPECT_EQ(number(rows[0], "client_err_count"), 1);
  EXPECT_EQ(number(rows[0], "server_err_count"), 1);
  EXPECT_EQ(number(rows[0], "avg_execution_time"), 30);
  EXPECT_EQ(number(rows[0], "max_execution_time"), 60);
  EXPECT_EQ(number(rows[0], "avg_cpu_time_used"), 20);
  EXPECT_EQ(number(rows[0], "avg_memory_used"), 3);
  EXPECT_EQ(number(rows[0], "log_count"), 2);
  EXPECT_EQ(number(rows[0], "log_info_count"), 1);
  EXPECT_EQ(number(rows[0], "log_warn_count"), 0);
  EXPECT_EQ(number(rows[0], "log_error_count"), 1);
  // The 15min window holds the minute too; another function has its own rows.
  EXPECT_EQ(Endpoint("functions.req-stats", "project=proj&function_id=fn1&interval=15min").size(),
            1u);
  rows = Endpoint("functions.req-stats", "project=proj&function_id=fn2&interval=1day");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(number(rows[0], "count"), 1);

  rows = Endpoint("usage.api-requests-count", "project=proj");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(number(rows[0], "count"), 2);
  rows = Endpoint("usage.api-requests-count", "project=nobody");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(number(rows[0], "count"), 0);
}

}  // namespace
}  // namespace lqe::gateway
