// logs.otel, the OTEL-shaped relation over the nine log tables: its columns over the fixture
// events (tests/fixtures), and plans that read only the named source and the days asked for.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "sqllogic/migrations.h"
#include "support/test_database.h"

namespace {

namespace json = boost::json;

class OtelView : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_db = new lqe::testing::TestDatabase("otel_view");
    lqe::sqllogic::ApplyMigrations(shared_db->dsn());
    lqe::sqllogic::LoadFixtures(shared_db->dsn());
    pqxx::connection conn(shared_db->dsn());
    pqxx::work tx(conn);
    // Days around the fixtures' 2025-01-15, so pruning has partitions to leave out.
    tx.exec("SELECT logs.ensure_partitions('2025-01-13', '2025-01-17')");
    tx.exec("ANALYZE");
    tx.commit();
  }
  static void TearDownTestSuite() { delete shared_db; }

  static std::vector<std::vector<std::string>> Rows(const std::string& sql) {
    pqxx::connection conn(shared_db->dsn());
    pqxx::nontransaction tx(conn);
    std::vector<std::vector<std::string>> out;
    for (const auto& row : tx.exec(sql)) {
      std::vector<std::string> cells;
      for (const auto& field : row) {
        cells.emplace_back(field.is_null() ? "NULL" : field.c_str());
      }
      out.push_back(std::move(cells));
    }
    return out;
  }

  static std::string One(const std::string& sql) {
    const auto rows = Rows(sql);
    EXPECT_EQ(rows.size(), 1U) << sql;
    return rows.empty() || rows[0].empty() ? "" : rows[0][0];
  }

  // The relations a plan scans (EXPLAIN without ANALYZE: what planning left).
  static std::vector<std::string> Scanned(const std::string& sql) {
    const json::value plan = json::parse(One("EXPLAIN (FORMAT JSON) " + sql));
    std::vector<std::string> out;
    Collect(plan.as_array().at(0).as_object().at("Plan"), out);
    return out;
  }

  static void Collect(const json::value& node, std::vector<std::string>& out) {
    const auto& obj = node.as_object();
    if (const auto* rel = obj.if_contains("Relation Name")) {
      out.emplace_back(rel->as_string().c_str());
    }
    if (const auto* plans = obj.if_contains("Plans")) {
      for (const auto& child : plans->as_array()) {
        Collect(child, out);
      }
    }
  }

  static lqe::testing::TestDatabase* shared_db;
};

lqe::testing::TestDatabase* OtelView::shared_db = nullptr;

TEST_F(OtelView, EverySourceUnderItsStudioName) {
  const auto rows = Rows("SELECT source, count(*) FROM logs.otel GROUP BY source ORDER BY source");
  const std::vector<std::vector<std::string>> expected = {
      {"auth_logs", "8"},      {"edge_logs", "125"},    {"function_edge_logs", "7"},
      {"function_logs", "4"},  {"pgbouncer_logs", "2"}, {"postgres_logs", "13"},
      {"postgrest_logs", "3"}, {"realtime_logs", "3"},  {"storage_logs", "3"}};
  EXPECT_EQ(rows, expected);
}

TEST_F(OtelView, ColumnsOfAnEdgeEvent) {
  const auto rows = Rows(
      "SELECT id, project, source, event_message, severity_text, severity_number, "
      "service_name, trace_id, span_id, to_char(timestamp AT TIME ZONE 'UTC', "
      "'YYYY-MM-DD HH24:MI:SS') FROM logs.otel WHERE id = 'e-009'");
  const std::vector<std::vector<std::string>> expected = {
      {"e-009", "default", "edge_logs", "GET | 500 | /rest/v1/auth/storage", "INFO", "9", "", "",
       "", "2025-01-15 10:09:00"}};
  EXPECT_EQ(rows, expected);
}

TEST_F(OtelView, LogAttributesAreTheEventFlattenedToDottedTextKeys) {
  const json::value attrs =
      json::parse(One("SELECT log_attributes FROM logs.otel WHERE id = 'e-009'"));
  const json::object expected = {
      {"project", "default"},
      {"request.method", "GET"},
      {"request.path", "/rest/v1/auth/storage"},
      {"request.url", "https://default.supabase.co/rest/v1/auth/storage"},
      {"request.headers.cf_connecting_ip", "2001:db8::9"},
      {"response.status_code", "500"},
      {"response.origin_time", "20"}};
  EXPECT_EQ(attrs.as_object(), expected);
  // Numbers and booleans as their JSON text, arrays whole, null left out.
  EXPECT_EQ(One("SELECT logs.otel_flatten('{\"a\": {\"b\": true, \"c\": null, \"d\": [1, \"x\"]}, "
                "\"e\": 1.50, \"f\": \"\"}')::text"),
            R"({"e": "1.50", "f": "", "a.b": "true", "a.d": "[1, \"x\"]"})");
  EXPECT_EQ(One("SELECT logs.otel_flatten('[1]')::text"), "{}");
}

TEST_F(OtelView, SeverityFollowsLogflaresMapping) {
  // postgres: metadata.parsed.error_severity; auth: metadata.level, upper-cased; edge: none.
  const auto rows = Rows(
      "SELECT id, severity_text, severity_number FROM logs.otel "
      "WHERE id IN ('p-01', 'p-02', 'p-11', 'a-1', 'a-0', 'e-000') ORDER BY id");
  const std::vector<std::vector<std::string>> expected = {
      {"a-0", "INFO", "9"},    {"a-1", "ERROR", "17"},    {"e-000", "INFO", "9"},
      {"p-01", "ERROR", "17"}, {"p-02", "WARNING", "13"}, {"p-11", "FATAL", "21"}};
  EXPECT_EQ(rows, expected);
  // A value outside Logflare's list reads INFO; a top-level severity_text comes first.
  EXPECT_EQ(One("SELECT logs.otel_severity_text('{}', '{\"level\": \"30\"}')"), "INFO");
  EXPECT_EQ(One("SELECT logs.otel_severity_text('{\"severity_text\": \"warn\"}', "
                "'{\"level\": \"error\"}')"),
            "WARN");
  EXPECT_EQ(One("SELECT logs.otel_severity_number('LOG')"), "9");
}

TEST_F(OtelView, ProjectIsReadWhereLogsAllReadsIt) {
  const auto rows = Rows(
      "SELECT source, project, count(*) FROM logs.otel "
      "WHERE source IN ('function_edge_logs', 'storage_logs') GROUP BY 1, 2 ORDER BY 1, 2");
  const std::vector<std::vector<std::string>> expected = {{"function_edge_logs", "default", "6"},
                                                          {"function_edge_logs", "other", "1"},
                                                          {"storage_logs", "default", "3"}};
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(One("SELECT resource_attributes ->> 'project' FROM logs.otel WHERE id = 'fe-0'"),
            "default");
}

TEST_F(OtelView, ASourcePredicateReadsOnlyThatSourcesTable) {
  for (const auto& [source, table] :
       std::vector<std::pair<std::string, std::string>>{{"edge_logs", "edge"},
                                                        {"function_logs", "function_events"},
                                                        {"postgrest_logs", "restapi"},
                                                        {"pgbouncer_logs", "pooler"}}) {
    const auto scanned =
        Scanned("SELECT id, log_attributes FROM logs.otel WHERE source = '" + source + "'");
    ASSERT_FALSE(scanned.empty()) << source;
    for (const auto& rel : scanned) {
      EXPECT_EQ(rel.rfind(table + "_p", 0), 0U) << source << " scanned " << rel;
    }
  }
  // A source no table has leaves nothing to scan.
  EXPECT_TRUE(Scanned("SELECT id FROM logs.otel WHERE source = 'multigres_logs'").empty());
}

TEST_F(OtelView, TheTimeRangePrunesDaysWhilePlanning) {
  const auto scanned = Scanned(
      "SELECT count(*) FROM logs.otel WHERE source = 'edge_logs' AND project = 'default' "
      "AND timestamp >= '2025-01-15 10:00:00+00' AND timestamp < '2025-01-15 11:00:00+00'");
  EXPECT_EQ(scanned, std::vector<std::string>{"edge_p20250115"});
  // Over all sources: one day of each.
  for (const auto& rel :
       Scanned("SELECT id FROM logs.otel WHERE timestamp >= "
               "'2025-01-16 00:00:00+00' AND timestamp < '2025-01-17 00:00:00+00'")) {
    EXPECT_NE(rel.find("_p20250116"), std::string::npos) << rel;
  }
}

TEST_F(OtelView, TheGatewayRoleReadsIt) {
  pqxx::connection conn(shared_db->dsn());
  pqxx::work tx(conn);
  const std::string role = tx.exec1("SELECT name FROM logs.gateway_role")[0].as<std::string>();
  tx.exec("SET LOCAL ROLE " + tx.quote_name(role));
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.otel WHERE source = 'auth_logs'")[0].as<int>(), 8);
}

// logs.otel_attribute (one key of log_attributes, read without the map) agrees with the map on
// every key of every fixture event, and on documents where a key is reachable by more than one
// path: the deepest path wins, then the greatest.
TEST_F(OtelView, OneAttributeReadsAsTheMapHoldsIt) {
  const std::string documents =
      "SELECT project, extra, metadata FROM (VALUES "
      "('p', '{\"a.b\": 1, \"a\": {\"b\": 2}}'::jsonb, '{}'::jsonb), "
      "('p', '{\"a\": {\"b.c\": \"x\"}, \"a.b\": {\"c\": \"y\"}}', '{}'), "
      "('p', '{\"a\": {\"b\": null}, \"a.b\": 5}', '{}'), "
      "('p', '{\"a\": {\"b\": {\"c\": 1}}}', '{\"a\": 3}'), "
      "(NULL, '{\"project\": \"q\"}', '{}'), ('p', '{}', '{\"project\": \"r\"}'), "
      "('p', '{\"x\": [1, 2], \"y\": true, \"z\": 1.50, \"s\": \"{text\", \"o\": {\"k\": \"v\"}}', "
      "'{\"request\": {\"method\": \"GET\", \"h\": {\"a.b\": \"c\"}}}'), "
      "('p', '{\"\": {\"a\": 1}}', '{\"q\": {\"\": 2}}')) AS d(project, extra, metadata) "
      "UNION ALL SELECT (attributes_event).* FROM logs.otel_events";
  const std::string keys =
      "SELECT k FROM (VALUES ('a.b'), ('a'), ('a.b.c'), ('project'), ('x'), ('y'), ('z'), ('s'), "
      "('o'), ('o.k'), ('request.h.a.b'), ('request.h'), ('missing.x'), (''), ('.a'), ('q.')) "
      "AS k(k) UNION SELECT jsonb_object_keys(log_attributes) FROM logs.otel";
  EXPECT_GT(std::stoi(One("SELECT count(*) FROM (" + keys + ") k")), 30);
  EXPECT_EQ(One("SELECT count(*) FROM (" + documents + ") d, (" + keys +
                ") k WHERE logs.otel_attribute(ROW(d.project, d.extra, d.metadata)::"
                "logs.otel_event, k.k) IS DISTINCT FROM "
                "logs.otel_log_attributes(d.project, d.extra, d.metadata) ->> k.k"),
            "0");
  EXPECT_EQ(One("SELECT logs.otel_attribute(ROW('p', '{\"a.b\": 1, \"a\": {\"b\": 2}}', '{}')::"
                "logs.otel_event, 'a.b')"),
            "2");
}

// A key found where its dots say is read with a few jsonb operators on the row's own columns:
// the planner inlines logs.otel_attribute, and the map is not built.
TEST_F(OtelView, OneAttributeIsInlinedIntoJsonbOperators) {
  const auto plan = Rows(
      "EXPLAIN (VERBOSE) SELECT count(*) FROM logs.otel_events WHERE source = 'edge_logs' AND "
      "logs.otel_attribute(attributes_event, 'request.method') = 'GET'");
  std::string text;
  for (const auto& row : plan) text += row[0] + "\n";
  EXPECT_NE(text.find("#>> '{request,method}'"), std::string::npos) << text;
  EXPECT_EQ(text.find("otel_attribute("), std::string::npos) << text;
  EXPECT_EQ(text.find("otel_log_attributes"), std::string::npos) << text;
  EXPECT_EQ(text.find("otel_flatten"), std::string::npos) << text;
}

}  // namespace
