// lqe load under concurrency and retries: ids stay unique, partitions are created once, and
// oversized lines are rejected.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <pqxx/pqxx>
#include <thread>

#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

// "loaded 3 events, skipped 2 duplicates, ..." -> {3, 2}
std::pair<long, long> LoadedAndSkipped(const std::string& out) {
  long loaded = -1;
  long skipped = -1;
  EXPECT_EQ(
      std::sscanf(out.c_str(), "loaded %ld events, skipped %ld duplicates", &loaded, &skipped), 2)
      << out;
  return {loaded, skipped};
}

class ConcurrentLoadTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(RunLqe({"migrate", "--dsn", db_.dsn()}).exit_code, 0); }
  std::string Scalar(const std::string& sql) {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    const auto row = tx.exec1(sql);
    return row[0].is_null() ? "NULL" : row[0].as<std::string>();
  }
  // `count` events with ids, spread over days -12..-9 (migrate creates only -3..+3), a tenth of
  // them without a timestamp.
  static std::string Events(int count) {
    std::string out;
    for (int i = 0; i < count; ++i) {
      out += "{\"event_message\":\"event " + std::to_string(i) + "\",\"id\":\"ev-" +
             std::to_string(i) + "\"";
      if (i % 10 != 0) out += ",\"timestamp\":\"" + UtcIso(-12 + i % 4) + "\"";
      out += "}\n";
    }
    return out;
  }

  TestDatabase db_{"concurrent_load"};
};

TEST_F(ConcurrentLoadTest, TwoLoadsOfOneFileStoreEachEventOnce) {
  constexpr int kEvents = 4000;
  const std::string file = WriteTempFile(Events(kEvents));
  const std::vector<std::string> load = {"load", "--dsn",        db_.dsn(), "--source",
                                         "edge", "--batch-size", "250",     file};
  const auto results = RunLqeTogether({load, load});
  long loaded = 0;
  long skipped = 0;
  for (const auto& result : results) {
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    const auto [l, s] = LoadedAndSkipped(result.out);
    EXPECT_EQ(l + s, kEvents) << result.out;
    loaded += l;
    skipped += s;
  }
  EXPECT_EQ(loaded, kEvents);
  EXPECT_EQ(skipped, kEvents);
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), std::to_string(kEvents));
  EXPECT_EQ(Scalar("SELECT count(DISTINCT id) FROM logs.edge"), std::to_string(kEvents));
  for (int day = -12; day <= -9; ++day) {
    EXPECT_EQ(Scalar("SELECT to_regclass('logs.edge_p" + UtcDayTag(day) + "') IS NOT NULL"), "t");
  }

  // A retried load of the same file adds nothing.
  const auto retry = RunLqe(load);
  ASSERT_EQ(retry.exit_code, 0) << retry.err;
  EXPECT_EQ(LoadedAndSkipped(retry.out), std::make_pair(0L, static_cast<long>(kEvents)));
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), std::to_string(kEvents));
}

// One load writing several batches at once: a file that holds every event twice, in batches
// that the writers store concurrently, stores each once, and so does a re-run with other --jobs.
TEST_F(ConcurrentLoadTest, ParallelBatchesOfOneLoadStoreEachEventOnce) {
  constexpr int kEvents = 2000;
  const std::string events = Events(kEvents);
  const std::string file = WriteTempFile(events + events);
  for (const char* jobs : {"4", "2", "1"}) {
    const auto result = RunLqe({"load", "--dsn", db_.dsn(), "--source", "edge", "--batch-size",
                                "100", "--jobs", jobs, file});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    const long stored = std::string(jobs) == "4" ? kEvents : 0;
    EXPECT_EQ(LoadedAndSkipped(result.out), std::make_pair(stored, 2L * kEvents - stored))
        << "--jobs " << jobs;
    EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), std::to_string(kEvents));
  }
  const auto bad = RunLqe({"load", "--dsn", db_.dsn(), "--source", "edge", "--jobs", "0", file});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--jobs"), std::string::npos) << bad.err;
}

TEST_F(ConcurrentLoadTest, TheDatabaseRefusesASecondCopyOfAnEvent) {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  tx.exec("INSERT INTO logs.auth VALUES ('x1', now(), 'a', 'p', '{}')");
  try {
    tx.exec("INSERT INTO logs.auth SELECT id, \"timestamp\", 'b', 'p', '{}' FROM logs.auth");
    ADD_FAILURE() << "a second (id, timestamp) was stored";
  } catch (const pqxx::unique_violation& e) {
    EXPECT_NE(std::string(e.what()).find("duplicate key value violates unique constraint"),
              std::string::npos)
        << e.what();
  }
}

// The race that lost batches: a second session waits on the creation lock while the first
// creates the partition, then must find it rather than fail with "already exists".
TEST_F(ConcurrentLoadTest, ConcurrentEnsurePartitionOfOneDaySucceeds) {
  const std::string day = "(now() AT TIME ZONE 'UTC')::date - 20";
  pqxx::connection first(db_.dsn());
  pqxx::work creating(first);
  EXPECT_TRUE(creating.exec1("SELECT logs.ensure_partition('pooler', " + day + ")")[0].as<bool>());

  std::string waiter_error;
  bool waiter_created = true;
  std::atomic<bool> waiter_done = false;
  pqxx::connection second(db_.dsn());
  const int waiter_pid = second.backendpid();
  std::thread waiter([&] {
    try {
      pqxx::work tx(second);
      waiter_created =
          tx.exec1("SELECT logs.ensure_partition('pooler', " + day + ")")[0].as<bool>();
      tx.commit();
    } catch (const std::exception& e) {
      waiter_error = e.what();
    }
    waiter_done = true;
  });
  // Commit only once the second session waits on the lock the first one holds.
  pqxx::connection observer(db_.dsn());
  while (!waiter_done) {
    pqxx::work tx(observer);
    if (tx.exec_params1("SELECT count(*) FROM pg_locks WHERE pid = $1 AND NOT granted",
                        waiter_pid)[0]
            .as<int>() > 0) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  creating.commit();
  waiter.join();
  EXPECT_EQ(waiter_error, "");
  EXPECT_FALSE(waiter_created);
  EXPECT_EQ(Scalar("SELECT count(*) FROM pg_inherits WHERE inhparent = 'logs.pooler'::regclass "
                   "AND inhrelid::regclass::text LIKE 'logs.pooler_p%'") != "0",
            true);
}

TEST_F(ConcurrentLoadTest, OversizedLinesAreRejectedWithTheirLineNumber) {
  const std::string big(200, 'x');
  // The third line is exactly at the limit, and loads.
  const std::string input = "{\"event_message\":\"small\"}\n{\"event_message\":\"" + big +
                            "\"}\n{\"event_message\":\"" + std::string(80, 'z') + "\"}\n";
  const auto result = RunLqe({"load", "--dsn", db_.dsn(), "--source", "storage",
                              "--max-event-bytes", "100", WriteTempFile(input)});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "line 2: event is " + std::to_string(big.size() + 20) +
                            " bytes, over the limit of 100 (--max-event-bytes)\n");
  EXPECT_EQ(LoadedAndSkipped(result.out), std::make_pair(2L, 0L));
  EXPECT_EQ(result.out.find("rejected 1 lines"), result.out.find("rejected"));

  // The default limit is 1 MiB.
  const std::string huge(1 << 20, 'y');
  const auto by_default = RunLqe({"load", "--dsn", db_.dsn(), "--source", "storage",
                                  WriteTempFile("{\"event_message\":\"" + huge + "\"}\n")});
  EXPECT_EQ(by_default.exit_code, 1);
  EXPECT_EQ(by_default.err, "line 1: event is " + std::to_string(huge.size() + 20) +
                                " bytes, over the limit of 1048576 (--max-event-bytes)\n");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.storage"), "2");

  const auto zero =
      RunLqe({"load", "--dsn", db_.dsn(), "--source", "storage", "--max-event-bytes", "0", "-"});
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("--max-event-bytes"), std::string::npos) << zero.err;
}

}  // namespace
}  // namespace lqe::testing
