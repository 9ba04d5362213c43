// The stored usage.api-counts endpoint over events placed relative to "now": for every interval
// value, the expected buckets are computed here from the inserted timestamps (window, bucket
// truncation, URL regex on the project, one count per matching API area).
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <map>
#include <pqxx/pqxx>
#include <regex>
#include <string>
#include <vector>

#include "sqllogic/corpus.h"
#include "sqllogic/migrations.h"
#include "support/test_database.h"

namespace {

using Clock = std::chrono::system_clock;

struct Event {
  int minutes_ago;
  std::string path;
  std::string host;
};

const std::vector<Event> kEvents = {
    {1, "/rest/v1/todos", "default"},
    {2, "/storage/v1/object/a.png", "default"},
    {2, "/auth/v1/token", "default"},
    {3, "/rest/v1/auth/storage", "default"},  // counts for rest, auth and storage
    {30, "/realtime/v1/websocket", "default"},
    {45, "/rest/v1/todos", "other"},  // another project: the URL regex excludes it
    {90, "/rest/v1/todos", "default"},
    {300, "/auth/v1/user", "default"},
    {2 * 1440 + 7, "/storage/v1/x", "default"},
    {8 * 1440, "/rest/v1/todos", "default"},  // older than every window
};

struct IntervalRule {
  std::string value;
  int window_minutes;
  int bucket_seconds;  // 60, 3600 or 86400 (UTC-aligned)
};

const std::vector<IntervalRule> kIntervals = {
    {"minutely", 60, 60}, {"hourly", 60, 3600}, {"daily", 7 * 1440, 86400},
    {"1hr", 60, 60},      {"1day", 1440, 3600}, {"7day", 7 * 1440, 86400},
};

std::string FormatUtc(std::int64_t seconds) {
  const std::time_t t = seconds;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

class UsageCounts : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new lqe::testing::TestDatabase("usage");
    lqe::sqllogic::ApplyMigrations(db_->dsn());
    now_micros_ =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch())
            .count();
    pqxx::connection conn(db_->dsn());
    pqxx::work tx(conn);
    tx.exec("SELECT logs.ensure_partitions(current_date - 9, current_date + 1)");
    int n = 0;
    for (const auto& e : kEvents) {
      const std::int64_t ts = now_micros_ - std::int64_t{e.minutes_ago} * 60'000'000;
      const std::string url = "https://" + e.host + ".supabase.co" + e.path;
      tx.exec_params(
          "INSERT INTO logs.edge (id, \"timestamp\", event_message, project, metadata) "
          "VALUES ($1, timestamptz 'epoch' + $2::bigint * interval '1 microsecond', 'x', $3, "
          "jsonb_build_object('request', jsonb_build_object('path', $4::text, 'url', $5::text)))",
          "u-" + std::to_string(n++), ts, e.host, e.path, url);
    }
    tx.commit();
  }
  static void TearDownTestSuite() { delete db_; }
  static lqe::testing::TestDatabase* db_;
  static std::int64_t now_micros_;
};

lqe::testing::TestDatabase* UsageCounts::db_ = nullptr;
std::int64_t UsageCounts::now_micros_ = 0;

std::vector<std::string> ExpectedRows(const IntervalRule& rule, std::int64_t now_micros) {
  std::map<std::int64_t, std::array<int, 4>> buckets;  // rest, storage, auth, realtime
  const std::regex project("default");
  for (const auto& e : kEvents) {
    if (e.minutes_ago >= rule.window_minutes) {
      continue;
    }
    const std::string url = "https://" + e.host + ".supabase.co" + e.path;
    if (!std::regex_search(url, project)) {
      continue;
    }
    const std::int64_t seconds =
        (now_micros - std::int64_t{e.minutes_ago} * 60'000'000) / 1'000'000;
    auto& counts = buckets[seconds - seconds % rule.bucket_seconds];
    const char* areas[] = {"/rest", "/storage", "/auth", "/realtime"};
    for (int i = 0; i < 4; ++i) {
      counts[i] += e.path.find(areas[i]) != std::string::npos ? 1 : 0;
    }
  }
  std::vector<std::string> rows;
  for (const auto& [start, c] : buckets) {
    rows.push_back(FormatUtc(start) + "\t" + std::to_string(c[0]) + "\t" + std::to_string(c[1]) +
                   "\t" + std::to_string(c[2]) + "\t" + std::to_string(c[3]));
  }
  return rows;
}

TEST_F(UsageCounts, BucketsPerIntervalValue) {
  for (const auto& rule : kIntervals) {
    lqe::sqllogic::Record record;
    record.name = "usage.api-counts interval=" + rule.value;
    record.endpoint = "usage.api-counts";
    record.params = {{"interval", rule.value}, {"project", "default"}};
    const auto outcome = lqe::sqllogic::Run(record, db_->dsn());
    ASSERT_TRUE(outcome.ok) << record.name << ": " << outcome.error << "\n" << outcome.pg_sql;
    EXPECT_EQ(outcome.rows, ExpectedRows(rule, now_micros_)) << record.name;
  }
}

}  // namespace
