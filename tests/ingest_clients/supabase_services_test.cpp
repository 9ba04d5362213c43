// The nine Supabase services' real event shapes (tests/fixtures/ingest/<table>.ndjson), each
// posted the way self-hosted Supabase's Vector posts it (JSON array, `source_name` of the
// service, `x-api-key`) and read back at once through the matching CTE of logs.all with typed
// filters: integer auth `metadata.status`, integer storage `metadata.level`, the array
// `metadata.context`, nested records of edge and postgres events.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>
#include <sstream>

#include "ingest_server.h"

namespace lqe::ingest_clients {
namespace {

// The fixture's NDJSON lines as one JSON array, as Vector batches them.
std::string FixtureArray(const std::string& table, int* events) {
  std::istringstream lines(lqe::testing::ReadFileText(
      lqe::testing::SourcePath("tests/fixtures/ingest/" + table + ".ndjson")));
  std::string body = "[";
  std::string line;
  *events = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (*events > 0) body += ",";
    body += line;
    ++*events;
  }
  return body + "]";
}

std::string Column(const boost::json::array& rows, const char* name) {
  std::string out;
  for (const auto& row : rows) {
    if (!out.empty()) out += ",";
    out += boost::json::serialize(row.as_object().at(name));
  }
  return out;
}

// One server and database for the suite: the posts happen once, each test only reads.
class SupabaseServicesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    suite_db = new lqe::testing::TestDatabase("supabase");
    suite_server = new IngestServer(*suite_db);
    ASSERT_TRUE(suite_server->Up()) << suite_server->Log();
    for (const char* table : {"edge", "postgres", "function_edge", "function_events", "auth",
                              "realtime", "storage", "restapi", "pooler"}) {
      int events = 0;
      const std::string body = FixtureArray(table, &events);
      ASSERT_GT(events, 0) << table;
      const HttpResult r =
          suite_server->Post("/api/logs?source_name=" + SupabaseSourceName(table), body);
      ASSERT_EQ(r.status, 200) << table << ": " << r.body << r.error << "\n" << suite_server->Log();
      EXPECT_EQ(r.body, R"({"message":"Logged!"})") << table;
      EXPECT_EQ(r.Header("content-type").rfind("application/json", 0), 0U) << table;
    }
    posted = true;
  }
  static void TearDownTestSuite() {
    delete suite_server;
    delete suite_db;
  }
  void SetUp() override { ASSERT_TRUE(posted) << "the suite's posts failed (see above)"; }

  // The number of rows `from` (a CTE, with joins and a WHERE) gives, through logs.all.
  int Count(const std::string& from) {
    const boost::json::array rows = suite_server->LogsAll("select count(*) as n from " + from);
    if (rows.size() != 1) return -1;
    return static_cast<int>(rows[0].as_object().at("n").to_number<std::int64_t>());
  }

  // NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables): gtest's suite fixture
  static inline lqe::testing::TestDatabase* suite_db = nullptr;
  static inline IngestServer* suite_server = nullptr;
  static inline bool posted = false;
  // NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)
};

TEST_F(SupabaseServicesTest, EveryServiceLandsWholeInItsCte) {
  EXPECT_EQ(Count("edge_logs"), 3);
  EXPECT_EQ(Count("postgres_logs"), 2);
  EXPECT_EQ(Count("function_edge_logs"), 2);
  EXPECT_EQ(Count("function_logs"), 1);
  EXPECT_EQ(Count("auth_logs"), 6);
  EXPECT_EQ(Count("realtime_logs"), 2);
  EXPECT_EQ(Count("storage_logs"), 3);
  EXPECT_EQ(Count("restapi_logs"), 2);
  EXPECT_EQ(Count("postgrest_logs"), 2);
  EXPECT_EQ(Count("pooler_logs"), 1);
  EXPECT_EQ(Count("pgbouncer_logs"), 1);
}

TEST_F(SupabaseServicesTest, AuthStatusAndDurationAreIntegers) {
  // Studio's auth error filter: metadata.status compared as an integer.
  const boost::json::array rows = suite_server->LogsAll(
      "select m.status, m.duration, m.path from auth_logs cross join unnest(metadata) as m "
      "where m.status >= 400 order by m.status");
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(Column(rows, "status"), "400,401,500");
  EXPECT_EQ(Column(rows, "duration"), "48211000,900000,2300000");
  EXPECT_EQ(Column(rows, "path"), R"("/token","/user","/user")");
  // Arithmetic on the integer: total request time of the failed requests, in milliseconds.
  const boost::json::array total = suite_server->LogsAll(
      "select sum(m.duration) / 1000000 as ms from auth_logs cross join unnest(metadata) as m "
      "where m.status >= 400");
  ASSERT_EQ(total.size(), 1U);
  EXPECT_DOUBLE_EQ(total[0].as_object().at("ms").to_number<double>(), 51.411);
}

TEST_F(SupabaseServicesTest, StorageLevelIsAnIntegerAndContextAnArray) {
  const boost::json::array rows = suite_server->LogsAll(
      "select event_message, m.level from storage_logs cross join unnest(metadata) as m "
      "where m.level >= 50");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].as_object().at("event_message"), "request errored");
  EXPECT_EQ(rows[0].as_object().at("level"), 50);
  const boost::json::array pids = suite_server->LogsAll(
      "select c.pid, c.host from storage_logs cross join unnest(metadata) as m "
      "cross join unnest(m.context) as c order by storage_logs.timestamp");
  EXPECT_EQ(Column(pids, "pid"), "1,1");
  EXPECT_EQ(Column(pids, "host"), R"("9c2b1a7f0e11","9c2b1a7f0e11")");
}

TEST_F(SupabaseServicesTest, EdgeAndPostgresNestedRecords) {
  const boost::json::array edge = suite_server->LogsAll(
      "select r.status_code, request.method, request.path from edge_logs "
      "cross join unnest(metadata) as m cross join unnest(m.request) as request "
      "cross join unnest(m.response) as r where r.status_code >= 400");
  ASSERT_EQ(edge.size(), 1U);
  EXPECT_EQ(edge[0].as_object().at("status_code"), 400);
  EXPECT_EQ(edge[0].as_object().at("method"), "POST");
  EXPECT_EQ(edge[0].as_object().at("path"), "/auth/v1/token?grant_type=password");

  const boost::json::array errors = suite_server->LogsAll(
      "select p.error_severity, event_message from postgres_logs "
      "cross join unnest(metadata) as m cross join unnest(m.parsed) as p "
      "where p.error_severity = 'ERROR'");
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_NE(std::string(errors[0].as_object().at("event_message").as_string())
                .find("relation \"todoz\" does not exist"),
            std::string::npos);
}

TEST_F(SupabaseServicesTest, LevelsOfRealtimeAndFunctionsAreStrings) {
  EXPECT_EQ(Count("realtime_logs cross join unnest(metadata) as m where m.level = 'info'"), 1);
  EXPECT_EQ(Count("function_logs cross join unnest(metadata) as m where m.level = 'info'"), 1);
  EXPECT_EQ(Count("function_edge_logs cross join unnest(metadata) as m "
                  "where m.project_ref = 'default'"),
            2);
  EXPECT_EQ(Count("restapi_logs cross join unnest(metadata) as m where m.host = 'default'"), 2);
}

}  // namespace
}  // namespace lqe::ingest_clients
