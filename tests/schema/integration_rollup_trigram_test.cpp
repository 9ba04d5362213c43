// The proof behind usage.api-counts' rollup (005_edge_rollup.sql): logs.edge_url_rest_trigrams
// holds pg_trgm's inner trigrams of the lower-cased words of every URL rest, and the chart reads
// the rollup only when a trigram of a lower-cased alphanumeric run of @project is missing.
// Hand-made URLs with mixed case, '-' and '_' inside projects and multibyte words show which path
// answers (a marker added to the rollup alone) and that both answer exactly what the raw query
// does.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>

#include "schema_test_util.h"
#include "support/test_database.h"
#include "usage_chart.h"

namespace lqe::testing {
namespace {

const char* const kIntervals[] = {"minutely", "hourly", "daily", "1hr", "1day", "7day"};

// (minutes ago, path, url): one statement per entry, so the trigger runs once for each.
struct Event {
  int minutes_ago;
  const char* path;
  const char* url;
};
const Event kEvents[] = {
    {5, "/rest/v1/MyTable", "https://alphaproj.supabase.co/rest/v1/MyTable?select=*"},
    {7, "/storage/v1/object/x-cdefg_hij",
     "https://bravoproj.supabase.co/storage/v1/object/x-cdefg_hij"},
    {9, "/auth/v1/token", "https://charlie.supabase.co/auth/v1/token?ref=DELTAREF"},
    {11, "/realtime/v1/websocket", "https://deltaref.supabase.co/realtime/v1/websocket"},
    {13, "/rest/v1/Übergröße", "https://echoref.supabase.co/rest/v1/Übergröße/naïve?q=ÀBCdef"},
    {15, "/rest/v1/pq-rs", "https://foxtrot.supabase.co/rest/v1/pq-rs"},
    {2 * 24 * 60, "/auth/v1/user", "https://golfref.supabase.co/auth/v1/user#Kilo"},
};

class RollupTrigramTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db = std::make_unique<TestDatabase>("rollup_trigram");
    ASSERT_EQ(RunLqe({"migrate", "--dsn", db->dsn()}).exit_code, 0);
    pqxx::connection conn(db->dsn());
    int n = 0;
    for (const Event& e : kEvents) {
      pqxx::work tx(conn);
      tx.exec_params(
          "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) VALUES ($1, now() - "
          "make_interval(mins => $2), 'default', jsonb_build_object('request', "
          "jsonb_build_object('path', $3::text, 'url', $4::text)))",
          "t" + std::to_string(++n), e.minutes_ago, e.path, e.url);
      tx.commit();
    }
  }
  static void TearDownTestSuite() { db.reset(); }

  // Whether the chart answers @project from the rollup: a marker of 1000 auth requests added to
  // the rollup alone (then rolled back) under a prefix containing the project shows in its total.
  static bool ReadsRollup(const std::string& project) {
    static const PreparedChart shipped = TranslateChart("sql/usage.api-counts.sql");
    pqxx::connection conn(db->dsn());
    pqxx::work tx(conn);
    auto total_auth = [&] {
      std::int64_t sum = 0;
      for (const std::string& row : RunChart(tx, shipped, "7day", project)) {
        // timestamp|rest|storage|auth|realtime|
        std::size_t at = 0;
        for (int field = 0; field < 3; ++field) at = row.find('|', at) + 1;
        sum += std::stoll(row.substr(at, row.find('|', at) - at));
      }
      return sum;
    };
    const std::int64_t before = total_auth();
    tx.exec_params(
        "INSERT INTO logs.edge_api_minute VALUES (date_trunc('minute', now(), 'UTC') - "
        "interval '1 hour', $1, 1000, 0, 0, 1000, 0)",
        "https://" + project + ".marker");
    const std::int64_t after = total_auth();
    EXPECT_TRUE(after == before || after == before + 1000) << project;
    return after == before + 1000;
  }

  static std::unique_ptr<TestDatabase> db;
};

std::unique_ptr<TestDatabase> RollupTrigramTest::db;

TEST_F(RollupTrigramTest, StoresTheInnerPlainTrigramsOfTheLowerCasedWords) {
  pqxx::connection conn(db->dsn());
  pqxx::work tx(conn);
  // Words rest, v1, überg, x, ab, cd, y, abcd: 'übe' is hashed by pg_trgm and left out, as are
  // the padded trigrams of every word and the words shorter than 3.
  EXPECT_EQ(tx.exec1("SELECT logs.url_rest_trigrams('/rest/v1/ÜberG?x=AB_cd&y=Abcd')::text")[0]
                .as<std::string>(),
            "{abc,bcd,ber,erg,est,res}");
  EXPECT_EQ(tx.exec1("SELECT string_agg(trigram, ',' ORDER BY trigram) FROM "
                     "logs.edge_url_rest_trigrams WHERE day = date_trunc('day', now() - "
                     "interval '2 days', 'UTC')")[0]
                .as<std::string>(),
            "aut,ilo,kil,ser,use,uth");
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.edge_url_rest_trigrams WHERE trigram !~ "
                     "'^[a-z0-9]{3}$'")[0]
                .as<int>(),
            0);
}

TEST_F(RollupTrigramTest, ProjectsFoundInARestInAnyCaseReadTheRawTable) {
  // In a rest with another case: the raw query does not match, yet the rollup cannot prove it.
  EXPECT_FALSE(ReadsRollup("deltaref"));
  EXPECT_FALSE(ReadsRollup("mytable"));
  EXPECT_FALSE(ReadsRollup("bcdef"));
  EXPECT_FALSE(ReadsRollup("kilo"));
  // In a rest with the same case (also inside a multibyte word).
  EXPECT_FALSE(ReadsRollup("DELTAREF"));
  EXPECT_FALSE(ReadsRollup("MyTable"));
  EXPECT_FALSE(ReadsRollup("BCdef"));
  EXPECT_FALSE(ReadsRollup("bergr"));
}

TEST_F(RollupTrigramTest, ProjectsWithAMissingTrigramReadTheRollup) {
  EXPECT_TRUE(ReadsRollup("alphaproj"));
  EXPECT_TRUE(ReadsRollup("AlphaProj"));
  EXPECT_TRUE(ReadsRollup("MyTablez"));  // 'lez' occurs nowhere
  EXPECT_TRUE(ReadsRollup("golfref"));
}

TEST_F(RollupTrigramTest, DashesAndUnderscoresSplitTheProjectIntoRuns) {
  // Runs of 3 or more whose trigrams all occur ('cdefg', 'hij' in x-cdefg_hij): raw.
  EXPECT_FALSE(ReadsRollup("xx-cdefg"));
  EXPECT_FALSE(ReadsRollup("ab_cdefg_hij"));
  // One run with a missing trigram is enough: 'qrstu'.
  EXPECT_TRUE(ReadsRollup("zz_qrstu-cdefg"));
  EXPECT_TRUE(ReadsRollup("charlie-zz"));
}

TEST_F(RollupTrigramTest, ProjectsWithoutARunOfThreeReadTheRawTable) {
  EXPECT_FALSE(ReadsRollup("pq-rs"));
  EXPECT_FALSE(ReadsRollup("ab-cd"));
  EXPECT_FALSE(ReadsRollup("a_b_c"));
  EXPECT_FALSE(ReadsRollup("zz-zz_zz"));
}

TEST_F(RollupTrigramTest, EveryProjectAndIntervalEqualsTheRawQuery) {
  const PreparedChart raw = TranslateChart("tests/fixtures/volume/usage.api-counts.raw.sql");
  const PreparedChart shipped = TranslateChart("sql/usage.api-counts.sql");
  pqxx::connection conn(db->dsn());
  std::size_t non_empty = 0;
  for (const char* project :
       {"deltaref",     "DELTAREF",       "mytable", "MyTable", "MyTablez", "alphaproj",
        "AlphaProj",    "bcdef",          "BCdef",   "bergr",   "xx-cdefg", "x-cdefg_hij",
        "ab_cdefg_hij", "zz_qrstu-cdefg", "pq-rs",   "ab-cd",   "a_b_c",    "echoref",
        "golfref",      "Kilo",           "kilo",    "charlie"}) {
    for (const char* interval : kIntervals) {
      pqxx::work tx(conn);
      tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      const auto expected = RunChart(tx, raw, interval, project);
      EXPECT_EQ(RunChart(tx, shipped, interval, project), expected)
          << "project '" << project << "', interval " << interval;
      if (!expected.empty()) ++non_empty;
    }
  }
  EXPECT_GE(non_empty, 40u);
}

TEST_F(RollupTrigramTest, ARebuildEqualsTheTriggersTables) {
  pqxx::connection conn(db->dsn());
  pqxx::work tx(conn);
  const char* const snapshot_sql = kRollupSnapshotSql;
  const std::string incremental = tx.exec1(snapshot_sql)[0].as<std::string>();
  const int trigrams = tx.exec1("SELECT count(*) FROM logs.edge_url_rest_trigrams")[0].as<int>();
  tx.exec("SELECT logs.rebuild_edge_rollups()");
  EXPECT_EQ(tx.exec1(snapshot_sql)[0].as<std::string>(), incremental);
  tx.exec("SELECT logs.rebuild_edge_url_rest_trigrams()");
  EXPECT_EQ(tx.exec1(snapshot_sql)[0].as<std::string>(), incremental);
  EXPECT_GT(trigrams, 30);
}

}  // namespace
}  // namespace lqe::testing
