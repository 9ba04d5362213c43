// LQL end to end: Translate(stored sql/logs.all.sql + consumer LQL) run on the real cluster over
// rows this test inserts, compared with rows selected in C++ from the same in-memory data.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <pqxx/pqxx>

#include "lql_pg_fixture.h"

namespace lqe::lql {
namespace {

using testing::lql::AuthRow;
using testing::lql::EdgeRow;
using testing::lql::LqlDatabase;
using testing::lql::QueryResult;
using testing::lql::StorageRow;

class LqlPgTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { shared_db = new LqlDatabase(); }
  static void TearDownTestSuite() {
    delete shared_db;
    shared_db = nullptr;
  }

  // Ids of the p1 rows of `rows` that satisfy `keep`, newest first.
  template <class Row>
  static std::vector<std::string> Expected(const std::vector<Row>& rows,
                                           const std::function<bool(const Row&)>& keep) {
    std::vector<const Row*> kept;
    for (const auto& r : rows) {
      if (r.project == "p1" && keep(r)) {
        kept.push_back(&r);
      }
    }
    std::sort(kept.begin(), kept.end(),
              [](const Row* a, const Row* b) { return a->micros > b->micros; });
    std::vector<std::string> ids;
    ids.reserve(kept.size());
    for (const Row* r : kept) {
      ids.push_back(r->id);
    }
    return ids;
  }

  static std::vector<std::string> Ids(const std::string& lql,
                                      const std::map<std::string, std::string>& params = {}) {
    const QueryResult result = shared_db->Run(lql, params);
    EXPECT_TRUE(result.error.empty()) << lql << ": " << result.error << "\n" << result.pg_sql;
    std::vector<std::string> ids;
    for (const auto& row : result.rows) {
      ids.push_back(row.at(1));
    }
    return ids;
  }

  static void ExpectEdge(const std::string& lql, const std::function<bool(const EdgeRow&)>& keep,
                         const std::map<std::string, std::string>& params = {}) {
    const auto expected = Expected(shared_db->edge, keep);
    EXPECT_FALSE(expected.empty()) << "test data gives no rows for " << lql;
    EXPECT_EQ(Ids("f:edge_logs " + lql, params), expected) << lql;
  }

  static LqlDatabase* shared_db;
};

LqlDatabase* LqlPgTest::shared_db = nullptr;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_F(LqlPgTest, EmptyQueryListsTheProjectsRowsNewestFirst) {
  ExpectEdge("", [](const EdgeRow&) { return true; });
  const QueryResult result = shared_db->Run("f:edge_logs", {});
  ASSERT_TRUE(result.error.empty()) << result.error;
  EXPECT_EQ(result.columns, (std::vector<std::string>{"timestamp", "id", "event_message"}));
  ASSERT_FALSE(result.rows.empty());
  EXPECT_EQ(result.rows.front().at(0), "2025-01-15 10:39:39+00");
}

TEST_F(LqlPgTest, FreeText) {
  ExpectEdge("error", [](const EdgeRow& r) { return Contains(r.message, "error"); });
  ExpectEdge("\"staging error\"",
             [](const EdgeRow& r) { return Contains(r.message, "staging error"); });
  ExpectEdge("GET it's", [](const EdgeRow& r) {
    return Contains(r.message, "GET") && Contains(r.message, "it's");
  });
  ExpectEdge("-error", [](const EdgeRow& r) { return !Contains(r.message, "error"); });
  // Case-sensitive like the reference's STRPOS.
  EXPECT_TRUE(Ids("f:edge_logs STAGING").empty());
}

TEST_F(LqlPgTest, Regex) {
  ExpectEdge("~\"Log \\d\\d\"", [](const EdgeRow& r) { return Contains(r.message, "Log 42"); });
  ExpectEdge("~^POST", [](const EdgeRow& r) { return r.method == "POST"; });
  ExpectEdge("m.request.path:~^/rest",
             [](const EdgeRow& r) { return r.path.starts_with("/rest"); });
  ExpectEdge("-~^POST", [](const EdgeRow& r) { return r.method != "POST"; });
}

TEST_F(LqlPgTest, NumericComparisonsAndRanges) {
  ExpectEdge("m.response.status_code:>=500",
             [](const EdgeRow& r) { return r.status && *r.status >= 500; });
  ExpectEdge("m.response.status_code:<300",
             [](const EdgeRow& r) { return r.status && *r.status < 300; });
  ExpectEdge("m.response.status_code:400..499",
             [](const EdgeRow& r) { return r.status && *r.status >= 400 && *r.status <= 499; });
  ExpectEdge("m.response.status_code:404", [](const EdgeRow& r) { return r.status == 404; });
  // Negation keeps rows without the field.
  ExpectEdge("-m.response.status_code:200", [](const EdgeRow& r) { return r.status != 200; });
}

TEST_F(LqlPgTest, StringsBooleansNulls) {
  ExpectEdge("m.request.path:\"/rest/v1/it's\"",
             [](const EdgeRow& r) { return r.path == "/rest/v1/it's"; });
  ExpectEdge(
      "m.request.path:\"/storage/v1/object/a b.png\" m.request.method:GET",
      [](const EdgeRow& r) { return r.path == "/storage/v1/object/a b.png" && r.method == "GET"; });
  ExpectEdge("m.request.cf.botManagement.verifiedBot:true",
             [](const EdgeRow& r) { return r.verified == true; });
  ExpectEdge("-m.request.cf.botManagement.verifiedBot:true",
             [](const EdgeRow& r) { return r.verified != true; });
  ExpectEdge("m.request.cf.botManagement.verifiedBot:NULL",
             [](const EdgeRow& r) { return !r.verified.has_value(); });
  ExpectEdge("-m.request.cf.botManagement.verifiedBot:NULL",
             [](const EdgeRow& r) { return r.verified.has_value(); });
  ExpectEdge("m.response.status_code:NULL", [](const EdgeRow& r) { return !r.status; });
}

TEST_F(LqlPgTest, Arrays) {
  ExpectEdge("m.request.cf.botManagement.detectionIds:@>2", [](const EdgeRow& r) {
    return std::find(r.detections.begin(), r.detections.end(), 2) != r.detections.end();
  });
  ExpectEdge("-m.request.cf.botManagement.detectionIds:@>2", [](const EdgeRow& r) {
    return std::find(r.detections.begin(), r.detections.end(), 2) == r.detections.end();
  });
  const auto args_have = [](const AuthRow& r, const std::function<bool(const std::string&)>& p) {
    return std::any_of(r.args.begin(), r.args.end(), p);
  };
  EXPECT_EQ(Ids("f:auth_logs m.args:@>\"--verbose\""),
            Expected<AuthRow>(shared_db->auth, [&](const AuthRow& r) {
              return args_have(r, [](const std::string& a) { return a == "--verbose"; });
            }));
  EXPECT_EQ(Ids("f:auth_logs m.args:@>~\"^-v1\""),
            Expected<AuthRow>(shared_db->auth, [&](const AuthRow& r) {
              return args_have(r, [](const std::string& a) { return a.starts_with("-v1"); });
            }));
}

// Records are REPEATED: an event may send one as an array of several objects. A filter matches
// when one element does (the row comes back once), its negation when none does; s: fields join
// the elements (one row each, as Logflare's LEFT JOIN UNNEST gives).
TEST_F(LqlPgTest, RecordsSentAsArraysOfSeveralObjects) {
  {
    pqxx::connection conn(shared_db->dsn());
    pqxx::work w(conn);
    w.exec_params(
        "INSERT INTO logs.edge (id, timestamp, event_message, project, metadata) VALUES ('arr1', "
        "to_timestamp($1::bigint / 1e6), 'batch', 'p1', "
        "'{\"request\": [{\"method\": \"GET\", \"path\": \"/a\"}, {\"method\": \"POST\", "
        "\"path\": \"/b\"}], \"response\": [{\"status_code\": 200}, {\"status_code\": 503}]}')",
        shared_db->edge.front().micros);
    w.commit();
  }
  EXPECT_EQ(Ids("f:edge_logs id:arr1 m.response.status_code:503"),
            std::vector<std::string>{"arr1"});
  EXPECT_EQ(Ids("f:edge_logs id:arr1 m.response.status_code:>=200 m.request.method:POST"),
            std::vector<std::string>{"arr1"});
  EXPECT_TRUE(Ids("f:edge_logs id:arr1 m.response.status_code:404").empty());
  EXPECT_TRUE(Ids("f:edge_logs id:arr1 -m.response.status_code:503").empty());
  EXPECT_EQ(Ids("f:edge_logs id:arr1 -m.response.status_code:404"),
            std::vector<std::string>{"arr1"});
  const QueryResult paths = shared_db->Run("f:edge_logs id:arr1 s:m.request.path@path", {});
  ASSERT_TRUE(paths.error.empty()) << paths.error;
  std::vector<std::string> got;
  for (const auto& row : paths.rows) got.push_back(row.at(3));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"/a", "/b"}));
  const QueryResult counted =
      shared_db->Run("f:edge_logs id:arr1 c:count(m.response.status_code)", {});
  ASSERT_TRUE(counted.error.empty()) << counted.error;
  ASSERT_EQ(counted.rows.size(), 1u);
  EXPECT_EQ(counted.rows[0].at(1), "2");
  pqxx::connection conn(shared_db->dsn());
  pqxx::work w(conn);
  w.exec("DELETE FROM logs.edge WHERE id = 'arr1'");
  w.commit();
}

TEST_F(LqlPgTest, LevelRange) {
  const std::vector<std::string> wanted = {"info", "notice", "warning", "error"};
  const auto expected = Expected<AuthRow>(shared_db->auth, [&](const AuthRow& r) {
    return std::find(wanted.begin(), wanted.end(), r.level) != wanted.end();
  });
  EXPECT_EQ(Ids("f:auth_logs metadata.level:info..error"), expected);
  EXPECT_EQ(Ids("f:auth_logs -m.level:info..error"),
            Expected<AuthRow>(shared_db->auth, [&](const AuthRow& r) {
              return std::find(wanted.begin(), wanted.end(), r.level) == wanted.end();
            }));
}

TEST_F(LqlPgTest, Floats) {
  EXPECT_EQ(Ids("f:storage_logs m.responseTime:>0.45"),
            Expected<StorageRow>(shared_db->storage, [](const StorageRow& r) {
              return r.response_time && *r.response_time > 0.45;
            }));
  EXPECT_EQ(Ids("f:storage_logs m.responseTime:0.2..0.5"),
            Expected<StorageRow>(shared_db->storage, [](const StorageRow& r) {
              return r.response_time && *r.response_time >= 0.2 && *r.response_time <= 0.5;
            }));
}

// 10:00:00 + i minutes + i seconds, i = 0..39.
std::int64_t At(int minute, int second) {
  return testing::lql::kBaseMicros + (minute * 60LL + second) * 1'000'000;
}

TEST_F(LqlPgTest, TimestampFilters) {
  ExpectEdge("t:2025-01-15T10:10:10Z..2025-01-15T10:20:20Z",
             [](const EdgeRow& r) { return r.micros >= At(10, 10) && r.micros <= At(20, 20); });
  ExpectEdge("t:>2025-01-15T10:30:00Z", [](const EdgeRow& r) { return r.micros > At(30, 0); });
  ExpectEdge("t:<=1736935500", [](const EdgeRow& r) { return r.micros <= At(5, 0); });
  ExpectEdge("t:2025-01-15", [](const EdgeRow&) { return true; });
  EXPECT_TRUE(Ids("f:edge_logs t:2025-01-14").empty());
  ExpectEdge("t:2025-01-15T10:{05..09}:00",
             [](const EdgeRow& r) { return r.micros >= At(5, 0) && r.micros <= At(9, 0); });
  ExpectEdge("-t:2025-01-15T10:{05..09}:00",
             [](const EdgeRow& r) { return r.micros < At(5, 0) || r.micros > At(9, 0); });
}

TEST_F(LqlPgTest, TimestampShorthandsUseNow) {
  shared_db->now = std::chrono::system_clock::time_point(std::chrono::microseconds(At(30, 30)));
  ExpectEdge("t:last@10m",
             [](const EdgeRow& r) { return r.micros >= At(20, 0) && r.micros <= At(30, 30); });
  ExpectEdge("t:this@hour", [](const EdgeRow& r) { return r.micros <= At(30, 30); });
  ExpectEdge("t:today", [](const EdgeRow&) { return true; });
  EXPECT_TRUE(Ids("f:edge_logs t:yesterday").empty());
  shared_db->now = std::chrono::system_clock::now();
}

TEST_F(LqlPgTest, TimeFiltersCombineWithTheEndpointsTimeParameters) {
  // The stored CTE keeps (start, end]; the LQL range keeps [10:10:10, 10:20:20]; both apply.
  ExpectEdge("t:2025-01-15T10:10:10Z..2025-01-15T10:20:20Z",
             [](const EdgeRow& r) { return r.micros > At(15, 15) && r.micros <= At(20, 20); },
             {{"iso_timestamp_start", "2025-01-15T10:15:15Z"}});
  ExpectEdge("t:>2025-01-15T10:30:00Z",
             [](const EdgeRow& r) { return r.micros > At(30, 0) && r.micros <= At(35, 35); },
             {{"iso_timestamp_end", "2025-01-15T10:35:35Z"}});
}

TEST_F(LqlPgTest, SelectAddsNamedColumns) {
  const QueryResult result = shared_db->Run(
      "f:edge_logs s:m.request.path s:m.response.status_code@code m.request.method:POST", {});
  ASSERT_TRUE(result.error.empty()) << result.error << "\n" << result.pg_sql;
  EXPECT_EQ(result.columns,
            (std::vector<std::string>{"timestamp", "id", "event_message", "path", "code"}));
  const auto expected =
      Expected<EdgeRow>(shared_db->edge, [](const EdgeRow& r) { return r.method == "POST"; });
  ASSERT_EQ(result.rows.size(), expected.size());
  for (const auto& row : result.rows) {
    const auto it = std::find_if(shared_db->edge.begin(), shared_db->edge.end(),
                                 [&](const EdgeRow& r) { return r.id == row.at(1); });
    ASSERT_NE(it, shared_db->edge.end());
    EXPECT_EQ(row.at(3), it->path);
    EXPECT_EQ(row.at(4), it->status ? std::to_string(*it->status) : "NULL");
  }
}

// Buckets of p1 edge rows by hour/minute computed in C++: (bucket start, values).
std::map<std::int64_t, std::vector<const EdgeRow*>> Buckets(const std::vector<EdgeRow>& rows,
                                                            std::int64_t width) {
  std::map<std::int64_t, std::vector<const EdgeRow*>> buckets;
  for (const auto& r : rows) {
    if (r.project == "p1") {
      buckets[r.micros / width * width].push_back(&r);
    }
  }
  return buckets;
}

TEST_F(LqlPgTest, ChartCountsPerBucketOldestFirst) {
  const QueryResult result =
      shared_db->Run("f:edge_logs c:count(*) c:group_by(t::minute) t:<2025-01-15T10:05:00Z", {});
  ASSERT_TRUE(result.error.empty()) << result.error << "\n" << result.pg_sql;
  EXPECT_EQ(result.columns, (std::vector<std::string>{"timestamp", "count"}));
  ASSERT_EQ(result.rows.size(), 5u);
  EXPECT_EQ(result.rows[0], (std::vector<std::string>{"2025-01-15 10:00:00+00", "1"}));
  EXPECT_EQ(result.rows[4], (std::vector<std::string>{"2025-01-15 10:04:00+00", "1"}));

  const QueryResult hourly = shared_db->Run("f:edge_logs c:count(*) c:group_by(t::h) error", {});
  ASSERT_TRUE(hourly.error.empty()) << hourly.error;
  std::int64_t errors = 0;
  for (const auto& r : shared_db->edge) {
    errors += r.project == "p1" && Contains(r.message, "error");
  }
  ASSERT_EQ(hourly.rows.size(), 1u);
  EXPECT_EQ(hourly.rows[0],
            (std::vector<std::string>{"2025-01-15 10:00:00+00", std::to_string(errors)}));
}

TEST_F(LqlPgTest, ChartAggregates) {
  const auto buckets = Buckets(shared_db->edge, 3'600'000'000LL);
  ASSERT_EQ(buckets.size(), 1u);
  const auto& rows = buckets.begin()->second;
  std::vector<std::int64_t> statuses;
  std::set<std::string> paths;
  std::int64_t non_null_status = 0;
  for (const EdgeRow* r : rows) {
    if (r->status) {
      statuses.push_back(*r->status), ++non_null_status;
    }
    paths.insert(r->path);
  }
  std::sort(statuses.begin(), statuses.end());
  std::int64_t sum = 0;
  for (auto s : statuses) {
    sum += s;
  }
  const auto single = [&](const std::string& lql) {
    const QueryResult r = shared_db->Run("f:edge_logs c:group_by(t::hour) " + lql, {});
    EXPECT_TRUE(r.error.empty()) << lql << ": " << r.error << "\n" << r.pg_sql;
    EXPECT_EQ(r.rows.size(), 1u) << lql;
    return r.rows.empty() ? std::vector<std::string>{} : r.rows[0];
  };
  EXPECT_EQ(single("c:count(m.response.status_code)").at(1), std::to_string(non_null_status));
  EXPECT_EQ(single("c:countd(m.request.path)").at(1), std::to_string(paths.size()));
  EXPECT_EQ(single("c:sum(m.response.status_code)").at(1), std::to_string(sum));
  EXPECT_EQ(single("c:max(m.request.path)").at(1), *paths.rbegin());
  EXPECT_NEAR(std::stod(single("c:avg(m.response.status_code)").at(1)),
              static_cast<double>(sum) / static_cast<double>(statuses.size()), 1e-9);
  // A percentile is one of the values, between the neighbouring ranks.
  const double p95 = std::stod(single("c:p95(m.response.status_code)").at(1));
  const std::size_t rank = (statuses.size() * 95 + 99) / 100;
  EXPECT_GE(p95, static_cast<double>(statuses[rank - 2]));
  EXPECT_LE(p95, static_cast<double>(statuses[std::min(rank, statuses.size() - 1)]));
}

TEST_F(LqlPgTest, OtherProjectsNeverShow) {
  const auto ids = Ids("f:edge_logs");
  for (const auto& id : ids) {
    EXPECT_FALSE(id.starts_with("x-")) << id;
  }
  EXPECT_TRUE(Ids("f:edge_logs other-project").empty());
}

TEST_F(LqlPgTest, ErrorsComeBackAsLqlDiagnostics) {
  const std::pair<std::string, std::string> cases[] = {
      {"error",
       "multiple CTEs available (edge_logs, postgres_logs, function_edge_logs, "
       "function_logs, auth_logs, realtime_logs, storage_logs, restapi_logs, "
       "pooler_logs, supavisor_logs, pg_upgrade_logs, etl_replication_logs, auth_audit_logs, "
       "postgrest_logs, pgbouncer_logs): pick one with f:name at 1:1"},
      {"f:nope",
       "table \"nope\" not found in available CTEs: edge_logs, postgres_logs, "
       "function_edge_logs, function_logs, auth_logs, realtime_logs, storage_logs, "
       "restapi_logs, pooler_logs, supavisor_logs, pg_upgrade_logs, etl_replication_logs, "
       "auth_audit_logs, postgrest_logs, pgbouncer_logs at 1:1"},
      {"f:edge_logs m.foo:1", "field \"metadata.foo\" not found in edge_logs at 1:13"},
      {"f:edge_logs m.response.status_code:abc",
       "expected INT64 for metadata.response.status_code, got \"abc\" at 1:36"},
      {"f:edge_logs \"open", "lql parse error: unterminated quoted string at 1:13"},
  };
  for (const auto& [lql, message] : cases) {
    const QueryResult result = shared_db->Run(lql, {});
    EXPECT_EQ(result.error, message) << lql;
    EXPECT_EQ(result.error_source, DiagSource::kConsumerLql) << lql;
  }
}

}  // namespace
}  // namespace lqe::lql
