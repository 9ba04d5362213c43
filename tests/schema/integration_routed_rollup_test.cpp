// Late events for cold days on a sharded coordinator (007_shards.sql): rows that PostgreSQL routes
// to a foreign partition of logs.edge, which carries the edge rollups and a declared one,
// are stored on the node and counted by every rollup exactly as a rebuild counts them, whether
// they come through lqe load (the COPY writer HTTP ingest shares) or plain SQL. The nodes are
// other databases of the test cluster (postgres_fdw loopback); both layouts, by day and by
// project.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>

#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

// Every row of a table, in a fixed order, as one digest.
std::string Digest(pqxx::connection& conn, const std::string& table) {
  pqxx::read_transaction tx(conn);
  return tx
      .exec1("SELECT coalesce(md5(string_agg(x::text, ';' ORDER BY x::text)), '') FROM logs." +
             table + " x")[0]
      .as<std::string>();
}

struct RollupDigests {
  std::string declared;
  std::string api_minute;
  std::string trigrams;
  bool operator==(const RollupDigests&) const = default;
};

// The minute rollup as the chart reads it: with the counts still in its delta
// (005_edge_rollup.sql).
std::string ApiMinuteDigest(pqxx::connection& conn) {
  pqxx::read_transaction tx(conn);
  return tx
      .exec1(
          "SELECT coalesce(md5(string_agg(x::text, ';' ORDER BY x::text)), '') FROM (SELECT "
          "\"timestamp\", url_prefix, sum(requests), sum(rest_requests), "
          "sum(storage_requests), sum(auth_requests), sum(realtime_requests) FROM (TABLE "
          "logs.edge_api_minute UNION ALL TABLE logs.edge_api_minute_delta) u GROUP BY 1, 2) "
          "x")[0]
      .as<std::string>();
}

RollupDigests Digests(pqxx::connection& conn) {
  return {Digest(conn, "rollup_edge_status"), ApiMinuteDigest(conn),
          Digest(conn, "edge_url_rest_trigrams")};
}

std::int64_t Count(pqxx::connection& conn, const std::string& sql) {
  pqxx::read_transaction tx(conn);
  return tx.exec1(sql)[0].as<std::int64_t>();
}

class RoutedRollupTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    const bool by_project = GetParam();
    coord_ = std::make_unique<TestDatabase>("routed_coord");
    nodes_.push_back(std::make_unique<TestDatabase>("routed_node_a"));
    if (by_project) nodes_.push_back(std::make_unique<TestDatabase>("routed_node_b"));
    ASSERT_EQ(RunLqe({"migrate", "--dsn", coord_->dsn()}).exit_code, 0);
    // 8 days of events while every day is local.
    const CommandResult generated = RunLqe(
        {"generate", "--source", "edge", "--count", "1500", "--projects", "4", "--seed", "3"});
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    const CommandResult loaded =
        RunLqe({"load", "--dsn", coord_->dsn(), "--source", "edge", WriteTempFile(generated.out)});
    ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
    // A source without a rollup, for comparison.
    const CommandResult postgres = RunLqe(
        {"generate", "--source", "postgres", "--count", "300", "--projects", "4", "--seed", "3"});
    ASSERT_EQ(postgres.exit_code, 0) << postgres.err;
    ASSERT_EQ(RunLqe({"load", "--dsn", coord_->dsn(), "--source", "postgres",
                      WriteTempFile(postgres.out)})
                  .exit_code,
              0);
    std::string config = "database:\n  dsn: \"" + coord_->dsn() + "\"\nendpoints_dir: \"" +
                         SourcePath("examples/rollups/endpoints") + "\"\n" +
                         ReadFileText(SourcePath("examples/rollups/rollups.yaml")) +
                         "shards:\n  hot_days: 2\n" + (by_project ? "  by: project\n" : "") +
                         "  nodes:\n";
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      config += "    - {name: node_" + std::to_string(i) + ", dsn: \"" + nodes_[i]->dsn() + "\"}\n";
    }
    const CommandResult sharded =
        RunLqe({"migrate", "--dsn", coord_->dsn(), "--config", WriteTempFile(config)});
    ASSERT_EQ(sharded.exit_code, 0) << sharded.err;
    ASSERT_NE(sharded.out.find("moved edge_p" + UtcDayTag(-5)), std::string::npos) << sharded.out;
    conn_ = std::make_unique<pqxx::connection>(coord_->dsn());
  }

  // The rollups as they are, and after rebuilding both kinds from logs.edge.
  std::pair<RollupDigests, RollupDigests> DigestsAndRebuilt() {
    const RollupDigests kept = Digests(*conn_);
    pqxx::work tx(*conn_);
    tx.exec("SELECT logs.rebuild_rollup('edge_status')");
    tx.exec("SELECT logs.rebuild_edge_rollups()");
    tx.commit();
    return {kept, Digests(*conn_)};
  }

  std::int64_t ColdRows() {
    return Count(*conn_,
                 "SELECT count(*) FROM logs.edge WHERE \"timestamp\" < date_trunc('day', "
                 "now(), 'UTC') - interval '2 days'");
  }

  std::unique_ptr<TestDatabase> coord_;
  std::vector<std::unique_ptr<TestDatabase>> nodes_;
  std::unique_ptr<pqxx::connection> conn_;
};

TEST_P(RoutedRollupTest, ColdDayEventsAreStoredAndCountedByEveryRollup) {
  const std::int64_t rows_before = Count(*conn_, "SELECT count(*) FROM logs.edge");
  const std::int64_t cold_before = ColdRows();
  ASSERT_GT(cold_before, 0);
  // The day partitions older than the hot window are foreign, each with the routing trigger.
  EXPECT_EQ(Count(*conn_,
                  "SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE "
                  "g.tgrelid = p.relid AND g.tgname = 'insert_routed_row')) FROM "
                  "pg_partition_tree('logs.edge') p JOIN pg_class c ON c.oid = p.relid WHERE "
                  "c.relkind = 'f'"),
            0);

  // A source without a rollup keeps PostgreSQL's own (batched) routing: no trigger, no feed.
  EXPECT_GT(Count(*conn_,
                  "SELECT count(*) FROM pg_partition_tree('logs.postgres') p JOIN "
                  "pg_class c ON c.oid = p.relid WHERE c.relkind = 'f'"),
            0);
  EXPECT_EQ(Count(*conn_,
                  "SELECT count(*) FROM pg_partition_tree('logs.postgres') p JOIN pg_trigger g ON "
                  "g.tgrelid = p.relid WHERE g.tgname = 'insert_routed_row'"),
            0);
  EXPECT_EQ(Count(*conn_, "SELECT count(*) FROM pg_class WHERE relname = 'postgres_routed'"), 0);
  {
    pqxx::work tx(*conn_);
    tx.exec(
        "INSERT INTO logs.postgres (id, \"timestamp\", project, event_message) VALUES ('late-pg', "
        "now() - interval '5 days', 'late', 'x')");
    tx.commit();
  }
  EXPECT_EQ(Count(*conn_, "SELECT count(*) FROM logs.postgres WHERE id = 'late-pg'"), 1);

  // lqe load: another 8 days of events, most of them cold, in batches mixing cold and hot days.
  const CommandResult generated =
      RunLqe({"generate", "--source", "edge", "--count", "700", "--projects", "4", "--seed", "8"});
  ASSERT_EQ(generated.exit_code, 0) << generated.err;
  const CommandResult loaded = RunLqe({"load", "--dsn", coord_->dsn(), "--source", "edge",
                                       "--batch-size", "250", WriteTempFile(generated.out)});
  ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
  EXPECT_NE(loaded.out.find("loaded 700 events, skipped 0 duplicates, rejected 0 lines"),
            std::string::npos)
      << loaded.out;

  // Plain SQL: one statement with a cold and a hot row, the cold one matching the rollups.
  {
    pqxx::work tx(*conn_);
    tx.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) VALUES "
        "('late-1', now() - interval '5 days', 'late', '{\"request\": {\"method\": \"GET\", "
        "\"url\": \"https://late.supabase.co/rest/v1/x\", \"path\": \"/rest/v1/x\"}, "
        "\"response\": {\"status_code\": 503, \"origin_time\": 77}}'), "
        "('late-2', now(), 'late', '{\"request\": {\"method\": \"GET\"}}')");
    tx.commit();
  }
  EXPECT_EQ(Count(*conn_, "SELECT count(*) FROM logs.edge"), rows_before + 702);
  EXPECT_GT(ColdRows(), cold_before + 1);
  EXPECT_EQ(Count(*conn_,
                  "SELECT count(*) FROM logs.edge WHERE id = 'late-1' AND \"timestamp\" "
                  "< now() - interval '4 days' AND extra = '{}'"),
            1);
  EXPECT_EQ(Count(*conn_, "SELECT count(*) FROM logs.edge_routed"), 0);
  EXPECT_EQ(Count(*conn_,
                  "SELECT sum(server_errors) FROM logs.rollup_edge_status WHERE project "
                  "= 'late' AND max_origin_time = 77"),
            1);
  EXPECT_EQ(Count(*conn_, "SELECT sum(requests) FROM logs.rollup_edge_status"),
            Count(*conn_, "SELECT count(*) FROM logs.edge"));
  EXPECT_EQ(Count(*conn_,
                  "SELECT sum(rest_requests) FROM (TABLE logs.edge_api_minute UNION ALL TABLE "
                  "logs.edge_api_minute_delta) u WHERE url_prefix = 'https://late.supabase.co'"),
            1);
  const auto [kept, rebuilt] = DigestsAndRebuilt();
  EXPECT_EQ(kept.declared, rebuilt.declared);
  EXPECT_EQ(kept.api_minute, rebuilt.api_minute);
  EXPECT_EQ(kept.trigrams, rebuilt.trigrams);
}

TEST_P(RoutedRollupTest, ARefusedColdRowRollsBackItsRollupRows) {
  const RollupDigests before = Digests(*conn_);
  const std::int64_t rows_before = Count(*conn_, "SELECT count(*) FROM logs.edge");
  // The node's own (id, timestamp) unique index refuses a repeat of a cold row: the statement
  // fails as a whole, and the rollup rows the routed row added go with it.
  pqxx::work tx(*conn_);
  const std::string repeat =
      "INSERT INTO logs.edge SELECT * FROM logs.edge WHERE \"timestamp\" < now() - interval "
      "'4 days' ORDER BY id LIMIT 1";
  try {
    tx.exec(repeat);
    ADD_FAILURE() << "a repeated (id, timestamp) was stored";
  } catch (const pqxx::unique_violation& e) {
    EXPECT_NE(std::string(e.what()).find("duplicate key value violates unique constraint"),
              std::string::npos)
        << e.what();
  }
  tx.abort();
  EXPECT_EQ(Count(*conn_, "SELECT count(*) FROM logs.edge"), rows_before);
  EXPECT_EQ(Digests(*conn_), before);
}

TEST_P(RoutedRollupTest, RollupsDeclaredAfterTheMoveCountRoutedRowsAndDropCleanly) {
  // A re-declared rollup (changed bucket) is rebuilt: the mirror on logs.edge_routed follows.
  std::string config = "database:\n  dsn: \"" + coord_->dsn() + "\"\nendpoints_dir: \"" +
                       SourcePath("sql") +
                       "\"\nrollups:\n  - {name: edge_hourly, source: edge, bucket: hour, "
                       "dimensions: [project], measures: [{name: requests, agg: count}]}\n";
  const CommandResult migrated =
      RunLqe({"migrate", "--dsn", coord_->dsn(), "--config", WriteTempFile(config)});
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_NE(migrated.out.find("rollups: 1 created, 0 rebuilt, 0 unchanged, 1 dropped\n"),
            std::string::npos)
      << migrated.out;
  pqxx::read_transaction names(*conn_);
  EXPECT_EQ(names
                .exec1("SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE "
                       "tgrelid = 'logs.edge_routed'::regclass")[0]
                .as<std::string>(),
            "edge_rollups,rollup_edge_hourly");
  names.abort();
  {
    pqxx::work tx(*conn_);
    tx.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", project) VALUES ('late-3', now() - interval "
        "'6 days', 'late'), ('late-4', now() - interval '6 days', 'late')");
    tx.commit();
  }
  EXPECT_EQ(Count(*conn_,
                  "SELECT sum(requests) FROM logs.rollup_edge_hourly WHERE project = "
                  "'late'"),
            2);
  EXPECT_EQ(Count(*conn_, "SELECT sum(requests) FROM logs.rollup_edge_hourly"),
            Count(*conn_, "SELECT count(*) FROM logs.edge"));
}

INSTANTIATE_TEST_SUITE_P(Layouts, RoutedRollupTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& layout) {
                           return layout.param ? "ByProject" : "ByDay";
                         });

}  // namespace
}  // namespace lqe::testing
