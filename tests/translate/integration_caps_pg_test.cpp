// The translator's size caps and its ORDER BY collation on the real cluster: arguments only known
// at run time reach the bq.* helpers of 009_bq_core.sql, which raise SQLSTATE 22023 (a 400 through
// the gateway) over a cap and return the plain PostgreSQL result below it; SELECT DISTINCT and
// STRING_AGG(DISTINCT ...) ordered by a STRING run and sort byte-wise, as in BigQuery.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>

#include "lqe/schema/migrate.h"
#include "lqe/translate.h"
#include "support/test_database.h"

namespace lqe {
namespace {

class CapsOnPostgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_db = new testing::TestDatabase("translate_caps");
    pqxx::connection conn(shared_db->dsn());
    schema::Migrate(conn, schema::MigrateOptions{});
    pqxx::work w(conn);
    w.exec(
        "INSERT INTO logs.edge (id, timestamp, event_message, project, metadata) VALUES "
        "('b', now(), 'GET', 'p', '{}'), ('B', now(), 'GET', 'p', '{}'), "
        "('a', now(), 'GET', 'p', '{}'), "
        "('a', now() - interval '1 second', 'GET', 'p', '{}')");
    w.commit();
    std::string error;
    shared_catalog = new Catalog(Catalog::FromEntries(
        Catalog::ParseTsv(testing::ReadFileText(testing::SourcePath("schema/catalogue_seed.tsv")),
                          &error),
        &error));
  }
  static void TearDownTestSuite() {
    delete shared_catalog;
    delete shared_db;
  }

  // Translates `sql` with one INT64 parameter @n and runs it with n = `n`.
  static pqxx::result Run(const std::string& sql, const std::string& n) {
    TranslateOptions options;
    options.catalog = shared_catalog;
    options.params = {{"n", Type::Scalar(TypeKind::kInt64)}};
    const TranslateResult t = Translate(sql, options);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    if (!t.ok()) return {};
    pqxx::connection conn(shared_db->dsn());
    pqxx::work w(conn);
    if (t.value().params.empty()) return w.exec(t.value().pg_sql);
    return w.exec_params(t.value().pg_sql, n);
  }

  // The SQLSTATE and message the query raises, or "" when it runs.
  static std::string Raises(const std::string& sql, const std::string& n) {
    try {
      Run(sql, n);
    } catch (const pqxx::sql_error& e) {
      std::string what = e.what();
      if (const auto nl = what.find('\n'); nl != std::string::npos) what.resize(nl);
      return e.sqlstate() + " " + what;
    }
    return "";
  }

  static testing::TestDatabase* shared_db;
  static Catalog* shared_catalog;
};

testing::TestDatabase* CapsOnPostgres::shared_db = nullptr;
Catalog* CapsOnPostgres::shared_catalog = nullptr;

TEST_F(CapsOnPostgres, RepeatOverTheCapIsADataException) {
  EXPECT_EQ(Raises("select repeat('ab', @n) as r", "524289"),
            "22023 ERROR:  REPEAT result would exceed the limit of 1048576 bytes");
  const pqxx::result ok = Run("select repeat('ab', @n) as r", "3");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0].as<std::string>(), "ababab");
  EXPECT_EQ(Run("select length(repeat('ab', @n)) as r", "524288")[0][0].as<long>(), 1048576);
}

TEST_F(CapsOnPostgres, PadOverTheCapIsADataException) {
  EXPECT_EQ(Raises("select lpad('x', @n) as r", "1048577"),
            "22023 ERROR:  LPAD length must be at most 1048576 characters");
  EXPECT_EQ(Raises("select rpad('x', @n, '-') as r", "2000000000"),
            "22023 ERROR:  RPAD length must be at most 1048576 characters");
  EXPECT_EQ(Run("select lpad('x', @n, '0') as r", "4")[0][0].as<std::string>(), "000x");
  EXPECT_EQ(Run("select rpad('x', @n) as r", "3")[0][0].as<std::string>(), "x  ");
}

TEST_F(CapsOnPostgres, GeneratedArraysOverTheCapAreADataException) {
  EXPECT_EQ(Raises("select generate_array(1, @n) as a", "200000000"),
            "22023 ERROR:  GENERATE_ARRAY would produce more than 1000000 elements");
  EXPECT_EQ(Raises("select generate_array(0.5, @n, 0.5) as a", "1000000"),
            "22023 ERROR:  GENERATE_ARRAY would produce more than 1000000 elements");
  EXPECT_EQ(Raises("select generate_date_array(date '2000-01-01', "
                   "date_add(date '2000-01-01', interval @n day)) as a",
                   "1000000"),
            "22023 ERROR:  GENERATE_DATE_ARRAY would produce more than 1000000 elements");
  EXPECT_EQ(Raises("select generate_timestamp_array(timestamp '2024-01-01', "
                   "timestamp_add(timestamp '2024-01-01', interval @n second), "
                   "interval 1 second) as a",
                   "1000000"),
            "22023 ERROR:  GENERATE_TIMESTAMP_ARRAY would produce more than 1000000 elements");
}

TEST_F(CapsOnPostgres, GeneratedArraysAtTheCapRun) {
  EXPECT_EQ(Run("select array_length(generate_array(1, @n)) as n", "1000000")[0][0].as<long>(),
            1000000);
  EXPECT_EQ(
      Run("select to_json_string(generate_array(1.5, @n, 0.5)) as a", "3")[0][0].as<std::string>(),
      "[1.5,2,2.5,3]");
  EXPECT_EQ(Run("select to_json_string(generate_date_array(date '2024-01-30', "
                "date_add(date '2024-01-30', interval @n day))) as a",
                "2")[0][0]
                .as<std::string>(),
            "[\"2024-01-30\",\"2024-01-31\",\"2024-02-01\"]");
  EXPECT_EQ(Run("select array_length(generate_timestamp_array(timestamp '2024-01-01', "
                "timestamp_add(timestamp '2024-01-01', interval @n hour), interval 1 hour)) as n",
                "23")[0][0]
                .as<long>(),
            24);
}

TEST_F(CapsOnPostgres, SelectDistinctOrderedByAStringRunsAndSortsByteWise) {
  const pqxx::result r = Run("select distinct t.id from logs.edge t order by t.id", "0");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0][0].as<std::string>(), "B");
  EXPECT_EQ(r[1][0].as<std::string>(), "a");
  EXPECT_EQ(r[2][0].as<std::string>(), "b");
  const pqxx::result aliased =
      Run("select distinct t.id as s from logs.edge t order by s desc", "0");
  ASSERT_EQ(aliased.size(), 3u);
  EXPECT_EQ(aliased[0][0].as<std::string>(), "b");
  EXPECT_EQ(aliased[2][0].as<std::string>(), "B");
}

TEST_F(CapsOnPostgres, StringAggDistinctOrderedRunsAndSortsByteWise) {
  EXPECT_EQ(
      Run("select string_agg(distinct t.id, ',' order by t.id) as s from logs.edge t", "0")[0][0]
          .as<std::string>(),
      "B,a,b");
  EXPECT_EQ(Run("select to_json_string(array_agg(distinct t.id order by t.id desc)) as s "
                "from logs.edge t",
                "0")[0][0]
                .as<std::string>(),
            "[\"b\",\"a\",\"B\"]");
}

}  // namespace
}  // namespace lqe
