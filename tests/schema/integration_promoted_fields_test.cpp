// Promoted fields (008_promoted_fields.sql): lqe migrate gives each declared field a typed column
// filled by a trigger and backfilled partition by partition, indexed (project, column,
// timestamp); once backfilled the translator reads the column, with exactly the jsonb read's
// values, so an unchanged consumer query's filter is an index condition. A declaration that
// cannot be promoted (a record) fails the migrate. Fields inside nested records:
// integration_promoted_nested_test.cpp.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "lqe/catalog.h"
#include "lqe/translate.h"
#include "promoted_catalog.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

std::string TranslateWith(const Catalog& catalog, const std::string& bq_sql) {
  TranslateOptions options;
  options.catalog = &catalog;
  const TranslateResult result = Translate(bq_sql, options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return result.value().pg_sql;
}

std::string Rows(pqxx::work& tx, const std::string& sql) {
  std::string out;
  for (const auto& row : tx.exec(sql)) {
    for (const auto& field : row) {
      out += (field.is_null() ? "NULL" : field.c_str()) + std::string("|");
    }
    out += '\n';
  }
  return out;
}

// Status values that read as INT64 differently or not at all: quoted, fractional, exponent,
// out of range, booleans, objects, JSON null, absent.
constexpr const char* kTrickyStatuses[] = {
    "503",       "\"503\"", "500.0",   "5e2",  "\"5e2\"", "503.5",      "99999999999999999999",
    "-1",        "true",    "\"abc\"", "null", "[503]",   "{\"a\": 1}", "\" 503\"",
    "\"0x1F7\"", "1e400"};

class PromotedFieldsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const CommandResult migrated = RunLqe({"migrate", "--dsn", db_.dsn()});
    ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
    EXPECT_NE(migrated.out.find("promoted column auth.p_status\n"), std::string::npos)
        << migrated.out;
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    tx.exec(
        "INSERT INTO logs.auth (id, \"timestamp\", project, metadata) "
        "SELECT 'a' || i, now() - i * interval '1 second', 'p' || (i % 3), "
        "jsonb_build_object('status', CASE WHEN i % 50 = 0 THEN 503 ELSE 200 END, 'level', "
        "'info') FROM generate_series(1, 3000) i");
    int i = 0;
    for (const char* status : kTrickyStatuses) {
      const std::string id = "t" + std::to_string(i++);
      tx.exec("INSERT INTO logs.auth (id, \"timestamp\", project, metadata) VALUES ('" + id +
              "', now() - interval '" + std::to_string(i) +
              " minutes', 'p1', '{\"status\": " + status + ", \"level\": " + status + "}')");
    }
    tx.exec(
        "INSERT INTO logs.auth (id, \"timestamp\", project, metadata) "
        "VALUES ('absent', now(), 'p1', '{}')");
    tx.exec("ANALYZE logs.auth");
    tx.commit();
  }

  TestDatabase db_{"promoted"};
};

TEST_F(PromotedFieldsTest, MigrateAddsATypedColumnWithItsIndexAndTrigger) {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  EXPECT_EQ(tx.exec1("SELECT string_agg(path || ' ' || bq_type || ' ' || column_name || ' ' || "
                     "backfilled || ' ' || (index_name IS NULL), ', ' ORDER BY path) "
                     "FROM logs.promoted_fields")[0]
                .as<std::string>(),
            "metadata.status INT64 p_status true true");
  EXPECT_EQ(tx.exec1("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                     "WHERE attrelid = 'logs.auth'::regclass AND attname = 'p_status'")[0]
                .as<std::string>(),
            "bigint");
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_indexes WHERE schemaname = 'logs' AND "
                     "tablename = 'auth' AND indexdef LIKE '%(project, p_status, \"timestamp\" "
                     "DESC)'")[0]
                .as<int>(),
            1);
  // The field's expression index is gone: no query reads that expression any more.
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_indexes WHERE tablename = 'auth' AND indexdef "
                     "LIKE '%json_int64%'")[0]
                .as<int>(),
            0);
}

TEST_F(PromotedFieldsTest, TheColumnHoldsExactlyTheJsonbReadOnTrickyValues) {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.auth WHERE p_status IS DISTINCT FROM "
                     "bq.json_int64(metadata ->> 'status')")[0]
                .as<int>(),
            0);
  EXPECT_EQ(Rows(tx,
                 "SELECT id, p_status FROM logs.auth WHERE id IN ('t0', 't1', 't3', 't4', "
                 "'t6', 't8', 't10') ORDER BY id"),
            "t0|503|\nt1|503|\nt10|NULL|\nt3|500|\nt4|NULL|\nt6|NULL|\nt8|NULL|\n");
  // An UPDATE of metadata (by hand) refills the column.
  tx.exec("UPDATE logs.auth SET metadata = '{\"status\": 404}' WHERE id = 't0'");
  EXPECT_EQ(tx.exec1("SELECT p_status FROM logs.auth WHERE id = 't0'")[0].as<int>(), 404);
}

TEST_F(PromotedFieldsTest, ANewDeclarationIsBackfilledResumablyAndIdempotently) {
  {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    tx.exec("SELECT logs.ensure_partition('auth', (now() - interval '3 days')::date)");
    tx.exec(
        "INSERT INTO logs.auth (id, \"timestamp\", project, metadata) VALUES "
        "('old', now() - interval '3 days', 'p1', '{\"level\": \"warn\"}')");
    tx.exec(
        "INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES "
        "('auth', 'metadata.level', 'STRING')");
    tx.exec("SELECT logs.promote_field_columns()");
    tx.commit();
  }
  {
    // A run stopped after its first partition: that one is recorded and not redone.
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    EXPECT_FALSE(tx.exec1("SELECT logs.backfill_promoted_partition()")[0].is_null());
    tx.commit();
  }
  const CommandResult resumed = RunLqe({"migrate", "--dsn", db_.dsn()});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("backfilled promoted columns of auth_p"), std::string::npos)
      << resumed.out;
  EXPECT_EQ(resumed.out.find("promoted column auth."), std::string::npos) << resumed.out;
  const CommandResult again = RunLqe({"migrate", "--dsn", db_.dsn()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out.find("backfilled"), std::string::npos) << again.out;

  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.auth WHERE p_level IS DISTINCT FROM "
                     "(metadata ->> 'level')")[0]
                .as<int>(),
            0);
  EXPECT_EQ(tx.exec1("SELECT p_level FROM logs.auth WHERE id = 'old'")[0].as<std::string>(),
            "warn");
  EXPECT_EQ(tx.exec1("SELECT backfilled FROM logs.promoted_fields WHERE path = "
                     "'metadata.level'")[0]
                .as<bool>(),
            true);
  // Each partition was filled once per column.
  EXPECT_EQ(tx.exec1("SELECT count(*) = count(DISTINCT (partition_name, column_name)) "
                     "FROM logs.promoted_backfill")[0]
                .as<bool>(),
            true);
}

TEST_F(PromotedFieldsTest, TheTranslatorReadsTheColumnAndItsIndex) {
  const std::string query =
      "select t.id from `logs.auth` as t cross join unnest(t.metadata) as m where t.project = "
      "'p1' and m.status >= 500 order by t.timestamp desc";
  const Catalog promoted = LoadCatalog(db_.dsn());
  const std::string sql = TranslateWith(promoted, query);
  EXPECT_NE(sql.find("t.p_status >= 500"), std::string::npos) << sql;
  EXPECT_EQ(sql.find("metadata"), std::string::npos) << sql;
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  tx.exec("SET LOCAL enable_seqscan = off");
  std::string plan;
  for (const auto& row : tx.exec("EXPLAIN " + sql)) plan += row[0].as<std::string>() + '\n';
  EXPECT_NE(plan.find("_project_p_status_timestamp_idx"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Index Cond: ((project = 'p1'::text) AND (p_status >= 500))"),
            std::string::npos)
      << plan;
}

TEST_F(PromotedFieldsTest, ResultsAreTheSameWithAndWithoutTheColumn) {
  const Catalog plain = LoadCatalog("");
  const Catalog promoted = LoadCatalog(db_.dsn());
  const char* queries[] = {
      "select t.id, m.status from `logs.auth` as t cross join unnest(t.metadata) as m "
      "where m.status >= 500 order by t.id",
      "select t.id from `logs.auth` t cross join unnest(t.metadata) m where m.status = 503 "
      "order by t.id",
      "select t.id from `logs.auth` t cross join unnest(t.metadata) m where m.status is null "
      "order by t.id",
      "select m.status, count(*) as n from `logs.auth` t cross join unnest(t.metadata) m "
      "group by m.status order by m.status",
      "select t.id, t.metadata[offset(0)].status as s from `logs.auth` t where t.project = 'p1' "
      "order by t.id",
      "select to_json_string(t) as j from `logs.auth` t where t.id = 't1'",
  };
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  for (const char* query : queries) {
    const std::string with = TranslateWith(promoted, query);
    // A row used as a value is built from the catalogued columns either way (no p_* keys).
    if (std::string(query).find("status") != std::string::npos) {
      EXPECT_NE(with, TranslateWith(plain, query)) << query;
    }
    EXPECT_EQ(Rows(tx, with), Rows(tx, TranslateWith(plain, query))) << query;
  }
  EXPECT_EQ(Rows(tx, TranslateWith(promoted, queries[0])).find("p_status"), std::string::npos);
}

TEST_F(PromotedFieldsTest, TheIngestRoleWritesThroughTheTrigger) {
  pqxx::connection probe(db_.dsn());
  pqxx::connection conn("host=" + std::string(probe.hostname()) +
                        " port=" + std::string(probe.port()) + " user=lqe_ingest_" + db_.name() +
                        " dbname=" + db_.name());
  pqxx::work tx(conn);
  tx.exec(
      "INSERT INTO logs.auth (id, \"timestamp\", project, metadata) VALUES "
      "('by-ingest', now(), 'p2', '{\"status\": \"429\"}')");
  tx.commit();
  pqxx::work check(probe);
  EXPECT_EQ(check.exec1("SELECT p_status FROM logs.auth WHERE id = 'by-ingest'")[0].as<int>(), 429);
}

TEST_F(PromotedFieldsTest, AFieldThatCannotBePromotedFailsTheMigrate) {
  {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    tx.exec(
        "INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES "
        "('edge', 'metadata.request', 'RECORD')");
    tx.commit();
  }
  const CommandResult migrated = RunLqe({"migrate", "--dsn", db_.dsn()});
  EXPECT_EQ(migrated.exit_code, 1);
  EXPECT_NE(migrated.err.find(
                "promoted field metadata.request is typed RECORD, not STRING, INT64, FLOAT64 or "
                "BOOL"),
            std::string::npos)
      << migrated.err;
}

}  // namespace
}  // namespace lqe::testing
