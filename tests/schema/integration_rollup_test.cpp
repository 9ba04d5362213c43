// The edge rollups of 005_edge_rollup.sql against the raw tables: the shipped usage.api-counts
// query (which reads logs.edge_api_minute when that is exact) returns exactly what the raw query of
// tests/fixtures/volume returns, for every interval and for project values that take the rollup
// and values that must fall back, on 30k generated events plus hand-made awkward ones.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>

#include "schema_test_util.h"
#include "support/test_database.h"
#include "usage_chart.h"

namespace lqe::testing {
namespace {

const char* const kIntervals[] = {"minutely", "hourly", "daily", "1hr", "1day", "7day"};

class RollupTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_db = std::make_unique<TestDatabase>("rollup");
    ASSERT_EQ(RunLqe({"migrate", "--dsn", shared_db->dsn()}).exit_code, 0);
    const CommandResult generated = RunLqe(
        {"generate", "--source", "edge", "--count", "30000", "--projects", "10", "--seed", "11"});
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    const CommandResult loaded = RunLqe(
        {"load", "--dsn", shared_db->dsn(), "--source", "edge", WriteTempFile(generated.out)});
    ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
    pqxx::connection conn(shared_db->dsn());
    pqxx::work tx(conn);
    // One project's reference inside another URL's path and query, so that project's chart must
    // not come from the rollup; URLs without a scheme, a number, no path; written by plain SQL.
    const std::string ref =
        tx.exec1(
              "SELECT substring(url_prefix FROM '//([a-z]+)[.]') FROM logs.edge_api_minute "
              "WHERE url_prefix NOT LIKE '%default%' ORDER BY url_prefix LIMIT 1")[0]
            .as<std::string>();
    embedded_ref = new std::string(ref);
    tx.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) VALUES "
        "('h1', now() - interval '3 minutes', 'default', jsonb_build_object('request', "
        "jsonb_build_object('path', '/rest/v1/" +
        ref + "', 'url', 'https://default.supabase.co/rest/v1/" + ref +
        "?x=1'))),"
        "('h2', now() - interval '20 minutes', 'default', "
        "'{\"request\":{\"path\":\"/auth/v1\",\"url\":\"default/auth/v1\"}}'),"
        "('h3', now() - interval '2 hours', 'default', '{\"request\":{\"url\":12345}}'),"
        "('h4', now() - interval '1 minute', 'default', "
        "'{\"request\":{\"url\":\"https://default.supabase.co\"}}'),"
        "('h5', now() - interval '2 days', 'default', '{\"request\":[{\"url\":\"https://x\"}]}')");
    tx.commit();
  }
  static void TearDownTestSuite() {
    shared_db.reset();
    delete embedded_ref;
  }

  static std::unique_ptr<TestDatabase> shared_db;
  static std::string* embedded_ref;
};

std::unique_ptr<TestDatabase> RollupTest::shared_db;
std::string* RollupTest::embedded_ref = nullptr;

TEST_F(RollupTest, EveryIntervalEqualsTheRawQuery) {
  const PreparedChart raw = TranslateChart("tests/fixtures/volume/usage.api-counts.raw.sql");
  const PreparedChart shipped = TranslateChart("sql/usage.api-counts.sql");
  pqxx::connection conn(shared_db->dsn());
  std::vector<std::string> projects = {
      *embedded_ref, "default", "supabase", "co/rest", ".*",
      "(?i)DEFAULT", "https",   "ab",       "",        "default.supabase.co",
      "auth",        "12345"};
  {
    pqxx::work tx(conn);
    for (const auto& row :
         tx.exec("SELECT DISTINCT substring(url_prefix FROM '//([a-z]+)[.]') FROM "
                 "logs.edge_api_minute WHERE url_prefix LIKE 'https://%.supabase.co'")) {
      projects.push_back(row[0].as<std::string>());
    }
  }
  ASSERT_GE(projects.size(), 20u);
  std::size_t non_empty = 0;
  for (const std::string& project : projects) {
    for (const char* interval : kIntervals) {
      // One snapshot and one now() for both.
      pqxx::work tx(conn, "compare");
      tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      const auto expected = RunChart(tx, raw, interval, project);
      const auto got = RunChart(tx, shipped, interval, project);
      EXPECT_EQ(got, expected) << "project '" << project << "', interval " << interval;
      if (!expected.empty()) ++non_empty;
    }
  }
  EXPECT_GT(non_empty, projects.size() * 4);
}

// A marker added to the rollup alone shows which path answered: a plain reference is read from
// the rollup, anything else (a regex, a reference found inside some URL's path) from logs.edge.
TEST_F(RollupTest, PlainReferencesReadTheRollupAndOthersTheRawTable) {
  const PreparedChart shipped = TranslateChart("sql/usage.api-counts.sql");
  pqxx::connection conn(shared_db->dsn());
  pqxx::work tx(conn);
  const std::string ref =
      tx.exec1(
            "SELECT substring(url_prefix FROM '//([a-z]+)[.]') FROM logs.edge_api_minute "
            "WHERE url_prefix LIKE 'https://%.supabase.co' AND url_prefix NOT LIKE '%default%' "
            "AND url_prefix NOT LIKE '%" +
            *embedded_ref + "%' LIMIT 1")[0]
          .as<std::string>();
  auto total_auth = [&](const std::string& project) {
    std::int64_t sum = 0;
    for (const std::string& row : RunChart(tx, shipped, "7day", project)) {
      // timestamp|rest|storage|auth|realtime|
      std::size_t at = 0;
      for (int field = 0; field < 3; ++field) at = row.find('|', at) + 1;
      sum += std::stoll(row.substr(at, row.find('|', at) - at));
    }
    return sum;
  };
  const std::int64_t before_ref = total_auth(ref);
  const std::int64_t before_embedded = total_auth(*embedded_ref);
  const std::int64_t before_regex = total_auth(ref + "[.]supabase");
  for (const std::string& prefix :
       {"https://" + ref + ".supabase.co", "https://" + *embedded_ref + ".supabase.co"}) {
    tx.exec_params(
        "INSERT INTO logs.edge_api_minute VALUES (date_trunc('minute', now(), 'UTC') - "
        "interval '1 hour', $1, 1000, 0, 0, 1000, 0) ON CONFLICT (\"timestamp\", url_prefix) DO "
        "UPDATE SET auth_requests = logs.edge_api_minute.auth_requests + 1000",
        prefix);
  }
  EXPECT_EQ(total_auth(ref), before_ref + 1000);
  EXPECT_EQ(total_auth(*embedded_ref), before_embedded);
  EXPECT_EQ(total_auth(ref + "[.]supabase"), before_regex);
  EXPECT_GT(before_ref, 0);
}

TEST_F(RollupTest, IncrementalMaintenanceEqualsARebuild) {
  pqxx::connection conn(shared_db->dsn());
  pqxx::work tx(conn);
  const char* const snapshot_sql = kRollupSnapshotSql;
  const std::string incremental = tx.exec1(snapshot_sql)[0].as<std::string>();
  EXPECT_GT(tx.exec1("SELECT count(*) FROM logs.edge_api_minute_delta")[0].as<int>(), 0);
  tx.exec("SELECT logs.rebuild_edge_rollups()");
  EXPECT_EQ(tx.exec1(snapshot_sql)[0].as<std::string>(), incremental);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.edge_api_minute_delta")[0].as<int>(), 0);
  EXPECT_EQ(tx.exec1("SELECT sum(requests) FROM logs.edge_api_minute")[0].as<std::int64_t>(),
            tx.exec1("SELECT count(*) FROM logs.edge WHERE metadata -> 'request' ->> 'url' IS "
                     "NOT NULL")[0]
                .as<std::int64_t>());
}

TEST(RollupRetentionTest, RetentionDropsTheRollupsOfDroppedDays) {
  TestDatabase db("rollup_retention");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  const CommandResult generated =
      RunLqe({"generate", "--source", "edge", "--count", "2000", "--seed", "5"});
  ASSERT_EQ(generated.exit_code, 0);
  ASSERT_EQ(RunLqe({"load", "--dsn", db.dsn(), "--source", "edge", WriteTempFile(generated.out)})
                .exit_code,
            0);
  const CommandResult retained = RunLqe({"retention", "--dsn", db.dsn(), "--days", "3"});
  ASSERT_EQ(retained.exit_code, 0) << retained.err;
  pqxx::connection conn(db.dsn());
  pqxx::work tx(conn);
  const char* const cutoff = "((now() AT TIME ZONE 'UTC')::date - 3)::timestamp AT TIME ZONE 'UTC'";
  EXPECT_EQ(
      tx.exec1(std::string("SELECT count(*) FROM logs.edge_api_minute WHERE \"timestamp\" < ") +
               cutoff)[0]
          .as<int>(),
      0);
  EXPECT_EQ(tx.exec1(std::string("SELECT count(*) FROM logs.edge_url_rest_trigrams WHERE day < ") +
                     cutoff)[0]
                .as<int>(),
            0);
  EXPECT_EQ(tx.exec1("SELECT sum(requests) FROM logs.edge_api_minute")[0].as<std::int64_t>(),
            tx.exec1("SELECT count(*) FROM logs.edge")[0].as<std::int64_t>());
}

}  // namespace
}  // namespace lqe::testing
