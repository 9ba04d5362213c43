// lqe's writers (005_edge_rollup.sql) count their own rows into the edge rollups (EdgeRollupCounts)
// and the trigger skips exactly the insert they announced. Checked against
// logs.rebuild_edge_rollups on URLs chosen to tell the prefix regex and pg_trgm's lower-casing
// apart, with the function calls counted to show which path counted (so the writer's rules matched
// this cluster's); then the SQL handshake itself.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>
#include <string>

#include "schema_test_util.h"
#include "support/test_database.h"
#include "usage_chart.h"

namespace lqe::testing {
namespace {

// One NDJSON event on 2026-11-20 at the given time, with metadata.request as given (JSON text).
std::string EdgeEvent(const std::string& id, const std::string& time, const std::string& request) {
  return R"({"id":")" + id + R"(","timestamp":"2026-11-20T)" + time +
         R"(Z","event_message":"GET","project":"p","metadata":{"request":)" + request + "}}\n";
}

// URLs whose prefix and trigrams the writer must make exactly as the SQL does.
std::string AwkwardEvents() {
  std::string out;
  int n = 0;
  auto add = [&](const std::string& time, const std::string& request) {
    out += EdgeEvent("w" + std::to_string(++n), time, request);
  };
  add("10:00:01", R"({"url":"https://Abc.supabase.co:443/rest/v1/Tbl_Name?select=*#Frag",)"
                  R"("path":"/rest/v1/Tbl_Name"})");
  add("10:00:02", R"({"url":"https://abc.supabase.co/storage/v1/object/İab/xyİ/\u212aelvin",)"
                  R"("path":"/storage/v1/object/auth/realtime"})");
  add("10:00:59", R"({"url":"https://abc.supabase.co/Wörter/ab€cd1/éab1/ıxy/ǅxy"})");
  add("10:01:00", R"({"url":"a?b//c/DEF","path":"/auth/v1/token"})");
  add("10:01:30", R"({"url":"ab#c//d/ghi","path":""})");
  add("10:02:00", R"({"url":"//host/path/xyz","path":"/realtime/v1"})");
  add("10:02:00", R"({"url":"no-slash-at-all","path":"/rest"})");
  add("10:03:00", R"({"url":"HTTP://H"})");
  add("23:59:59", R"({"url":"https://abc.supabase.co/rest/v1/late?id=eq.12345"})");
  add("10:04:00", R"({"path":"/rest/v1/no-url"})");
  add("10:04:00", R"([{"url":"https://array.supabase.co/x"}])");
  add("10:05:00", R"("not an object")");
  // The same rest on another row and another day: cut into trigrams per day.
  add("10:06:00", R"({"url":"https://abc.supabase.co/rest/v1/Tbl_Name?select=*#Frag"})");
  out += R"({"id":"w-next-day","timestamp":"2026-11-21T00:00:00Z","metadata":{"request":)"
         R"({"url":"https://abc.supabase.co/rest/v1/Tbl_Name?select=*#Frag"}}})"
         "\n";
  return out;
}

std::int64_t Calls(pqxx::work& tx, const std::string& function) {
  return tx
      .exec1(
          "SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions "
          "WHERE schemaname = 'logs' AND funcname = " +
          tx.quote(function))[0]
      .as<std::int64_t>();
}

// lqe load compacts the delta into the rollup when it finishes.
constexpr const char* kRequests =
    "SELECT sum(requests) FROM (TABLE logs.edge_api_minute UNION ALL "
    "TABLE logs.edge_api_minute_delta) u";

class WriterRollupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<TestDatabase>("writer_rollup");
    ASSERT_EQ(RunLqe({"migrate", "--dsn", db_->dsn()}).exit_code, 0);
    // Function calls are counted in the sessions lqe load opens.
    pqxx::connection conn(db_->dsn());
    pqxx::nontransaction(conn).exec("ALTER DATABASE " + conn.quote_name(conn.dbname()) +
                                    " SET track_functions = 'pl'");
  }
  void Load(const std::string& ndjson) {
    const CommandResult loaded =
        RunLqe({"load", "--dsn", db_->dsn(), "--source", "edge", WriteTempFile(ndjson)});
    ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
  }
  std::string SnapshotAndRebuild(std::string* rebuilt) {
    pqxx::connection conn(db_->dsn());
    pqxx::work tx(conn);
    std::string incremental = tx.exec1(kRollupSnapshotSql)[0].as<std::string>();
    tx.exec("SELECT logs.rebuild_edge_rollups()");
    *rebuilt = tx.exec1(kRollupSnapshotSql)[0].as<std::string>();
    return incremental;
  }
  std::unique_ptr<TestDatabase> db_;
};

TEST_F(WriterRollupTest, TheWriterCountsAwkwardUrlsExactlyAsARebuild) {
  Load(AwkwardEvents());
  {
    pqxx::connection conn(db_->dsn());
    pqxx::work tx(conn);
    EXPECT_EQ(tx.exec1("SELECT pg_stat_force_next_flush()").size(), 1);
    EXPECT_GE(Calls(tx, "add_written_edge_rollup_counts"), 1);
    EXPECT_EQ(Calls(tx, "add_edge_rollup_rows"), 0) << "the trigger counted a batch itself";
    // Eleven rows with a URL; the trigrams of İ, the Kelvin sign and upper case.
    EXPECT_EQ(tx.exec1(kRequests)[0].as<int>(), 11);
    EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.edge_url_rest_trigrams WHERE trigram IN "
                       "('iab', 'xyi', 'kel', 'tbl', 'def') AND day = '2026-11-20'")[0]
                  .as<int>(),
              5);
  }
  std::string rebuilt;
  EXPECT_EQ(SnapshotAndRebuild(&rebuilt), rebuilt);
}

TEST_F(WriterRollupTest, AUrlThatIsNotAStringLeavesItsBatchToTheTrigger) {
  Load(AwkwardEvents() + EdgeEvent("numeric", "11:00:00", R"({"url":12345,"path":"/rest"})"));
  {
    pqxx::connection conn(db_->dsn());
    pqxx::work tx(conn);
    tx.exec1("SELECT pg_stat_force_next_flush()");
    EXPECT_EQ(Calls(tx, "add_written_edge_rollup_counts"), 0);
    EXPECT_GE(Calls(tx, "add_edge_rollup_rows"), 1);
    EXPECT_EQ(tx.exec1(kRequests)[0].as<int>(), 12);
  }
  std::string rebuilt;
  EXPECT_EQ(SnapshotAndRebuild(&rebuilt), rebuilt);
}

// The handshake of 005_edge_rollup.sql in plain SQL: the trigger skips an insert of exactly the
// announced number of rows and marks it counted; the writer's counts are added once.
TEST_F(WriterRollupTest, TheTriggerSkipsOnlyTheAnnouncedInsert) {
  pqxx::connection conn(db_->dsn());
  pqxx::work tx(conn);
  tx.exec("SELECT logs.ensure_partition('edge', '2026-11-20')");
  const std::string insert_two =
      "INSERT INTO logs.edge (id, \"timestamp\", metadata) VALUES "
      "('a', '2026-11-20 10:00:00+00', '{\"request\":{\"url\":\"https://h/rest\"}}'), "
      "('b', '2026-11-20 10:00:30+00', '{\"request\":{\"url\":\"https://h/x\"}}')";
  const std::string delta_requests =
      "SELECT coalesce(sum(requests), 0) FROM logs.edge_api_minute_delta";
  const std::string add_counts =
      "SELECT logs.add_written_edge_rollup_counts('{2026-11-20 10:00:00+00}', '{https://h}', "
      "'{2}', '{0}', '{0}', '{0}', '{0}', '{2026-11-20 00:00:00+00}', '{res}')";

  tx.exec("SELECT set_config('lqe.edge_rollup_rows', '2', true)");
  tx.exec(insert_two);
  EXPECT_EQ(tx.exec1("SELECT current_setting('lqe.edge_rollup_rows')")[0].as<std::string>(),
            "counted");
  EXPECT_EQ(tx.exec1(delta_requests)[0].as<int>(), 0);
  EXPECT_TRUE(tx.exec1(add_counts)[0].as<bool>());
  EXPECT_EQ(tx.exec1(delta_requests)[0].as<int>(), 2);
  EXPECT_FALSE(tx.exec1(add_counts)[0].as<bool>()) << "counted twice";
  EXPECT_EQ(tx.exec1(delta_requests)[0].as<int>(), 2);

  // Announced 5, inserted 2: the trigger counts them itself, and the writer's counts are refused.
  tx.exec("DELETE FROM logs.edge");
  tx.exec("DELETE FROM logs.edge_api_minute_delta");
  tx.exec("SELECT set_config('lqe.edge_rollup_rows', '5', true)");
  tx.exec(insert_two);
  EXPECT_EQ(tx.exec1(delta_requests)[0].as<int>(), 2);
  EXPECT_FALSE(tx.exec1(add_counts)[0].as<bool>());
  EXPECT_EQ(tx.exec1(delta_requests)[0].as<int>(), 2);

  // Nothing announced (every other writer): the trigger counts.
  tx.exec("DELETE FROM logs.edge");
  tx.exec("DELETE FROM logs.edge_api_minute_delta");
  tx.exec(insert_two);
  EXPECT_EQ(tx.exec1(delta_requests)[0].as<int>(), 2);
  EXPECT_FALSE(tx.exec1(add_counts)[0].as<bool>());
}

}  // namespace
}  // namespace lqe::testing
