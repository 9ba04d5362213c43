// The ingest event model against the real cluster: the nine services' real event shapes load
// with no rejections, type conflicts are stored and counted, and queries translated from
// BigQuery read conflicting values as NULL (or as text) instead of failing.
#include <gtest/gtest.h>

#include <chrono>
#include <pqxx/pqxx>
#include <sstream>

#include "lqe/catalog.h"
#include "lqe/schema/loader.h"
#include "lqe/schema/migrate.h"
#include "lqe/translate.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

const char* const kSources[] = {"edge",     "postgres", "function_edge", "function_events", "auth",
                                "realtime", "storage",  "restapi",       "pooler"};

std::string Fixture(const std::string& source) {
  return SourcePath("tests/fixtures/ingest/" + source + ".ndjson");
}

int LineCount(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

class IngestIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(RunLqe({"migrate", "--dsn", db_.dsn()}).exit_code, 0); }

  CommandResult LoadFile(const std::string& source, const std::string& path) {
    return RunLqe({"load", "--dsn", db_.dsn(), "--source", source, path});
  }
  CommandResult Load(const std::string& source, const std::string& ndjson) {
    return LoadFile(source, WriteTempFile(ndjson));
  }
  std::string Scalar(const std::string& sql) {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    const auto row = tx.exec1(sql);
    return row[0].is_null() ? "NULL" : row[0].as<std::string>();
  }
  // Translates a BigQuery query against the database's own catalogue and runs it; each row's
  // columns joined by '|', NULL as "NULL", rows joined by ';'.
  std::string Query(const std::string& bigquery) {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    std::vector<CatalogEntry> entries;
    for (const auto& row :
         tx.exec("SELECT source, path, bq_type, mode FROM logs.field_catalogue")) {
      entries.push_back({row[0].as<std::string>(), row[1].as<std::string>(),
                         row[2].as<std::string>(), row[3].as<std::string>()});
    }
    std::string error;
    const Catalog catalog = Catalog::FromEntries(entries, &error);
    EXPECT_EQ(error, "");
    TranslateOptions options;
    options.catalog = &catalog;
    const auto translated = Translate(bigquery, options);
    if (!translated.ok()) return "translate error: " + translated.error().message;
    std::string out;
    for (const auto& row : tx.exec(translated.value().pg_sql)) {
      if (!out.empty()) out += ";";
      for (int i = 0; i < static_cast<int>(row.size()); ++i) {
        if (i > 0) out += "|";
        out += row[i].is_null() ? "NULL" : row[i].as<std::string>();
      }
    }
    return out;
  }
  static std::string Summary(const std::string& out) { return out.substr(0, out.find(" in ")); }

  TestDatabase db_{"ingest"};
};

TEST_F(IngestIntegrationTest, TheNineServicesRealEventsLoadWithoutRejectionsOrConflicts) {
  for (const char* source : kSources) {
    const std::string path = Fixture(source);
    const int lines = LineCount(ReadFile(path));
    ASSERT_GT(lines, 0) << source;
    const auto result = LoadFile(source, path);
    EXPECT_EQ(result.exit_code, 0) << source << ": " << result.err;
    EXPECT_EQ(result.err, "") << source;
    EXPECT_EQ(Summary(result.out),
              "loaded " + std::to_string(lines) + " events, skipped 0 duplicates, rejected 0 lines")
        << source;
    EXPECT_EQ(Scalar(std::string("SELECT count(*) FROM logs.") + source), std::to_string(lines));
  }
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.catalogue_conflicts"), "0");
  // The real types are the catalogue's: nothing was widened or retyped by the load.
  EXPECT_EQ(Scalar("SELECT string_agg(source || ' ' || path || ' ' || bq_type || ' ' || mode, ', ' "
                   "ORDER BY source, path) FROM logs.field_catalogue WHERE (source, path) IN "
                   "(('auth', 'metadata.status'), ('auth', 'metadata.duration'), "
                   "('storage', 'metadata.level'), ('storage', 'metadata.context'), "
                   "('storage', 'metadata.context.pid'), ('edge', 'extra.severity'))"),
            "auth metadata.duration INT64 NULLABLE, auth metadata.status INT64 NULLABLE, "
            "edge extra.severity STRING NULLABLE, storage metadata.context RECORD REPEATED, "
            "storage metadata.context.pid INT64 NULLABLE, storage metadata.level INT64 NULLABLE");
  // Stored as sent, minus empty values: GoTrue's empty referer is gone, appname kept in extra.
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.auth WHERE metadata ? 'referer'"), "1");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.auth WHERE extra = '{\"appname\": "
                   "\"supabase-auth\"}'"),
            "6");
  EXPECT_EQ(Scalar("SELECT metadata->'context' FROM logs.storage WHERE event_message = 'request "
                   "errored'"),
            R"([{"pid": 1, "host": "9c2b1a7f0e11"}])");
  EXPECT_EQ(Scalar("SELECT extra->>'severity' FROM logs.edge WHERE extra ? 'severity'"), "error");
  // Timestamps: 9 fraction digits truncated to microseconds.
  EXPECT_EQ(Scalar("SELECT min(\"timestamp\") = '2026-01-15 10:00:00.123456+00' FROM logs.edge"),
            "t");
}

TEST_F(IngestIntegrationTest, AuthStatusFilterThroughTheTranslator) {
  ASSERT_EQ(LoadFile("auth", Fixture("auth")).exit_code, 0);
  EXPECT_EQ(Query("SELECT m.request_id, m.status, m.duration FROM logs.auth AS t "
                  "CROSS JOIN UNNEST(t.metadata) AS m WHERE m.status >= 400 ORDER BY t.timestamp"),
            "9d1c0d6e-0002|400|48211000;9d1c0d6e-0004|500|2300000;9d1c0d6e-0005|401|900000");
  // The top-level keys kept in extra are readable as extra.<key>.
  EXPECT_EQ(Query("SELECT t.extra.appname, count(*) AS n FROM logs.auth AS t GROUP BY 1"),
            "supabase-auth|6");
  EXPECT_EQ(Query("SELECT c.pid, m.level FROM logs.storage AS t CROSS JOIN UNNEST(t.metadata) AS m "
                  "CROSS JOIN UNNEST(m.context) AS c"),
            "");
  ASSERT_EQ(LoadFile("storage", Fixture("storage")).exit_code, 0);
  EXPECT_EQ(Query("SELECT c.pid, m.level FROM logs.storage AS t CROSS JOIN UNNEST(t.metadata) AS m "
                  "CROSS JOIN UNNEST(m.context) AS c ORDER BY t.timestamp"),
            "1|30;1|50");
}

TEST_F(IngestIntegrationTest, ConflictsAreStoredRecordedAndCountedWithoutChangingTheCatalogue) {
  const std::string input =
      R"({"id":"c1","timestamp":"2026-01-15T10:00:00Z","message":"m1","metadata":{"status":"abc","msg":5}})"
      "\n"
      R"({"id":"c2","timestamp":"2026-01-15T10:01:00Z","message":"m2","metadata":{"status":"404"}})"
      "\n"
      R"({"id":"c3","timestamp":"2026-01-15T10:02:00Z","message":"m3","metadata":{"status":{"code":1}}})"
      "\n";
  const auto result = Load("auth", input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err,
            "conflict: metadata.msg: catalogue has STRING, event has INT64 (1 values stored as "
            "sent; see logs.catalogue_conflicts)\n"
            "conflict: metadata.status: catalogue has INT64, event has RECORD (1 values stored as "
            "sent; see logs.catalogue_conflicts)\n"
            "conflict: metadata.status: catalogue has INT64, event has STRING (2 values stored as "
            "sent; see logs.catalogue_conflicts)\n");
  EXPECT_EQ(Summary(result.out),
            "loaded 3 events, skipped 0 duplicates, rejected 0 lines, 4 type conflicts");
  EXPECT_EQ(Scalar("SELECT string_agg(path || ' ' || catalogue_type || ' ' || seen_type || ' ' || "
                   "count || ' ' || example, ', ' ORDER BY path, seen_type) "
                   "FROM logs.catalogue_conflicts WHERE source = 'auth'"),
            "metadata.msg STRING INT64 1 5, metadata.status INT64 RECORD 1 {\"code\":1}, "
            "metadata.status INT64 STRING 2 \"abc\"");
  // Stored whole.
  EXPECT_EQ(Scalar("SELECT string_agg(metadata::text, ', ' ORDER BY id) FROM logs.auth"),
            R"({"msg": 5, "status": "abc"}, {"status": "404"}, {"status": {"code": 1}})");
  // The catalogue keeps its types.
  EXPECT_EQ(Scalar("SELECT bq_type FROM logs.field_catalogue WHERE source = 'auth' AND path = "
                   "'metadata.status'"),
            "INT64");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.field_catalogue WHERE source = 'auth' AND path "
                   "LIKE 'metadata.status.%'"),
            "0");
  // Reading through the catalogue type: unreadable values are NULL, a number read as STRING is
  // its text, a numeric string reads as the number.
  EXPECT_EQ(Query("SELECT t.id, m.status, m.msg FROM logs.auth AS t CROSS JOIN UNNEST(t.metadata) "
                  "AS m ORDER BY t.id"),
            "c1|NULL|5;c2|404|NULL;c3|NULL|NULL");
  EXPECT_EQ(Query("SELECT count(*) FROM logs.auth AS t CROSS JOIN UNNEST(t.metadata) AS m "
                  "WHERE m.status >= 400"),
            "1");

  // Counts add up across loads; first_seen and the first example stay.
  const auto again = Load("auth", R"({"metadata":{"status":"xyz"}})"
                                  "\n");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(Scalar("SELECT count || ' ' || example || ' ' || (first_seen <= last_seen) FROM "
                   "logs.catalogue_conflicts WHERE path = 'metadata.status' AND seen_type = "
                   "'STRING'"),
            "3 \"abc\" true");
}

TEST_F(IngestIntegrationTest, ARecordStoredAsAnObjectOrAnArrayUnnestsToItsElements) {
  // A single object where the catalogue says REPEATED (storage's context before the re-seed) is
  // one element, as in BigQuery; and a FLOAT64 that arrived as text.
  const auto result = Load(
      "storage",
      R"({"id":"s1","timestamp":"2026-01-15T10:00:00Z","message":"x","metadata":{"level":"warn","responseTime":"slow","context":{"host":"h","pid":2}}})"
      "\n"
      R"({"id":"s2","timestamp":"2026-01-15T10:01:00Z","message":"y","metadata":{"level":40,"responseTime":0.25,"context":[{"host":"h","pid":3}]}})"
      "\n");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Summary(result.out),
            "loaded 2 events, skipped 0 duplicates, rejected 0 lines, 3 type conflicts");
  EXPECT_EQ(Query("SELECT t.id, m.level, m.responseTime FROM logs.storage AS t "
                  "CROSS JOIN UNNEST(t.metadata) AS m ORDER BY t.id"),
            "s1|NULL|NULL;s2|40|0.25");
  EXPECT_EQ(Query("SELECT t.id, c.pid FROM logs.storage AS t CROSS JOIN UNNEST(t.metadata) AS m "
                  "CROSS JOIN UNNEST(m.context) AS c ORDER BY t.id"),
            "s1|2;s2|3");
}

TEST_F(IngestIntegrationTest, FarFutureEventsAreRefusedWithTheirReason) {
  const auto future = std::chrono::system_clock::now() + std::chrono::hours(2);
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(future.time_since_epoch()).count();
  const auto result = Load("edge", R"({"message":"late","timestamp":)" + std::to_string(seconds) +
                                       "}\n" + R"({"message":"fine"})" + "\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err.substr(0, 18), "line 1: timestamp ");
  EXPECT_NE(result.err.find(" is more than 1 hour after the ingest time "), std::string::npos)
      << result.err;
  EXPECT_EQ(Summary(result.out), "loaded 1 events, skipped 0 duplicates, rejected 1 lines");
  EXPECT_EQ(Scalar("SELECT event_message FROM logs.edge"), "fine");
}

TEST_F(IngestIntegrationTest, LoaderApiCountsConflictsWithAnInjectedClock) {
  schema::LoadOptions options;
  options.dsn = db_.dsn();
  options.source = "auth";
  options.now_micros = [] { return 1768471200LL * 1000000; };  // 2026-01-15 10:00:00 UTC
  std::istringstream in(R"({"metadata":{"status":"x"}})"
                        "\n"
                        R"({"metadata":{"status":500},"severity":"error"})"
                        "\n");
  std::ostringstream errors;
  schema::LoadStats stats;
  const std::int64_t before = schema::CatalogueConflictsTotal();
  schema::LoadNdjson(options, in, errors, &stats);
  EXPECT_EQ(stats.loaded, 2);
  EXPECT_EQ(stats.rejected, 0);
  EXPECT_EQ(stats.conflicts, 1);
  EXPECT_EQ(schema::CatalogueConflictsTotal() - before, 1);
  EXPECT_EQ(errors.str(),
            "conflict: metadata.status: catalogue has INT64, event has STRING (1 values stored as "
            "sent; see logs.catalogue_conflicts)\n");
  // Both events got the injected ingest time; the new top-level key is catalogued under extra.
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.auth WHERE \"timestamp\" = '2026-01-15 10:00:00+00' "
                   "AND event_message IS NULL"),
            "2");
  EXPECT_EQ(Scalar("SELECT bq_type FROM logs.field_catalogue WHERE source = 'auth' AND path = "
                   "'extra.severity'"),
            "STRING");
  EXPECT_EQ(Query("SELECT t.extra.severity FROM logs.auth AS t WHERE t.extra.severity IS NOT NULL"),
            "error");
}

}  // namespace
}  // namespace lqe::testing
