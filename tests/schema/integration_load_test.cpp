// lqe load and lqe retention against the real cluster, through the real binary.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <pqxx/pqxx>

#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

const char* const kSources[] = {"edge",     "postgres", "function_edge", "function_events", "auth",
                                "realtime", "storage",  "restapi",       "pooler"};

class LoadIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const CommandResult migrated = RunLqe({"migrate", "--dsn", db_.dsn()});
    ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  }

  CommandResult Load(const std::string& source, const std::string& ndjson) {
    return RunLqe({"load", "--dsn", db_.dsn(), "--source", source, WriteTempFile(ndjson)});
  }
  std::string Scalar(const std::string& sql) {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    const auto row = tx.exec1(sql);
    return row[0].is_null() ? "NULL" : row[0].as<std::string>();
  }
  static std::string Summary(const std::string& out) { return out.substr(0, out.find(" in ")); }

  TestDatabase db_{"load"};
};

TEST_F(LoadIntegrationTest, LoadsTheNineIngestSamples) {
  const std::string catalogue_before = Scalar("SELECT count(*) FROM logs.field_catalogue");
  for (const char* source : kSources) {
    const std::string line = CompactSample(source);
    const auto result = Load(source, line + "\n");
    ASSERT_EQ(result.exit_code, 0) << source << ": " << result.err;
    EXPECT_EQ(Summary(result.out), "loaded 1 events, skipped 0 duplicates, rejected 0 lines")
        << source;
    const auto sample = boost::json::parse(line).as_object();
    const std::string table = std::string("logs.") + source;
    EXPECT_EQ(Scalar("SELECT count(*) FROM " + table), "1");
    EXPECT_EQ(Scalar("SELECT event_message FROM " + table),
              std::string(sample.at("event_message").as_string()));
    const std::string project = sample.contains("project")
                                    ? std::string(sample.at("project").as_string())
                                    : std::string("NULL");
    EXPECT_EQ(Scalar("SELECT project FROM " + table), project) << source;
    // The stored metadata is the sample's metadata (jsonb equality ignores key order).
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    EXPECT_TRUE(
        tx.exec1("SELECT metadata = " + tx.quote(boost::json::serialize(sample.at("metadata"))) +
                 "::jsonb FROM " + table)[0]
            .as<bool>())
        << source;
    EXPECT_TRUE(tx.exec1("SELECT date_trunc('second', \"timestamp\") = date_trunc('second', " +
                         tx.quote(std::string(sample.at("timestamp").as_string())) +
                         "::timestamptz) FROM " + table)[0]
                    .as<bool>())
        << source;
  }
  EXPECT_EQ(Scalar("SELECT metadata->'response'->>'status_code' FROM logs.edge"), "200");
  EXPECT_EQ(Scalar("SELECT metadata->>'project_ref' FROM logs.function_edge"), "default");
  EXPECT_EQ(Scalar("SELECT metadata->'parsed'->>'error_severity' FROM logs.postgres"), "LOG");
  // The seed covers what the services ship: these events add no catalogue rows.
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.field_catalogue"), catalogue_before);
}

// A finished load leaves nothing in the edge rollup's delta: it is folded into the rollup, whose
// counts are those of the loaded rows.
TEST_F(LoadIntegrationTest, LoadingEdgeFoldsTheRollupDelta) {
  std::string lines;
  for (int i = 0; i < 50; ++i) {
    lines +=
        R"({"event_message":"GET","timestamp":"2026-03-08T10:0)" + std::to_string(i % 10) +
        R"(:00Z","metadata":{"request":{"url":"https://a.supabase.co/rest/v1/t","path":"/rest/v1/t"}}})" +
        "\n";
  }
  const auto result = RunLqe({"load", "--dsn", db_.dsn(), "--source", "edge", "--batch-size", "7",
                              "--jobs", "2", WriteTempFile(lines)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge_api_minute_delta"), "0");
  EXPECT_EQ(Scalar("SELECT sum(requests) FROM logs.edge_api_minute"), "50");
  EXPECT_EQ(Scalar("SELECT sum(rest_requests) FROM logs.edge_api_minute"), "50");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge_api_minute"), "10");
}

// The sources Studio's log pages read besides the nine load like them.
TEST_F(LoadIntegrationTest, LoadsTheStudioSources) {
  for (const char* source : {"supavisor", "pg_upgrade", "etl_replication", "auth_audit"}) {
    const auto result = Load(
        source,
        R"({"event_message":"m","project":"p","timestamp":"2026-03-08T10:00:00Z","metadata":{"level":"info"}})"
        "\n");
    ASSERT_EQ(result.exit_code, 0) << source << ": " << result.err;
    EXPECT_EQ(Scalar(std::string("SELECT metadata->>'level' FROM logs.") + source), "info");
  }
}

TEST_F(LoadIntegrationTest, BadLinesAreReportedAndGoodLinesLoaded) {
  const std::string input =
      "{\"event_message\":\"good 1\",\"id\":\"g1\",\"metadata\":{\"host\":\"h\"}}\n"
      "{\"event_message\":\"broken\"\n"
      "[\"not\",\"an\",\"object\"]\n"
      "\n"
      "{\"event_message\":\"old\",\"timestamp\":\"1969-12-31T00:00:00Z\"}\n"
      "{\"event_message\":\"nul \\u0000\"}\n"
      "{\"event_message\":\"conflict\",\"id\":\"g3\",\"metadata\":{\"host\":{\"name\":\"h\"}}}\n"
      "{\"event_message\":\"good 2\",\"id\":\"g2\",\"timestamp\":1679582186}\n";
  const auto result = Load("restapi", input);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "line 2: invalid JSON at column 26: incomplete JSON\n"
            "line 3: not a JSON object, got an array\n"
            "line 5: timestamp out of range (1970-01-01 to 2099-12-31)\n"
            "line 6: a string contains a NUL character (\\u0000), which PostgreSQL cannot store\n"
            "conflict: metadata.host: catalogue has STRING, event has RECORD (1 values stored as "
            "sent; see logs.catalogue_conflicts)\n");
  EXPECT_EQ(Summary(result.out),
            "loaded 3 events, skipped 0 duplicates, rejected 4 lines, 1 type conflicts");
  EXPECT_EQ(Scalar("SELECT string_agg(id || '=' || event_message, ',' ORDER BY id) FROM "
                   "logs.restapi"),
            "g1=good 1,g2=good 2,g3=conflict");
  EXPECT_EQ(Scalar("SELECT \"timestamp\" = '2023-03-23 14:36:26+00' FROM logs.restapi WHERE id = "
                   "'g2'"),
            "t");
  // Its day's partition was created on the way.
  EXPECT_EQ(Scalar("SELECT to_regclass('logs.restapi_p20230323') IS NOT NULL"), "t");
}

TEST_F(LoadIntegrationTest, ReloadingDoesNotDuplicateEvents) {
  const std::string input = "{\"event_message\":\"a\",\"id\":\"e1\",\"timestamp\":\"" + UtcIso(-1) +
                            "\"}\n"
                            "{\"event_message\":\"b\",\"id\":\"e2\"}\n"
                            "{\"event_message\":\"c\",\"id\":\"e3\",\"timestamp\":\"" +
                            UtcIso(0) +
                            "\"}\n"
                            "{\"event_message\":\"a again\",\"id\":\"e1\",\"timestamp\":\"" +
                            UtcIso(-1) +
                            "\"}\n"
                            "{\"event_message\":\"no id\"}\n";
  const auto first = Load("edge", input);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(Summary(first.out), "loaded 4 events, skipped 1 duplicates, rejected 0 lines");
  const auto second = Load("edge", input);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  // The event without an id (nor a timestamp) got its id from its line's text and number, so
  // the second run recognises it too.
  EXPECT_EQ(Summary(second.out), "loaded 0 events, skipped 5 duplicates, rejected 0 lines");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge WHERE id IN ('e1', 'e2', 'e3')"), "3");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), "4");
  // With a small batch size the duplicates span batches; still nothing is duplicated.
  const auto third = RunLqe(
      {"load", "--dsn", db_.dsn(), "--source", "edge", "--batch-size", "1", WriteTempFile(input)});
  EXPECT_EQ(Summary(third.out), "loaded 0 events, skipped 5 duplicates, rejected 0 lines");
  // The same line at another line number is another event (a log may repeat a line).
  const auto shifted =
      Load("edge", "{\"event_message\":\"other\"}\n{\"event_message\":\"no id\"}\n");
  EXPECT_EQ(Summary(shifted.out), "loaded 2 events, skipped 0 duplicates, rejected 0 lines");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge WHERE event_message = 'no id'"), "2");
}

TEST_F(LoadIntegrationTest, StoredEventsBetweenNewOnesAreSkippedAndTheOthersKeepTheirRows) {
  auto line = [](const std::string& id, const std::string& message, int days_ago) {
    return "{\"event_message\":\"" + message + "\",\"id\":\"" + id + "\",\"timestamp\":\"" +
           UtcIso(-days_ago) + "\"}\n";
  };
  const auto first = Load("edge", line("s1", "stored 1", 3) + line("s2", "stored 2", 2));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  // New events before, between and after stored ones, and a repeat inside the file: the COPY
  // then sends the batch's rows in pieces around the ones skipped.
  const auto second = Load("edge", line("n1", "new\\t1", 5) + line("s1", "stored 1", 3) +
                                       line("n2", "new 2", 4) + line("n2", "new 2 again", 4) +
                                       line("s2", "stored 2", 2) + line("n3", "new 3", 1));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(Summary(second.out), "loaded 3 events, skipped 3 duplicates, rejected 0 lines");
  EXPECT_EQ(Scalar("SELECT string_agg(id || '=' || event_message, ',' ORDER BY id) FROM logs.edge"),
            "n1=new\t1,n2=new 2,n3=new 3,s1=stored 1,s2=stored 2");
}

TEST_F(LoadIntegrationTest, CatalogueWidensAndReportsConflicts) {
  auto result =
      Load("pooler", "{\"event_message\":\"x\",\"metadata\":{\"n\":1,\"tags\":[\"a\"]}}\n");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Scalar("SELECT bq_type || ' ' || mode FROM logs.field_catalogue WHERE source = "
                   "'pooler' AND path = 'metadata.n'"),
            "INT64 NULLABLE");
  EXPECT_EQ(Scalar("SELECT bq_type || ' ' || mode FROM logs.field_catalogue WHERE source = "
                   "'pooler' AND path = 'metadata.tags'"),
            "STRING REPEATED");
  result = Load("pooler", "{\"event_message\":\"y\",\"metadata\":{\"n\":2.5}}\n");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Scalar("SELECT bq_type FROM logs.field_catalogue WHERE source = 'pooler' AND path = "
                   "'metadata.n'"),
            "FLOAT64");
  // A conflict is stored and reported; the catalogue keeps FLOAT64.
  result = Load("pooler", "{\"event_message\":\"z\",\"metadata\":{\"n\":\"many\"}}\n");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err,
            "conflict: metadata.n: catalogue has FLOAT64, event has STRING (1 values stored as "
            "sent; see logs.catalogue_conflicts)\n");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.pooler"), "3");
  EXPECT_EQ(Scalar("SELECT bq_type FROM logs.field_catalogue WHERE source = 'pooler' AND path = "
                   "'metadata.n'"),
            "FLOAT64");
}

TEST_F(LoadIntegrationTest, UnknownSourceIsAnErrorThatNamesTheNearestSource) {
  auto result = Load("edg", "{\"event_message\":\"x\"}\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "lqe load: unknown source \"edg\": no table logs.edg; did you mean \"edge\"?\n");
  EXPECT_EQ(result.out, "");  // a failed load has no summary
  result = Load("functon_edge", "{\"event_message\":\"x\"}\n");
  EXPECT_EQ(result.err,
            "lqe load: unknown source \"functon_edge\": no table logs.functon_edge; did you mean "
            "\"function_edge\"?\n");
  // Nothing near: the sources there are, and no advice to migrate a migrated database.
  result = Load("nope", "{\"event_message\":\"x\"}\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(
      result.err,
      "lqe load: unknown source \"nope\": no table logs.nope; the sources are auth, "
      "auth_audit, edge, etl_replication, function_edge, function_events, pg_upgrade, pooler, "
      "postgres, realtime, restapi, storage, supavisor\n");
  const auto invalid = Load("Edge; drop", "{\"event_message\":\"x\"}\n");
  EXPECT_EQ(invalid.exit_code, 1);
  EXPECT_EQ(invalid.err, "lqe load: invalid source name \"Edge; drop\"\n");
  EXPECT_EQ(Load("Edge", "{\"event_message\":\"x\"}\n").err,
            "lqe load: invalid source name \"Edge\"; did you mean \"edge\"?\n");
}

TEST_F(LoadIntegrationTest, ADatabaseWithoutLogTablesIsToldToMigrate) {
  TestDatabase empty{"load_empty"};
  const auto result = RunLqe({"load", "--dsn", empty.dsn(), "--source", "edge",
                              WriteTempFile("{\"event_message\":\"x\"}\n")});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "lqe load: unknown source \"edge\": no table logs.edge (the database has no lqe log "
            "tables: run lqe migrate)\n");
  EXPECT_EQ(result.out, "");
}

TEST_F(LoadIntegrationTest, UnreadableTimestampsAreLoadedMarkedAndListedByLine) {
  std::string input =
      "{\"event_message\":\"zone-less\",\"id\":\"z1\",\"timestamp\":\"2026-01-02T03:04:05.123456\"}"
      "\n"
      "{\"event_message\":\"bad 2\",\"id\":\"b2\",\"timestamp\":\"tomorrow\"}\n"
      "{\"event_message\":\"utc word\",\"id\":\"z3\",\"timestamp\":\"2026-01-02 03:04:05.149 "
      "UTC\"}\n";
  for (int line = 4; line <= 26; ++line) {
    input += "{\"event_message\":\"bad\",\"timestamp\":\"" + std::to_string(line) + " ago\"}\n";
  }
  const auto result = Load("auth", input);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(Summary(result.out),
            "loaded 26 events, skipped 0 duplicates, rejected 0 lines, 24 timestamps inferred");
  EXPECT_EQ(result.out.substr(result.out.find('\n') + 1),
            "timestamps not readable, stored at the ingest time with the value sent in "
            "extra.timestamp_original: lines 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, "
            "18, 19, 20, 21, 22 and 4 more\n");
  EXPECT_EQ(Scalar("SELECT \"timestamp\" = '2026-01-02 03:04:05.123456+00' AND extra = '{}' "
                   "FROM logs.auth WHERE id = 'z1'"),
            "t");
  EXPECT_EQ(Scalar("SELECT \"timestamp\" = '2026-01-02 03:04:05.149+00' FROM logs.auth WHERE "
                   "id = 'z3'"),
            "t");
  EXPECT_EQ(Scalar("SELECT extra::text FROM logs.auth WHERE id = 'b2'"),
            "{\"timestamp_inferred\": true, \"timestamp_original\": \"tomorrow\"}");
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.auth WHERE extra->>'timestamp_inferred' = 'true' "
                   "AND \"timestamp\" > now() - interval '1 hour'"),
            "24");
  // One line: "line", not "lines".
  const auto one = Load("auth", "{\"event_message\":\"x\",\"timestamp\":\"soon\"}\n");
  EXPECT_EQ(one.out.substr(one.out.find('\n') + 1),
            "timestamps not readable, stored at the ingest time with the value sent in "
            "extra.timestamp_original: line 1\n");
  // A value the catalogue cannot type (arrays of arrays) is still stored as sent.
  const auto nested = Load("pooler", "{\"event_message\":\"nested\",\"timestamp\":[[1],[2]]}\n");
  EXPECT_EQ(nested.exit_code, 0) << nested.err;
  EXPECT_EQ(Scalar("SELECT extra->>'timestamp_original' FROM logs.pooler WHERE event_message = "
                   "'nested'"),
            "[[1], [2]]");
}

TEST_F(LoadIntegrationTest, DatabaseFailureStopsTheLoadWithTheLinesNotLoaded) {
  ASSERT_EQ(Load("storage", "{\"event_message\":\"first\"}\n").exit_code, 0);
  {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    tx.exec("DROP FUNCTION logs.ensure_partition(text, date) CASCADE");
    tx.commit();
  }
  const auto result =
      RunLqe({"load", "--dsn", db_.dsn(), "--source", "storage", "--batch-size", "2",
              WriteTempFile("{\"event_message\":\"a\"}\n"
                            "{\"event_message\":\"b\"}\n"
                            "{\"event_message\":\"c\"}\n")});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err.rfind("lqe load: database error loading lines 1-2 (not loaded): ERROR:  "
                             "function logs.ensure_partition(unknown, date) does not exist",
                             0),
            0u)
      << result.err;
  // A failed load prints no summary: "loaded 0 events" would read as a finished load.
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.find("stay loaded"), std::string::npos) << result.err;
  EXPECT_EQ(Scalar("SELECT string_agg(event_message, ',') FROM logs.storage"), "first");
}

TEST_F(LoadIntegrationTest, GeneratedEventsOfEverySourceLoadWithoutNewFields) {
  const std::string catalogue_before = Scalar("SELECT count(*) FROM logs.field_catalogue");
  for (const char* source : kSources) {
    const auto generated =
        RunLqe({"generate", "--source", source, "--count", "300", "--seed", "5"});
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    const auto result = Load(source, generated.out);
    ASSERT_EQ(result.exit_code, 0) << source << ": " << result.err;
    EXPECT_EQ(Summary(result.out), "loaded 300 events, skipped 0 duplicates, rejected 0 lines");
  }
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.field_catalogue"), catalogue_before);
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge WHERE project = 'default'") != "0", true);
}

TEST_F(LoadIntegrationTest, RetentionDropsOldPartitions) {
  const std::string input = "{\"event_message\":\"old\",\"timestamp\":\"" + UtcIso(-20) +
                            "\"}\n{\"event_message\":\"new\",\"timestamp\":\"" + UtcIso(-1) +
                            "\"}\n";
  ASSERT_EQ(Load("auth", input).exit_code, 0);
  const std::string old_part = "auth_p" + UtcDayTag(-20);
  EXPECT_EQ(Scalar("SELECT to_regclass('logs." + old_part + "') IS NOT NULL"), "t");
  const auto result = RunLqe({"retention", "--dsn", db_.dsn(), "--days", "7"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("dropped logs." + old_part + "\n"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("dropped logs.auth_p" + UtcDayTag(-7)), std::string::npos);
  EXPECT_EQ(Scalar("SELECT string_agg(event_message, ',') FROM logs.auth"), "new");
  EXPECT_EQ(Scalar("SELECT to_regclass('logs.edge_p" + UtcDayTag(3) + "') IS NOT NULL"), "t");
  const auto again = RunLqe({"retention", "--dsn", db_.dsn(), "--days", "7"});
  EXPECT_EQ(again.out, "retention: 0 partitions dropped, 0 created\n");
}

}  // namespace
}  // namespace lqe::testing
