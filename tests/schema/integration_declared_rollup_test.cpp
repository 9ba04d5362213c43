// Declared rollups (config `rollups:`, lqe migrate --config) against the raw tables: backfill and
// trigger give what a rebuild gives, the example endpoint reading the rollup returns exactly what
// the raw query returns for every window (partial first and last minutes included), concurrent
// inserters, the ingest role, retention, re-runs, changed and removed declarations, and every
// refused declaration's message.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>
#include <random>
#include <thread>

#include "lqe/catalog.h"
#include "lqe/regex.h"
#include "lqe/schema/migrate.h"
#include "lqe/schema/rollups.h"
#include "lqe/translate.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

// A config for lqe migrate --config: the example endpoint and the example rollup declaration.
std::string ConfigWith(const std::string& dsn, const std::string& rollups_yaml) {
  return "database:\n  dsn: \"" + dsn + "\"\nendpoints_dir: \"" +
         SourcePath("examples/rollups/endpoints") + "\"\n" + rollups_yaml;
}

std::string ExampleRollups() {
  return ReadFileText(SourcePath("examples/rollups/rollups.yaml"));
}

// Every row of the rollup, in key order, as one digest.
std::string RollupDigest(pqxx::connection& conn, const std::string& table) {
  pqxx::read_transaction tx(conn);
  return tx
      .exec1("SELECT coalesce(md5(string_agg(x::text, ';' ORDER BY x::text)), '') FROM logs." +
             table + " x")[0]
      .as<std::string>();
}

// The digest of the rollup, then of a rebuild of it from the source table.
std::pair<std::string, std::string> DigestAndRebuilt(pqxx::connection& conn,
                                                     const std::string& name) {
  const std::string before = RollupDigest(conn, "rollup_" + name);
  {
    pqxx::work tx(conn);
    tx.exec_params("SELECT logs.rebuild_rollup($1)", name);
    tx.commit();
  }
  return {before, RollupDigest(conn, "rollup_" + name)};
}

std::string InsertEdge(const std::string& id, const std::string& at, const std::string& project,
                       const std::string& metadata) {
  return "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) VALUES ('" + id + "', " +
         at + ", " + project + ", '" + metadata + "')";
}

class DeclaredRollupTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db = std::make_unique<TestDatabase>("declared_rollup");
    ASSERT_EQ(RunLqe({"migrate", "--dsn", db->dsn()}).exit_code, 0);
    const CommandResult generated = RunLqe(
        {"generate", "--source", "edge", "--count", "4000", "--projects", "3", "--seed", "5"});
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    const CommandResult loaded =
        RunLqe({"load", "--dsn", db->dsn(), "--source", "edge", WriteTempFile(generated.out)});
    ASSERT_EQ(loaded.exit_code, 0) << loaded.err;
    // Stored before the rollup exists: the backfill must count them.
    pqxx::connection conn(db->dsn());
    pqxx::work tx(conn);
    tx.exec(InsertEdge("b1", "now() - interval '7 minutes'", "'default'",
                       R"({"request":{"method":"GET"},"response":{"status_code":503}})"));
    tx.exec(InsertEdge("b2", "now() - interval '7 minutes'", "NULL",
                       R"({"request":{"method":"GET"},"response":{"status_code":500}})"));
    tx.commit();
  }
  static void TearDownTestSuite() { db.reset(); }

  static CommandResult MigrateWith(const std::string& rollups_yaml) {
    return RunLqe({"migrate", "--dsn", db->dsn(), "--config",
                   WriteTempFile(ConfigWith(db->dsn(), rollups_yaml))});
  }

  static std::unique_ptr<TestDatabase> db;
};
std::unique_ptr<TestDatabase> DeclaredRollupTest::db;

TEST_F(DeclaredRollupTest, MigrateCreatesBackfillsAndReRunsChangeNothing) {
  const CommandResult first = MigrateWith(ExampleRollups());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("rollup created edge_status\n"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("rollups: 1 created, 0 rebuilt, 0 unchanged, 0 dropped\n"),
            std::string::npos)
      << first.out;
  pqxx::connection conn(db->dsn());
  const std::string digest = RollupDigest(conn, "rollup_edge_status");

  const CommandResult again = MigrateWith(ExampleRollups());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("rollups: 0 created, 0 rebuilt, 1 unchanged, 0 dropped\n"),
            std::string::npos)
      << again.out;
  EXPECT_EQ(RollupDigest(conn, "rollup_edge_status"), digest);

  // The backfill equals the aggregate of the raw table, event by event.
  pqxx::read_transaction tx(conn);
  EXPECT_EQ(tx.exec1("SELECT sum(requests) FROM logs.rollup_edge_status")[0].as<std::int64_t>(),
            tx.exec1("SELECT count(*) FROM logs.edge")[0].as<std::int64_t>());
  EXPECT_EQ(tx.exec1("SELECT sum(server_errors) FROM logs.rollup_edge_status WHERE project IS "
                     "NULL AND method = 'GET'")[0]
                .as<std::int64_t>(),
            1);
  EXPECT_EQ(tx.exec1("SELECT checksum = encode(sha256(convert_to(definition, 'UTF8')), 'hex') "
                     "FROM logs.rollups WHERE name = 'edge_status'")[0]
                .as<bool>(),
            true);
  // Described for \d+, visible to the gateway role, catalogued for the translator.
  EXPECT_EQ(tx.exec1("SELECT string_agg(a.attname || ': ' || col_description(a.attrelid, "
                     "a.attnum), '; ' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = "
                     "'logs.rollup_edge_status'::regclass AND a.attnum > 0")[0]
                .as<std::string>(),
            "timestamp: Start of the UTC minute.; project: Dimension: project of logs.edge.; "
            "method: Dimension: metadata.request.method of logs.edge.; requests: Events in the "
            "bucket.; server_errors: Events in the bucket where metadata.response.status_code >= "
            "500.; max_origin_time: Largest metadata.response.origin_time.");
  EXPECT_EQ(tx.exec_params1("SELECT has_table_privilege($1, 'logs.rollup_edge_status', 'SELECT')",
                            "lqe_gateway_" + db->name())[0]
                .as<bool>(),
            true);
  EXPECT_EQ(tx.exec1("SELECT string_agg(path || ':' || bq_type, ',' ORDER BY path) FROM "
                     "logs.field_catalogue WHERE source = 'rollup_edge_status'")[0]
                .as<std::string>(),
            "max_origin_time:INT64,method:STRING,project:STRING,requests:INT64,server_errors:"
            "INT64,timestamp:TIMESTAMP");
}

struct Prepared {
  std::string sql;
  std::vector<BoundParam> params;
};

Prepared TranslateWith(const Catalog& catalog, const std::string& relative) {
  TranslateOptions options;
  options.catalog = &catalog;
  for (const char* name :
       {"project", "iso_timestamp_start", "iso_timestamp_end", "granularity", "path"}) {
    options.params[name] = Type::Scalar(TypeKind::kString);
  }
  const TranslateResult result = Translate(ReadFileText(SourcePath(relative)), options);
  if (!result.ok()) throw std::runtime_error(relative + ": " + result.error().message);
  return {result.value().pg_sql, result.value().params};
}

std::vector<std::string> RunQuery(pqxx::work& tx, const Prepared& q,
                                  const std::map<std::string, std::string>& values) {
  std::vector<std::string> bound;
  for (const BoundParam& p : q.params) {
    const std::string& raw = values.at(p.name);
    bound.push_back(p.transform == ParamTransform::kRegexPattern ? ConvertRe2ToPosix(raw).pattern
                                                                 : raw);
  }
  std::vector<std::string> rows;
  for (const auto& row : tx.exec_params(q.sql, pqxx::prepare::make_dynamic_params(bound))) {
    std::string line;
    for (const auto& field : row) {
      line += std::string(field.is_null() ? "NULL" : field.c_str()) + '|';
    }
    rows.push_back(line);
  }
  return rows;
}

TEST_F(DeclaredRollupTest, EndpointEqualsTheRawQueryForEveryWindow) {
  ASSERT_EQ(MigrateWith(ExampleRollups()).exit_code, 0);
  pqxx::connection conn(db->dsn());
  {
    // After the rollup exists: awkward rows the trigger must count like the raw query reads them.
    pqxx::work tx(conn);
    tx.exec(InsertEdge("t1", "now() - interval '5 minutes'", "'default'", R"({"request":{}})"));
    tx.exec(InsertEdge("t2", "now() - interval '5 minutes'", "'default'",
                       R"({"response":{"status_code":"abc","origin_time":7}})"));
    tx.exec(InsertEdge("t3", "now() - interval '5 minutes'", "'default'",
                       R"({"request":{"method":"POST"},"response":{"status_code":"502"}})"));
    tx.exec(InsertEdge("t4", "date_trunc('minute', now() - interval '5 minutes')", "'default'",
                       R"({"request":{"method":"POST","path":"/rest/v1/x"}})"));
    tx.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", project) VALUES ('t5', now() - interval "
        "'4 minutes', 'default')");
    tx.commit();
  }
  std::vector<CatalogEntry> entries;
  {
    pqxx::read_transaction tx(conn);
    for (const auto& row :
         tx.exec("SELECT source, path, bq_type, mode FROM logs.field_catalogue")) {
      entries.push_back({row[0].as<std::string>(), row[1].as<std::string>(),
                         row[2].as<std::string>(), row[3].as<std::string>()});
    }
  }
  std::string error;
  const Catalog catalog = Catalog::FromEntries(entries, &error);
  ASSERT_EQ(error, "");
  const Prepared endpoint =
      TranslateWith(catalog, "examples/rollups/endpoints/edge.status-counts.sql");
  const Prepared raw = TranslateWith(catalog, "tests/fixtures/rollups/edge_status_raw.sql");
  ASSERT_NE(endpoint.sql.find("rollup_edge_status"), std::string::npos);

  pqxx::work tx(conn);
  const auto span = tx.exec1(
      "SELECT extract(epoch FROM min(\"timestamp\"))::bigint, "
      "extract(epoch FROM max(\"timestamp\"))::bigint + 1 FROM logs.edge");
  const long long first = span[0].as<long long>();
  const long long last = span[1].as<long long>();
  auto iso = [&](long long seconds, long long micros) {
    return tx
        .exec_params1(
            "SELECT to_char(to_timestamp($1::double precision) AT TIME ZONE 'UTC', "
            "'YYYY-MM-DD\"T\"HH24:MI:SS') || '.' || lpad($2::text, 6, '0') || 'Z'",
            seconds, micros)[0]
        .as<std::string>();
  };
  struct Window {
    long long start, start_us, end, end_us;
  };
  std::vector<Window> windows = {
      {first - 60, 0, last + 60, 0},                 // everything
      {first - first % 60, 0, last - last % 60, 0},  // whole minutes only
      {first + 61, 500000, first + 61, 900000},      // inside one minute
      {first + 59, 999999, first + 60, 1},           // across one minute boundary
      {last - 400, 123456, last - 200, 654321},      // the awkward rows' minutes
  };
  std::mt19937_64 rng(42);
  for (int i = 0; i < 14; ++i) {
    const long long start = first + static_cast<long long>(rng() % (last - first + 1));
    const long long length = static_cast<long long>(rng() % (i % 2 == 0 ? 600 : 86400));
    windows.push_back({start, static_cast<long long>(rng() % 1000000), start + length,
                       static_cast<long long>(rng() % 1000000)});
  }
  const std::vector<std::string> projects = [&] {
    std::vector<std::string> p = {".*", "^def", "(?i)DEFAULT", "x{0}", "no-such-project"};
    for (const auto& row : tx.exec("SELECT DISTINCT project FROM logs.edge WHERE project IS NOT "
                                   "NULL ORDER BY 1 LIMIT 3")) {
      p.push_back(row[0].as<std::string>());
    }
    return p;
  }();
  int compared = 0;
  int non_empty = 0;
  for (const Window& w : windows) {
    for (const std::string& project : projects) {
      for (const char* granularity : {"minute", "hour"}) {
        for (const char* path : {"", "/rest"}) {
          const std::map<std::string, std::string> values = {
              {"project", project},
              {"iso_timestamp_start", iso(w.start, w.start_us)},
              {"iso_timestamp_end", iso(w.end, w.end_us)},
              {"granularity", granularity},
              {"path", path}};
          const auto expected = RunQuery(tx, raw, values);
          EXPECT_EQ(RunQuery(tx, endpoint, values), expected)
              << values.at("iso_timestamp_start") << " .. " << values.at("iso_timestamp_end")
              << " project " << project << " " << granularity << " path '" << path << "'";
          ++compared;
          if (!expected.empty()) ++non_empty;
        }
      }
    }
  }
  EXPECT_EQ(compared, 19 * 8 * 4);
  EXPECT_GT(non_empty, compared / 3);  // the comparisons are not all of empty answers
}

TEST_F(DeclaredRollupTest, TwoConcurrentInsertersBothCount) {
  ASSERT_EQ(MigrateWith(ExampleRollups()).exit_code, 0);
  pqxx::connection first(db->dsn());
  pqxx::connection second(db->dsn());
  const std::string at = "date_trunc('minute', now()) - interval '30 seconds'";
  const std::string meta = R"({"request":{"method":"PATCH"},"response":{"status_code":500}})";
  pqxx::work one(first);
  one.exec(InsertEdge("c1", at, "'concurrent'", meta));
  // The second writer adds to the same rollup row: it waits for the first's row lock.
  std::thread other([&] {
    pqxx::work two(second);
    two.exec(InsertEdge("c2", at, "'concurrent'", meta));
    two.exec(InsertEdge("c3", at + " + interval '1 minute'", "'concurrent'", meta));
    two.commit();
  });
  one.exec(InsertEdge("c4", at + " + interval '1 minute'", "'concurrent'", meta));
  one.commit();
  other.join();
  pqxx::connection conn(db->dsn());
  {
    pqxx::read_transaction tx(conn);
    EXPECT_EQ(tx.exec1("SELECT string_agg(requests || '/' || server_errors, ',' ORDER BY "
                       "\"timestamp\") FROM logs.rollup_edge_status WHERE project = "
                       "'concurrent'")[0]
                  .as<std::string>(),
              "2/2,2/2");
  }
  const auto [digest, rebuilt] = DigestAndRebuilt(conn, "edge_status");
  EXPECT_EQ(digest, rebuilt);
}

TEST_F(DeclaredRollupTest, TheIngestRoleMaintainsItWithoutRightsOnIt) {
  ASSERT_EQ(MigrateWith(ExampleRollups()).exit_code, 0);
  pqxx::connection probe(db->dsn());
  pqxx::connection ingest("host=" + std::string(probe.hostname()) +
                          " port=" + std::string(probe.port()) + " user=lqe_ingest_" + db->name() +
                          " dbname=" + db->name());
  {
    pqxx::work tx(ingest);
    tx.exec(InsertEdge("i1", "now() - interval '2 minutes'", "'ingested'",
                       R"({"request":{"method":"GET"},"response":{"origin_time":41}})"));
    tx.commit();
  }
  {
    pqxx::work tx(ingest);
    try {
      tx.exec(
          "INSERT INTO logs.rollup_edge_status (\"timestamp\", requests, server_errors) "
          "VALUES (now(), 1, 0)");
      ADD_FAILURE() << "the ingest role wrote the rollup directly";
    } catch (const pqxx::insufficient_privilege& e) {
      EXPECT_NE(std::string(e.what()).find("permission denied for table rollup_edge_status"),
                std::string::npos)
          << e.what();
    }
  }
  pqxx::read_transaction tx(probe);
  EXPECT_EQ(tx.exec1("SELECT requests || '/' || max_origin_time FROM logs.rollup_edge_status "
                     "WHERE project = 'ingested'")[0]
                .as<std::string>(),
            "1/41");
}

TEST_F(DeclaredRollupTest, RetentionTrimsItWithTheBaseTable) {
  ASSERT_EQ(MigrateWith(ExampleRollups()).exit_code, 0);
  pqxx::connection conn(db->dsn());
  {
    pqxx::work tx(conn);
    tx.exec("SELECT logs.ensure_partition('edge', (now() AT TIME ZONE 'UTC')::date - 20)");
    tx.exec(InsertEdge("r1", "now() - interval '20 days'", "'old'", R"({"request":{}})"));
    tx.exec(InsertEdge("r2", "now() - interval '1 minute'", "'old'", R"({"request":{}})"));
    tx.commit();
  }
  const CommandResult kept = RunLqe({"retention", "--dsn", db->dsn(), "--days", "10"});
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  pqxx::read_transaction tx(conn);
  EXPECT_EQ(
      tx.exec1("SELECT count(*) FROM logs.rollup_edge_status WHERE project = 'old'")[0].as<int>(),
      1);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.rollup_edge_status WHERE \"timestamp\" < "
                     "(now() AT TIME ZONE 'UTC')::date - 10")[0]
                .as<int>(),
            0);
  EXPECT_EQ(tx.exec1("SELECT sum(requests) FROM logs.rollup_edge_status")[0].as<std::int64_t>(),
            tx.exec1("SELECT count(*) FROM logs.edge")[0].as<std::int64_t>());
}

TEST_F(DeclaredRollupTest, AConfigThatIsRefusedChangesNothing) {
  ASSERT_EQ(MigrateWith(ExampleRollups()).exit_code, 0);
  const CommandResult bad = MigrateWith(
      "rollups:\n"
      "  - name: edge_status\n"
      "    source: edge\n"
      "    bucket: fortnight\n"
      "    measures: [{name: n, agg: count}]\n"
      "  - {name: other, source: edge, measures: [{name: n, agg: avg}]}\n"
      "  - {name: third, source: edge, measures: [{name: n, agg: count, fields: x}]}\n");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find(":5: rollup edge_status: bucket 'fortnight' is not one of second, "
                         "minute, hour, day"),
            std::string::npos)
      << bad.err;
  EXPECT_NE(bad.err.find(":9: measure n: agg 'avg' is not one of count, countif, sum, min, max"),
            std::string::npos)
      << bad.err;
  EXPECT_NE(bad.err.find(":10: unknown key 'fields' in rollup measure; did you mean 'field'?"),
            std::string::npos)
      << bad.err;
  pqxx::connection conn(db->dsn());
  pqxx::read_transaction tx(conn);
  EXPECT_EQ(tx.exec1("SELECT string_agg(name, ',') FROM logs.rollups")[0].as<std::string>(),
            "edge_status");
}

// Lifecycle on a database of its own: changed, removed, refused against the catalogue.
class RollupLifecycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db = std::make_unique<TestDatabase>("rollup_lifecycle");
    ASSERT_EQ(RunLqe({"migrate", "--dsn", db->dsn()}).exit_code, 0);
    conn = std::make_unique<pqxx::connection>(db->dsn());
    pqxx::work tx(*conn);
    tx.exec(InsertEdge("l1", "now() - interval '3 minutes'", "'p'",
                       R"({"request":{"method":"GET"},"response":{"status_code":200,)"
                       R"("origin_time":5}})"));
    tx.exec(InsertEdge("l2", "now() - interval '3 minutes'", "'p'",
                       R"({"request":{"method":"GET"},"response":{"status_code":404,)"
                       R"("origin_time":9}})"));
    tx.commit();
  }

  static schema::RollupDef Counts() {
    schema::RollupDef def;
    def.name = "counts";
    def.source = "edge";
    def.dimensions = {{"project", "project"}};
    def.measures = {{"n", schema::RollupAgg::kCount, "", {}},
                    {"total_time", schema::RollupAgg::kSum, "metadata.response.origin_time", {}}};
    return def;
  }

  std::string Refusal(const schema::RollupDef& def) {
    try {
      schema::ApplyRollups(*conn, {def}, "lqe_gateway_" + db->name());
      return "";
    } catch (const schema::SchemaError& e) {
      return e.what();
    }
  }

  std::unique_ptr<TestDatabase> db;
  std::unique_ptr<pqxx::connection> conn;
};

TEST_F(RollupLifecycleTest, AChangedDefinitionIsRebuiltAndARemovedOneDropped) {
  const std::string role = "lqe_gateway_" + db->name();
  EXPECT_EQ(schema::ApplyRollups(*conn, {Counts()}, role).created,
            std::vector<std::string>{"counts"});
  {
    pqxx::read_transaction tx(*conn);
    EXPECT_EQ(
        tx.exec1("SELECT n || '/' || total_time FROM logs.rollup_counts")[0].as<std::string>(),
        "2/14");
  }
  schema::RollupDef changed = Counts();
  changed.bucket = "hour";
  changed.measures.push_back({"not_found",
                              schema::RollupAgg::kCountIf,
                              "",
                              {"metadata.response.status_code", "=", "404"}});
  const schema::RollupReport rebuilt = schema::ApplyRollups(*conn, {changed}, role);
  EXPECT_EQ(rebuilt.rebuilt, std::vector<std::string>{"counts"});
  {
    pqxx::read_transaction tx(*conn);
    EXPECT_EQ(tx.exec1("SELECT n || '/' || total_time || '/' || not_found || '/' || "
                       "(\"timestamp\" = date_trunc('hour', now() - interval '3 minutes', "
                       "'UTC')) FROM logs.rollup_counts")[0]
                  .as<std::string>(),
              "2/14/1/true");
  }
  // Not declared any more: the table, its trigger and its catalogue rows go; inserts still work.
  const schema::RollupReport removed = schema::ApplyRollups(*conn, {}, role);
  EXPECT_EQ(removed.dropped, std::vector<std::string>{"counts"});
  pqxx::work tx(*conn);
  tx.exec(InsertEdge("l3", "now()", "'p'", R"({"request":{}})"));
  EXPECT_EQ(tx.exec1("SELECT to_regclass('logs.rollup_counts') IS NULL AND NOT EXISTS (SELECT 1 "
                     "FROM pg_trigger WHERE tgname = 'rollup_counts') AND NOT EXISTS (SELECT 1 "
                     "FROM logs.field_catalogue WHERE source = 'rollup_counts') AND NOT EXISTS "
                     "(SELECT 1 FROM logs.rollups)")[0]
                .as<bool>(),
            true);
}

TEST_F(RollupLifecycleTest, DeclarationsTheCatalogueRefusesChangeNothing) {
  struct Case {
    void (*change)(schema::RollupDef&);
    const char* message;
  };
  const Case cases[] = {
      {[](schema::RollupDef& d) { d.dimensions[0].field = "metadata.request.verb"; },
       "rollup counts: dimension project: field 'metadata.request.verb' is not in the catalogue "
       "of edge"},
      {[](schema::RollupDef& d) { d.dimensions[0].field = "metadata.request"; },
       "rollup counts: dimension project: field 'metadata.request' is typed RECORD, not STRING, "
       "INT64, FLOAT64 or BOOL"},
      {[](schema::RollupDef& d) {
         d.dimensions[0].field = "metadata.request.cf.botManagement.detectionIds";
       },
       "rollup counts: dimension project: field 'metadata.request.cf.botManagement.detectionIds' "
       "is REPEATED; only a single value can be rolled up"},
      {[](schema::RollupDef& d) { d.measures[1].field = "metadata.request.method"; },
       "rollup counts: measure total_time: sum needs an INT64 field, 'metadata.request.method' is "
       "STRING (a FLOAT64 sum depends on the order of addition; use min or max)"},
      {[](schema::RollupDef& d) {
         d.measures[1] = {"m", schema::RollupAgg::kMax, "metadata.request.method", {}};
       },
       "rollup counts: measure m: min and max need an INT64 or FLOAT64 field, "
       "'metadata.request.method' is STRING"},
      {[](schema::RollupDef& d) {
         d.measures[1] = {
             "m", schema::RollupAgg::kCountIf, "", {"metadata.response.status_code", ">", "5x"}};
       },
       "rollup counts: measure m: value '5x' is not an INT64"},
      {[](schema::RollupDef& d) {
         d.measures[1] = {"m",
                          schema::RollupAgg::kCountIf,
                          "",
                          {"metadata.request.cf.botManagement.verifiedBot", "=", "yes"}};
       },
       "rollup counts: measure m: value 'yes' is not a BOOL (true or false)"},
  };
  for (const Case& c : cases) {
    schema::RollupDef def = Counts();
    c.change(def);
    EXPECT_EQ(Refusal(def), c.message);
  }
  // Two declarations of one name, and a table of that name made by hand.
  EXPECT_EQ(Refusal(Counts()), "");
  try {
    schema::ApplyRollups(*conn, {Counts(), Counts()}, "x");
    ADD_FAILURE() << "a name declared twice was applied";
  } catch (const schema::SchemaError& e) {
    EXPECT_EQ(std::string(e.what()), "rollup counts: declared twice");
  }
  {
    pqxx::work tx(*conn);
    tx.exec("CREATE TABLE logs.rollup_mine (x int)");
    tx.commit();
  }
  schema::RollupDef mine = Counts();
  mine.name = "mine";
  try {
    schema::ApplyRollups(*conn, {Counts(), mine}, "x");
    ADD_FAILURE() << "a hand-made table was replaced";
  } catch (const schema::SchemaError& e) {
    EXPECT_EQ(std::string(e.what()),
              "rollup mine: logs.rollup_mine exists but is not registered in logs.rollups; drop "
              "it first");
  }
  pqxx::read_transaction tx(*conn);
  EXPECT_EQ(tx.exec1("SELECT string_agg(name, ',') FROM logs.rollups")[0].as<std::string>(),
            "counts");
}

}  // namespace
}  // namespace lqe::testing
