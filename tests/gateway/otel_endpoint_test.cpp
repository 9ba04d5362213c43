// logs.all.otel over a real socket and real PostgreSQL: events posted over HTTP to five sources,
// read back with the ClickHouse SQL Studio's OTEL log pages send (Logs.utils.otel.ts: rows,
// count, chart, single log; UnifiedLogs.queries.ts: rows, the UNION ALL facet counts, chart), by
// GET with query parameters and by POST with a JSON body, rendered as ClickHouse's JSON output
// writes them.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <map>
#include <regex>

#include "config_server.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

constexpr const char* kKey = "otel-key";

// ClickHouse's DateTime64(6) text of a whole-second instant.
std::string ClickHouseAt(std::chrono::system_clock::time_point t) {
  std::string iso = IsoSeconds(t);
  iso[10] = ' ';
  iso.pop_back();
  return iso + ".000000";
}

// Studio's derived columns (UnifiedLogs.queries.ts), as it writes them.
const std::string kPath = "log_attributes['request.path']";
const std::string kStatus = "log_attributes['response.status_code']";
const std::string kMethod = "log_attributes['request.method']";
const std::string kLevelExpr =
    "CASE\n      WHEN " + kStatus + " != '' AND toInt32OrZero(" + kStatus +
    ") >= 500 THEN 'error'\n      WHEN " + kStatus + " != '' AND toInt32OrZero(" + kStatus +
    ") BETWEEN 400 AND 499 THEN 'warning'\n      WHEN " + kStatus + " != '' AND toInt32OrZero(" +
    kStatus +
    ") BETWEEN 200 AND 299 THEN 'success'\n      WHEN severity_text IN "
    "('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error'\n      WHEN severity_text IN "
    "('WARN','WARNING') THEN 'warning'\n      WHEN severity_text IN "
    "('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success'\n      ELSE 'success'\n    END";
const std::string kStatusExpr =
    "CASE\n      WHEN source = 'postgres_logs' THEN "
    "toString(log_attributes['parsed.sql_state_code'])\n      ELSE toString(" +
    kStatus + ")\n    END";
const std::string kLogTypeExpr =
    "CASE\n      WHEN source = 'edge_logs' AND " + kPath +
    " LIKE '%/rest/%' THEN 'postgrest'\n      WHEN source = 'edge_logs' AND " + kPath +
    " LIKE '%/storage/%' THEN 'storage'\n      WHEN source = 'edge_logs' THEN 'edge'\n      WHEN "
    "source = 'postgres_logs' THEN 'postgres'\n      WHEN source = 'function_edge_logs' THEN "
    "'edge function'\n      WHEN source = 'auth_logs' THEN 'auth'\n      WHEN source = "
    "'realtime_logs' THEN 'realtime'\n      WHEN source = 'supavisor_logs' THEN 'supavisor'\n"
    "      WHEN source = 'pgbouncer_logs' THEN 'pgbouncer'\n      ELSE source\n    END";
const std::vector<std::pair<std::string, std::string>> kLogTypes = {
    {"edge", "source = 'edge_logs' AND " + kPath + " NOT LIKE '%/rest/%' AND " + kPath +
                 " NOT LIKE '%/storage/%'"},
    {"postgrest", "source = 'edge_logs' AND " + kPath + " LIKE '%/rest/%'"},
    {"storage", "source = 'edge_logs' AND " + kPath + " LIKE '%/storage/%'"},
    {"postgres", "source = 'postgres_logs'"},
    {"edge function", "source = 'function_edge_logs'"},
    {"auth", "source = 'auth_logs'"},
    {"realtime", "source = 'realtime_logs'"},
    {"supavisor", "source = 'supavisor_logs'"},
    {"pgbouncer", "source = 'pgbouncer_logs'"},
};

// The log_type predicate Studio puts in every WHERE when no log_type filter is set.
std::string LogTypeWhere() {
  std::string out;
  for (const auto& [type, predicate] : kLogTypes) {
    out += (out.empty() ? "" : " OR ") + std::string("(") + predicate + ")";
  }
  return "(" + out + ")";
}

std::string FacetCountQuery(const std::string& facet, const std::string& expr) {
  return "\nSELECT '" + facet + "' AS dimension, (" + expr +
         ") AS value, count() AS count\nFROM logs\nWHERE " + LogTypeWhere() + " AND (" + expr +
         ") IS NOT NULL AND (" + expr + ") != ''\nGROUP BY value\nLIMIT 20\n";
}

// getLogsCountQuery with no filters.
std::string UnifiedCountQuery() {
  std::string sql =
      "\nSELECT 'total' AS dimension, 'all' AS value, count() AS count\nFROM "
      "logs\nWHERE " +
      LogTypeWhere() + "\n";
  for (const auto& [type, predicate] : kLogTypes) {
    sql.append(" UNION ALL \nSELECT 'log_type' AS dimension, '")
        .append(type)
        .append("' AS value, countIf(")
        .append(predicate)
        .append(") AS count\nFROM logs\nWHERE 1\n");
  }
  for (const char* level : {"success", "warning", "error"}) {
    sql.append(" UNION ALL \nSELECT 'level' AS dimension, '")
        .append(level)
        .append("' AS value, countIf((")
        .append(kLevelExpr)
        .append(") = '")
        .append(level)
        .append("') AS count\nFROM logs\nWHERE ")
        .append(LogTypeWhere())
        .append("\n");
  }
  sql += " UNION ALL (" + FacetCountQuery("method", kMethod) + ")";
  sql += " UNION ALL (" + FacetCountQuery("status", kStatusExpr) + ")";
  sql += " UNION ALL (" + FacetCountQuery("pathname", kPath) + ")";
  return sql;
}

class OtelEndpointTest : public ConfigServerTest {
 protected:
  OtelEndpointTest() : ConfigServerTest("otel_endpoint", kKey) {}

  std::string Config() const override { return OneKeyYaml("studio"); }
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ConfigServerTest::SetUp());
    LoadEvents();
  }

  using ConfigServerTest::Ingest;
  void Ingest(const std::string& source_name, const std::string& id, const std::string& message,
              const std::string& rest, std::chrono::system_clock::time_point at) {
    Ingest(source_name, R"([{"id":")" + id + R"(","event_message":")" + message +
                            R"(","timestamp":")" + IsoSeconds(at) + R"(")" + rest + "}]");
  }

  // Every event of the window at second 10 of one minute, so charts have one bucket.
  void LoadEvents() {
    const auto now = std::chrono::system_clock::now();
    at_ = std::chrono::floor<std::chrono::minutes>(now - std::chrono::minutes(5)) +
          std::chrono::seconds(10);
    auto edge = [&](const std::string& id, const std::string& project, const std::string& method,
                    const std::string& path, int status, std::chrono::system_clock::time_point at) {
      Ingest("cloudflare.logs.prod", id, method + " " + path,
             R"(,"project":")" + project + R"(","metadata":{"request":{"method":")" + method +
                 R"(","path":")" + path + R"(","cf":{"country":"NZ"}},"response":{"status_code":)" +
                 std::to_string(status) + "}}",
             at);
    };
    edge("e1", "proj", "GET", "/rest/v1/t", 200, at_);
    edge("e2", "proj", "POST", "/auth/v1/token", 500, at_);
    edge("e3", "proj", "GET", "/storage/v1/object/x", 404, at_);
    edge("e4", "other", "GET", "/rest/v1/t", 200, at_);                         // another project
    edge("e5", "proj", "GET", "/rest/v1/t", 200, now - std::chrono::hours(3));  // before the window
    Ingest(
        "postgres.logs", "p1", "relation \\\"t\\\" does not exist",
        R"(,"project":"proj","metadata":{"parsed":{"error_severity":"ERROR","sql_state_code":"42P01"}})",
        at_);
    Ingest(
        "postgres.logs", "p2", "checkpoint complete",
        R"(,"project":"proj","metadata":{"parsed":{"error_severity":"LOG","sql_state_code":"00000"}})",
        at_);
    Ingest("gotrue.logs.prod", "a1", "token refresh failed",
           R"(,"project":"proj","metadata":{"level":"error","status":500,"path":"/token"})", at_);
    Ingest(
        "deno-subhosting-events", "f1", "booted",
        R"(,"metadata":{"project_ref":"proj","function_id":"fn1","level":"info","event_type":"Boot"})",
        at_);
  }

  // GET, as Studio's self-hosted proxy forwards its query parameters.
  HttpResult Get(const std::string& sql, const std::string& project = "proj") {
    return GetEndpoint("logs.all.otel",
                       "project=" + project + "&" + LastHourWindow() + "&sql=" + UrlEncode(sql));
  }

  boost::json::array Query(const std::string& sql, const std::string& project = "proj") {
    return SqlRows("logs.all.otel", project, sql);
  }

  // POST, as Studio's proxy forwards a POST's JSON body: sql and the window in the body.
  boost::json::array Post(const std::string& sql, bool project_in_body) {
    const auto now = std::chrono::system_clock::now();
    boost::json::object body{{"sql", sql},
                             {"iso_timestamp_start", IsoSeconds(now - std::chrono::hours(1))},
                             {"iso_timestamp_end", IsoSeconds(now + std::chrono::minutes(1))}};
    if (project_in_body) body["project"] = "proj";
    HttpResult r = Fetch(Port(),
                         std::string("/api/endpoints/query/logs.all.otel") +
                             (project_in_body ? "" : "?project=proj"),
                         {{"x-api-key", kKey}, {"Content-Type", "application/json"}}, "POST",
                         boost::json::serialize(body));
    return ResultRows(r, sql);
  }

  static std::map<std::string, std::int64_t> Counts(const boost::json::array& rows) {
    std::map<std::string, std::int64_t> out;
    for (const auto& row : rows) {
      const auto& o = row.as_object();
      out[std::string(o.at("dimension").as_string()) + "/" +
          std::string(o.at("value").as_string())] = o.at("count").as_int64();
    }
    return out;
  }

  std::chrono::system_clock::time_point at_;
};

// genDefaultQueryOtel for edge_logs with Studio's status and method filters.
TEST_F(OtelEndpointTest, LogsPageRowsAsClickHouseWritesThem) {
  const std::string sql =
      "-- Logs Preview Query (otel) [edge_logs]\nSELECT id, timestamp, event_message, "
      "log_attributes['identifier'] AS identifier, log_attributes['request.method'] AS method, "
      "log_attributes['request.path'] AS path, log_attributes['request.search'] AS search, "
      "log_attributes['response.status_code'] AS status_code\nFROM logs\nWHERE source = "
      "'edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 500 AND "
      "599 AND log_attributes['request.method'] = 'POST'\nORDER BY timestamp DESC\nLIMIT 100";
  auto rows = Query(sql);
  ASSERT_EQ(rows.size(), 1u);
  const auto& row = rows[0].as_object();
  EXPECT_EQ(row.at("id").as_string(), "e2");
  EXPECT_EQ(row.at("timestamp").as_string(), ClickHouseAt(at_));
  EXPECT_EQ(row.at("method").as_string(), "POST");
  EXPECT_EQ(row.at("path").as_string(), "/auth/v1/token");
  EXPECT_EQ(row.at("status_code").as_string(), "500");
  EXPECT_EQ(row.at("identifier").as_string(), "");  // a missing key reads '' as in ClickHouse
  EXPECT_EQ(row.at("search").as_string(), "");
  // Without filters: this project's three edge events in the window, not e4 or e5.
  rows = Query(
      "SELECT id, timestamp, event_message FROM logs WHERE source = 'edge_logs' ORDER BY "
      "timestamp DESC, id LIMIT 100");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("id").as_string(), "e1");
  EXPECT_EQ(rows[2].at("id").as_string(), "e3");
  rows = Query("SELECT id FROM logs WHERE source = 'edge_logs' ORDER BY id", "other");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("id").as_string(), "e4");
}

// genCountQueryOtel and genChartQueryOtel: counts are numbers, as ClickHouse writes its UInt64.
TEST_F(OtelEndpointTest, CountAndChart) {
  auto rows = Query(
      "-- Logs Count Query (otel) [edge_logs]\nSELECT count() AS count FROM logs "
      "WHERE source = 'edge_logs'");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("count").as_int64(), 3);
  const std::string error = "toInt32OrZero(log_attributes['response.status_code']) >= 500";
  const std::string warning =
      "toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499";
  const std::string chart =
      "-- Logs Chart Query (otel) [edge_logs]\nSELECT\n  "
      "toStartOfMinute(timestamp) AS timestamp,\n  countIf(NOT ((" +
      error + ") OR (" + warning + "))) AS ok_count,\n  countIf(" + error +
      ") AS error_count,\n  countIf(" + warning +
      ") AS warning_count\nFROM logs\nWHERE source = 'edge_logs'\nGROUP BY "
      "timestamp\nORDER BY timestamp ASC";
  rows = Query(chart);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("timestamp").as_string(),
            ClickHouseAt(std::chrono::floor<std::chrono::minutes>(at_)));
  EXPECT_EQ(rows[0].at("ok_count").as_int64(), 1);
  EXPECT_EQ(rows[0].at("error_count").as_int64(), 1);
  EXPECT_EQ(rows[0].at("warning_count").as_int64(), 1);
  // The postgres page's chart, by hour.
  rows = Query(
      "SELECT\n  toStartOfHour(timestamp) AS timestamp,\n  countIf(NOT "
      "((log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) OR "
      "(log_attributes['parsed.error_severity'] = 'WARNING'))) AS ok_count,\n  "
      "countIf(log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) AS "
      "error_count,\n  countIf(log_attributes['parsed.error_severity'] = 'WARNING') AS "
      "warning_count\nFROM logs\nWHERE source = 'postgres_logs'\nGROUP BY timestamp\nORDER BY "
      "timestamp ASC");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("ok_count").as_int64(), 1);
  EXPECT_EQ(rows[0].at("error_count").as_int64(), 1);
}

// genSingleLogQueryOtel: the map column is a JSON object of strings.
TEST_F(OtelEndpointTest, SingleLog) {
  for (const auto& [id, source] :
       std::vector<std::pair<std::string, std::string>>{{"e2", "edge_logs"},
                                                        {"p1", "postgres_logs"},
                                                        {"a1", "auth_logs"},
                                                        {"f1", "function_logs"}}) {
    auto rows = Query(
        "-- Single Log Query (otel)\nSELECT id, timestamp, event_message, source, "
        "severity_text, log_attributes\nFROM logs\nWHERE id = '" +
        id + "'\nLIMIT 1");
    ASSERT_EQ(rows.size(), 1u) << id;
    const auto& row = rows[0].as_object();
    EXPECT_EQ(row.at("source").as_string(), source);
    EXPECT_EQ(row.at("timestamp").as_string(), ClickHouseAt(at_));
    ASSERT_TRUE(row.at("log_attributes").is_object()) << boost::json::serialize(row);
    for (const auto& [key, value] : row.at("log_attributes").as_object()) {
      EXPECT_TRUE(value.is_string()) << key;
    }
  }
  auto rows = Query("SELECT log_attributes, severity_text FROM logs WHERE id = 'e2' LIMIT 1");
  ASSERT_EQ(rows.size(), 1u);
  const auto& attrs = rows[0].at("log_attributes").as_object();
  EXPECT_EQ(attrs.at("request.method").as_string(), "POST");
  EXPECT_EQ(attrs.at("request.cf.country").as_string(), "NZ");
  EXPECT_EQ(attrs.at("response.status_code").as_string(), "500");
  rows = Query(
      "SELECT log_attributes['parsed.error_severity'] AS s, severity_text FROM logs "
      "WHERE id = 'p1'");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("s").as_string(), "ERROR");
  EXPECT_EQ(rows[0].at("severity_text").as_string(), "ERROR");
}

// Unified Logs: the row query, the bundled UNION ALL count query and the chart.
TEST_F(OtelEndpointTest, UnifiedLogs) {
  const std::string row_sql = "\nSELECT \n    id,\n    null AS source_id,\n    timestamp,\n    " +
                              kLogTypeExpr + " AS log_type,\n    " + kStatusExpr +
                              " AS status,\n    " + kLevelExpr + " AS level,\n    " + kPath +
                              " AS pathname,\n    event_message,\n    " + kMethod +
                              " AS method,\n    null AS log_count,\n    null AS logs\n\nFROM "
                              "logs\nWHERE " +
                              LogTypeWhere() + "\nORDER BY timestamp DESC, id\n";
  auto rows = Query(row_sql);
  ASSERT_EQ(rows.size(), 6u);  // e1-e3, p1, p2, a1; f1's function_logs is not a unified type
  std::map<std::string, boost::json::object> by_id;
  for (const auto& r : rows) by_id[std::string(r.at("id").as_string())] = r.as_object();
  ASSERT_EQ(by_id.count("f1"), 0u);
  EXPECT_EQ(by_id["e1"].at("log_type").as_string(), "postgrest");
  EXPECT_EQ(by_id["e2"].at("log_type").as_string(), "edge");
  EXPECT_EQ(by_id["e2"].at("level").as_string(), "error");
  EXPECT_EQ(by_id["e3"].at("log_type").as_string(), "storage");
  EXPECT_EQ(by_id["e3"].at("level").as_string(), "warning");
  EXPECT_EQ(by_id["p1"].at("status").as_string(), "42P01");
  EXPECT_EQ(by_id["p1"].at("level").as_string(), "error");
  EXPECT_EQ(by_id["p2"].at("level").as_string(), "success");
  EXPECT_TRUE(by_id["p1"].at("source_id").is_null());
  EXPECT_TRUE(by_id["a1"].at("logs").is_null());

  const auto counts = Counts(Post(UnifiedCountQuery(), false));
  EXPECT_EQ(counts.at("total/all"), 6);
  EXPECT_EQ(counts.at("log_type/edge"), 1);
  EXPECT_EQ(counts.at("log_type/postgrest"), 1);
  EXPECT_EQ(counts.at("log_type/storage"), 1);
  EXPECT_EQ(counts.at("log_type/postgres"), 2);
  EXPECT_EQ(counts.at("log_type/auth"), 1);
  EXPECT_EQ(counts.at("log_type/realtime"), 0);
  EXPECT_EQ(counts.at("level/error"), 3);  // e2, p1, a1 (auth's level error: severity ERROR)
  EXPECT_EQ(counts.at("level/warning"), 1);
  EXPECT_EQ(counts.at("level/success"), 2);
  EXPECT_EQ(counts.at("method/GET"), 2);
  EXPECT_EQ(counts.at("method/POST"), 1);
  EXPECT_EQ(counts.at("status/42P01"), 1);
  EXPECT_EQ(counts.at("status/500"), 1);
  EXPECT_EQ(counts.at("pathname//rest/v1/t"), 1);

  const std::string chart = "\nSELECT\n  toStartOfMinute(timestamp) AS time_bucket,\n  countIf((" +
                            kLevelExpr + ") = 'success') AS success,\n  countIf((" + kLevelExpr +
                            ") = 'warning') AS warning,\n  countIf((" + kLevelExpr +
                            ") = 'error') AS error,\n  count() AS total_per_bucket\nFROM "
                            "logs\nWHERE " +
                            LogTypeWhere() + "\nGROUP BY time_bucket\nORDER BY time_bucket ASC\n";
  rows = Post(chart, true);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("time_bucket").as_string(),
            ClickHouseAt(std::chrono::floor<std::chrono::minutes>(at_)));
  EXPECT_EQ(rows[0].at("total_per_bucket").as_int64(), 6);
  EXPECT_EQ(rows[0].at("error").as_int64(), 3);
}

// A query lqe cannot run is a 400 naming the problem and its position in the caller's sql.
TEST_F(OtelEndpointTest, BadSqlIsA400WithItsPosition) {
  HttpResult r = Get("SELECT id FROM logs\nWHERE uniqCombined(id) > 1");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("unsupported ClickHouse function uniqCombined"), std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find(" at 2:7"), std::string::npos) << r.body;
  // BigQuery SQL is not this endpoint's language; the stored tables are out of reach.
  r = Get("SELECT id FROM edge_logs");
  EXPECT_EQ(r.status, 400) << r.body;
  r = Get("SELECT id FROM `logs.edge`");
  EXPECT_EQ(r.status, 400) << r.body;
  // The project is required, as for logs.all.
  r = Fetch(Port(), "/api/endpoints/query/logs.all.otel?sql=" + UrlEncode("SELECT id FROM logs"),
            {{"x-api-key", kKey}});
  EXPECT_EQ(r.status, 400) << r.body;
}

}  // namespace
}  // namespace lqe::gateway
