// Promoted fields (migrations 021, 023): lqe migrate indexes the declared fields on exactly the
// expression the translator emits, so an unchanged consumer query's filter is an index condition;
// a declaration that cannot be promoted (a record, or a field inside a REPEATED nested record,
// which is read through a join) fails the migrate with its reason.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "lqe/catalog.h"
#include "lqe/translate.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

std::string TranslateQuery(const std::string& bq_sql) {
  std::string error;
  static const Catalog catalog = Catalog::FromEntries(
      Catalog::ParseTsv(ReadFileText(SourcePath("schema/catalogue_seed.tsv")), &error), &error);
  TranslateOptions options;
  options.catalog = &catalog;
  const TranslateResult result = Translate(bq_sql, options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return result.value().pg_sql;
}

class PromotedFieldsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const CommandResult migrated = RunLqe({"migrate", "--dsn", db_.dsn()});
    ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    tx.exec(
        "INSERT INTO logs.auth (id, \"timestamp\", project, metadata) "
        "SELECT 'a' || i, now() - i * interval '1 second', 'p' || (i % 3), "
        "jsonb_build_object('status', CASE WHEN i % 50 = 0 THEN 503 ELSE 200 END, 'level', "
        "'info') FROM generate_series(1, 3000) i");
    tx.exec("ANALYZE logs.auth");
    tx.commit();
  }

  TestDatabase db_{"promoted"};
};

TEST_F(PromotedFieldsTest, MigrateIndexesTheDeclaredFields) {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  EXPECT_EQ(tx.exec1("SELECT string_agg(path || ' ' || bq_type || ' ' || (index_name IS NOT NULL), "
                     "', ' ORDER BY path) FROM logs.promoted_fields")[0]
                .as<std::string>(),
            "metadata.status INT64 true");
}

TEST_F(PromotedFieldsTest, AConsumerFilterOnAPromotedFieldIsAnIndexCondition) {
  // Studio's shape: the one-element metadata record unnested, its field read on the row.
  const std::string sql = TranslateQuery(
      "select t.id from `logs.auth` as t cross join unnest(t.metadata) as m where t.project = "
      "'p1' and m.status >= 500 order by t.timestamp desc");
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  const auto plain = tx.exec(sql);
  EXPECT_EQ(plain.size(), 20u);  // every 50th of 3000 rows, a third of them p1
  tx.exec("SET LOCAL enable_seqscan = off");
  std::string plan;
  for (const auto& row : tx.exec("EXPLAIN " + sql)) plan += row[0].as<std::string>() + '\n';
  // The partitions' copies of the promoted index are named by Postgres after its columns.
  EXPECT_NE(plan.find("Index Scan on auth_p"), std::string::npos) << plan;
  EXPECT_NE(plan.find("_project_json_int64_timestamp_idx"), std::string::npos) << plan;
  // bq.json_int64 is inlined: its body is what the plan shows.
  EXPECT_NE(plan.find("Index Cond: ((project = 'p1'::text) AND (CASE WHEN ((metadata ->> "
                      "'status'::text) ~"),
            std::string::npos)
      << plan;
  EXPECT_EQ(tx.exec(sql).size(), plain.size());
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

TEST_F(PromotedFieldsTest, AFieldInsideANestedRecordFailsTheMigrate) {
  {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    tx.exec(
        "INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES "
        "('edge', 'metadata.response.status_code', 'INT64')");
    tx.commit();
  }
  const CommandResult migrated = RunLqe({"migrate", "--dsn", db_.dsn()});
  EXPECT_EQ(migrated.exit_code, 1);
  EXPECT_NE(migrated.err.find("promoted field metadata.response.status_code lies inside a nested "
                              "record, which is REPEATED and read through UNNEST: only a field "
                              "directly under metadata can be promoted"),
            std::string::npos)
      << migrated.err;
}

}  // namespace
}  // namespace lqe::testing
