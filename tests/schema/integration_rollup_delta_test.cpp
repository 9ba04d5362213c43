// The edge rollup's delta (005_edge_rollup.sql): inserts append their minute counts to
// logs.edge_api_minute_delta and logs.compact_edge_rollups() folds them into logs.edge_api_minute.
// The chart counts delta rows before any compaction, equals the raw query before, during and
// after one (also with writers and a compactor running at once), compaction is idempotent and
// loses nothing, inserts do not wait for it, and lqe load and retention leave no delta behind.
#include <gtest/gtest.h>

#include <atomic>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "schema_test_util.h"
#include "support/test_database.h"
#include "usage_chart.h"

namespace lqe::testing {
namespace {

const char* const kIntervals[] = {"minutely", "hourly", "daily", "1hr", "1day", "7day"};

// Rollup plus delta, summed per key: what the chart sees of both.
const char* const kSummed =
    "SELECT md5(string_agg(x::text, ',' ORDER BY x.ts, x.prefix)) FROM (SELECT \"timestamp\" AS "
    "ts, url_prefix AS prefix, sum(requests), sum(rest_requests), sum(storage_requests), "
    "sum(auth_requests), sum(realtime_requests) FROM (TABLE logs.edge_api_minute UNION ALL TABLE "
    "logs.edge_api_minute_delta) u GROUP BY 1, 2) x";

std::int64_t One(pqxx::connection& conn, const std::string& sql) {
  pqxx::work tx(conn);
  return tx.exec1(sql)[0].as<std::int64_t>();
}

std::int64_t Compact(pqxx::connection& conn) {
  pqxx::work tx(conn);
  const auto moved = tx.exec1("SELECT logs.compact_edge_rollups()")[0].as<std::int64_t>();
  tx.commit();
  return moved;
}

// `count` events in one statement, ids "<tag>-<n>", over the last two hours, three projects,
// each API area and one path of none.
void InsertEvents(pqxx::connection& conn, const std::string& tag, int count) {
  pqxx::work tx(conn);
  tx.exec_params(
      "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) "
      "SELECT $1 || '-' || g, now() - (g * 7919 % 7200) * interval '1 second', 'p', "
      "jsonb_build_object('request', jsonb_build_object('url', 'https://proj' || g % 3 || "
      "'.supabase.co/' || a || '/v1/t?q=' || g, 'path', '/' || a || '/v1/t')) "
      "FROM generate_series(1, $2) g, LATERAL (SELECT (ARRAY['rest', 'storage', 'auth', "
      "'realtime', 'graphql'])[1 + g % 5] AS a) area",
      tag, count);
  tx.commit();
}

class RollupDeltaTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(RunLqe({"migrate", "--dsn", db_.dsn()}).exit_code, 0); }

  // Every interval for projects that take the rollup and one that reads logs.edge, shipped vs
  // raw in one snapshot; returns how many of those charts had rows.
  int ExpectChartsEqualRaw(pqxx::connection& conn, const std::string& when) {
    int non_empty = 0;
    for (const char* project : {"proj0", "proj1", "proj2", "supabase", "proj[12]"}) {
      for (const char* interval : kIntervals) {
        pqxx::work tx(conn, "compare");
        tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        const auto expected = RunChart(tx, raw_, interval, project);
        EXPECT_EQ(RunChart(tx, shipped_, interval, project), expected)
            << when << ": project " << project << ", interval " << interval;
        if (!expected.empty()) ++non_empty;
      }
    }
    return non_empty;
  }

  TestDatabase db_{"rollup_delta"};
  PreparedChart raw_ = TranslateChart("tests/fixtures/volume/usage.api-counts.raw.sql");
  PreparedChart shipped_ = TranslateChart("sql/usage.api-counts.sql");
};

TEST_F(RollupDeltaTest, DeltaIsCountedBeforeCompactionAndCompactionIsIdempotent) {
  pqxx::connection conn(db_.dsn());
  InsertEvents(conn, "a", 3000);
  InsertEvents(conn, "b", 500);
  const std::int64_t delta_rows = One(conn, "SELECT count(*) FROM logs.edge_api_minute_delta");
  EXPECT_GT(delta_rows, 0);
  EXPECT_EQ(One(conn, "SELECT count(*) FROM logs.edge_api_minute"), 0);
  EXPECT_EQ(One(conn, "SELECT sum(requests) FROM logs.edge_api_minute_delta"), 3500);
  EXPECT_GE(ExpectChartsEqualRaw(conn, "before compaction"), 25);

  // A marker in the delta alone shows the chart reads it for a plain project.
  pqxx::connection reader(db_.dsn());
  auto auth_total = [&](const std::string& project) {
    pqxx::work tx(reader);
    std::int64_t sum = 0;
    for (const std::string& row : RunChart(tx, shipped_, "7day", project)) {
      std::size_t at = 0;  // timestamp|rest|storage|auth|realtime|
      for (int field = 0; field < 3; ++field) at = row.find('|', at) + 1;
      sum += std::stoll(row.substr(at, row.find('|', at) - at));
    }
    return sum;
  };
  const std::int64_t before = auth_total("proj1");
  {
    pqxx::work tx(conn);
    tx.exec(
        "INSERT INTO logs.edge_api_minute_delta VALUES (date_trunc('minute', now(), 'UTC') - "
        "interval '1 hour', 'https://proj1.supabase.co', 1000, 0, 0, 1000, 0)");
    EXPECT_EQ(auth_total("proj1"), before);  // not committed: another snapshot
    tx.commit();
  }
  EXPECT_EQ(auth_total("proj1"), before + 1000);
  {
    pqxx::work tx(conn);
    tx.exec("DELETE FROM logs.edge_api_minute_delta WHERE requests = 1000");
    tx.commit();
  }

  const std::string summed = pqxx::work(conn).exec1(kSummed)[0].as<std::string>();
  EXPECT_EQ(Compact(conn), delta_rows);
  EXPECT_EQ(One(conn, "SELECT count(*) FROM logs.edge_api_minute_delta"), 0);
  EXPECT_EQ(pqxx::work(conn).exec1(kSummed)[0].as<std::string>(), summed);
  ExpectChartsEqualRaw(conn, "after compaction");
  EXPECT_EQ(Compact(conn), 0);
  EXPECT_EQ(pqxx::work(conn).exec1(kSummed)[0].as<std::string>(), summed);
  {
    pqxx::work tx(conn);
    tx.exec("SELECT logs.rebuild_edge_rollups()");
    tx.commit();
  }
  EXPECT_EQ(pqxx::work(conn).exec1(kSummed)[0].as<std::string>(), summed);
  EXPECT_EQ(One(conn, "SELECT sum(requests) FROM logs.edge_api_minute"), 3500);
}

// A compaction left open: charts still see the delta (their snapshot predates it), inserts do
// not wait for it, and after it commits the charts read the rollup, equal to the raw rows.
TEST_F(RollupDeltaTest, ChartDuringAnOpenCompactionEqualsTheRawQuery) {
  pqxx::connection conn(db_.dsn());
  InsertEvents(conn, "a", 2000);
  pqxx::connection compactor_conn(db_.dsn());
  pqxx::work compaction(compactor_conn);
  const std::int64_t moved =
      compaction.exec1("SELECT logs.compact_edge_rollups()")[0].as<std::int64_t>();
  EXPECT_GT(moved, 0);
  EXPECT_GE(ExpectChartsEqualRaw(conn, "during compaction"), 25);
  pqxx::connection writer(db_.dsn());
  pqxx::nontransaction(writer).exec("SET lock_timeout = '10s'");
  InsertEvents(writer, "b", 700);  // fails on lock_timeout if it waited for the compaction
  ExpectChartsEqualRaw(conn, "during compaction, after another insert");
  compaction.commit();
  ExpectChartsEqualRaw(conn, "after compaction");
  EXPECT_GT(One(conn, "SELECT count(*) FROM logs.edge_api_minute_delta"), 0);  // b's rows
  EXPECT_EQ(One(conn, "SELECT sum(requests) FROM logs.edge_api_minute_delta"), 700);
  EXPECT_EQ(One(conn, "SELECT sum(requests) FROM logs.edge_api_minute"), 2000);
}

// Two writers and a compactor in a loop, with a reader comparing the chart with the raw query
// all along: the final rollup equals a rebuild from logs.edge and no chart ever differed.
TEST_F(RollupDeltaTest, ConcurrentWritersAndCompactorLoseNothing) {
  constexpr int kBatches = 30;
  constexpr int kBatchRows = 150;
  std::atomic<int> writers_running{2};
  std::atomic<std::int64_t> compacted{0};
  std::atomic<int> compactions{0};
  std::atomic<int> charts{0};
  std::atomic<int> differing{0};
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      pqxx::connection conn(db_.dsn());
      for (int b = 0; b < kBatches; ++b) {
        InsertEvents(conn, "w" + std::to_string(w) + "b" + std::to_string(b), kBatchRows);
      }
      --writers_running;
    });
  }
  threads.emplace_back([&] {
    pqxx::connection conn(db_.dsn());
    while (writers_running > 0) {
      compacted += Compact(conn);
      ++compactions;
    }
  });
  threads.emplace_back([&] {
    pqxx::connection conn(db_.dsn());
    while (writers_running > 0) {
      pqxx::work tx(conn);
      tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      if (RunChart(tx, shipped_, "1day", "proj1") != RunChart(tx, raw_, "1day", "proj1")) {
        ++differing;
      }
      ++charts;
    }
  });
  for (auto& t : threads) t.join();
  EXPECT_EQ(differing.load(), 0) << "of " << charts.load() << " charts";
  EXPECT_GT(charts.load(), 0);
  EXPECT_GT(compactions.load(), 1);
  EXPECT_GT(compacted.load(), 0);

  pqxx::connection conn(db_.dsn());
  Compact(conn);
  EXPECT_EQ(One(conn, "SELECT count(*) FROM logs.edge_api_minute_delta"), 0);
  const std::string compacted_rollup = pqxx::work(conn).exec1(kSummed)[0].as<std::string>();
  {
    pqxx::work tx(conn);
    tx.exec("SELECT logs.rebuild_edge_rollups()");
    tx.commit();
  }
  EXPECT_EQ(pqxx::work(conn).exec1(kSummed)[0].as<std::string>(), compacted_rollup);
  EXPECT_EQ(One(conn, "SELECT sum(requests) FROM logs.edge_api_minute"), 2 * kBatches * kBatchRows);
  ExpectChartsEqualRaw(conn, "after the run");
}

TEST_F(RollupDeltaTest, LoadLeavesAnEmptyDeltaAndRetentionDropsOldDeltaRows) {
  const CommandResult generated =
      RunLqe({"generate", "--source", "edge", "--count", "3000", "--seed", "7"});
  ASSERT_EQ(generated.exit_code, 0) << generated.err;
  const CommandResult loaded =
      RunLqe({"load", "--dsn", db_.dsn(), "--source", "edge", WriteTempFile(generated.out)});
  ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
  pqxx::connection conn(db_.dsn());
  EXPECT_EQ(One(conn, "SELECT count(*) FROM logs.edge_api_minute_delta"), 0);
  EXPECT_EQ(One(conn, "SELECT sum(requests) FROM logs.edge_api_minute"),
            One(conn,
                "SELECT count(*) FROM logs.edge WHERE metadata -> 'request' ->> 'url' IS "
                "NOT NULL"));
  // Uncompacted counts of an old day and of today; retention keeps only today's.
  {
    pqxx::work tx(conn);
    tx.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) VALUES "
        "('old', now() - interval '5 days', 'p', "
        "'{\"request\":{\"url\":\"https://old.supabase.co/rest\",\"path\":\"/rest\"}}'), "
        "('new', now(), 'p', "
        "'{\"request\":{\"url\":\"https://new.supabase.co/rest\",\"path\":\"/rest\"}}')");
    tx.commit();
  }
  EXPECT_EQ(One(conn, "SELECT count(*) FROM logs.edge_api_minute_delta"), 2);
  const CommandResult retained = RunLqe({"retention", "--dsn", db_.dsn(), "--days", "3"});
  ASSERT_EQ(retained.exit_code, 0) << retained.err;
  EXPECT_EQ(One(conn,
                "SELECT count(*) FROM logs.edge_api_minute_delta WHERE url_prefix = "
                "'https://new.supabase.co'"),
            1);
  EXPECT_EQ(One(conn, "SELECT count(*) FROM logs.edge_api_minute_delta"), 1);
  EXPECT_EQ(One(conn,
                "SELECT count(*) FROM logs.edge_api_minute WHERE \"timestamp\" < now() - "
                "interval '4 days'"),
            0);
}

}  // namespace
}  // namespace lqe::testing
