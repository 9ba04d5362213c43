// The bq.* helper functions of 009_bq_core.sql, called directly on the real cluster. Expected
// values follow BigQuery's documented SAFE_CAST, OFFSET and APPROX_QUANTILES semantics.
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "sqllogic/migrations.h"
#include "support/test_database.h"

namespace {

struct Case {
  std::string expr;      // SQL expression
  std::string expected;  // its text value, "NULL" for SQL NULL
};

const std::vector<Case> kCases = {
    {"bq.safe_cast_int64(' 42 ')", "42"},
    {"bq.safe_cast_int64('-0x10')", "-16"},
    {"bq.safe_cast_int64('0x7FFFFFFFFFFFFFFF')", "9223372036854775807"},
    {"bq.safe_cast_int64('0x8000000000000000')", "NULL"},
    {"bq.safe_cast_int64('-9223372036854775808')", "-9223372036854775808"},
    {"bq.safe_cast_int64('9223372036854775808')", "NULL"},
    {"bq.safe_cast_int64('1.5')", "NULL"},
    {"bq.safe_cast_int64('abc')", "NULL"},
    {"bq.safe_cast_int64('')", "NULL"},
    {"bq.safe_cast_int64(NULL)", "NULL"},
    {"bq.safe_cast_float64('1.5e3')", "1500"},
    {"bq.safe_cast_float64('.5')", "0.5"},
    {"bq.safe_cast_float64('-inf')", "-Infinity"},
    {"bq.safe_cast_float64('NaN')", "NaN"},
    {"bq.safe_cast_float64('1e400')", "NULL"},
    {"bq.safe_cast_float64('1,5')", "NULL"},
    {"bq.safe_cast_numeric('12')", "12"},
    {"bq.safe_cast_numeric('-3.25')", "-3.25"},
    {"bq.safe_cast_numeric('1.1234567895')", "1.12345679"},
    {"bq.safe_cast_numeric('1e29')", "NULL"},
    {"bq.safe_cast_numeric('twelve')", "NULL"},
    {"bq.safe_cast_bool('TRUE')", "true"},
    {"bq.safe_cast_bool('False')", "false"},
    {"bq.safe_cast_bool('1')", "NULL"},
    {"bq.safe_cast_bool('yes')", "NULL"},
    {"bq.safe_cast_date('2024-2-29')", "2024-02-29"},
    {"bq.safe_cast_date('2023-02-29')", "NULL"},
    {"bq.safe_cast_date('0000-01-01')", "NULL"},
    {"bq.safe_cast_date('2024-13-01')", "NULL"},
    {"bq.safe_cast_date('15/01/2025')", "NULL"},
    {"bq.safe_cast_datetime('2025-01-15T11:00:05.123456')", "2025-01-15 11:00:05.123456"},
    {"bq.safe_cast_datetime('2025-01-15 11:00:05')", "2025-01-15 11:00:05"},
    {"bq.safe_cast_datetime('2025-01-15')", "2025-01-15 00:00:00"},
    {"bq.safe_cast_datetime('2025-01-15 24:00:00')", "NULL"},
    {"bq.safe_cast_datetime('2025-01-15T11:00:00Z')", "NULL"},
    {"bq.safe_cast_timestamp('2025-01-15T11:00:00.000Z')", "2025-01-15 11:00:00+00"},
    {"bq.safe_cast_timestamp('2025-01-15 11:00:00')", "2025-01-15 11:00:00+00"},
    {"bq.safe_cast_timestamp('2025-01-15 11:00:00+05:30')", "2025-01-15 05:30:00+00"},
    {"bq.safe_cast_timestamp('2025-01-15 11:00:00-8')", "2025-01-15 19:00:00+00"},
    {"bq.safe_cast_timestamp('2025-01-15 11:00:00 America/Los_Angeles')", "2025-01-15 19:00:00+00"},
    {"bq.safe_cast_timestamp('2025-01-15 11:00:00 UTC')", "2025-01-15 11:00:00+00"},
    {"bq.safe_cast_timestamp('2025-01-15 11:00:00 Mars/Base')", "NULL"},
    {"bq.safe_cast_timestamp('2025-01-15 11:00:00+15')", "NULL"},
    {"bq.safe_cast_timestamp('yesterday')", "NULL"},
    {"bq.safe_cast_timestamp('2025-01-15')", "2025-01-15 00:00:00+00"},
    {"bq.array_at(ARRAY[10,20,30], 0, false)", "10"},
    {"bq.array_at(ARRAY[10,20,30], 2, false)", "30"},
    {"bq.array_at(ARRAY[10,20,30], 3, true)", "NULL"},
    {"bq.array_at(ARRAY[10,20,30], -1, true)", "NULL"},
    {"bq.array_at(NULL::int[], 0, false)", "NULL"},
    {"bq.array_at('[5:6]={7,8}'::int[], 1, false)", "8"},
    {"bq.jsonb_at('[{\"a\":1},{\"a\":2}]', 1, false)", "{\"a\": 2}"},
    {"bq.jsonb_at('{\"a\":1}', 0, false)", "{\"a\": 1}"},
    {"bq.jsonb_at('{\"a\":1}', 1, true)", "NULL"},
    {"bq.jsonb_at('null', 0, false)", "NULL"},
    {"bq.quantile_fractions(4)", "{0,0.25,0.5,0.75,1}"},
    {"bq.quantile_fractions(1)", "{0,1}"},
    {"bq.try_jsonb('{\"a\":1}')", "{\"a\": 1}"},
    {"bq.try_jsonb('not json')", "NULL"},
    {"bq.try_jsonb(NULL)", "NULL"},
};

class BqFunctions : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new lqe::testing::TestDatabase("bqfn");
    lqe::sqllogic::ApplyMigrations(db_->dsn());
  }
  static void TearDownTestSuite() { delete db_; }
  static lqe::testing::TestDatabase* db_;
};

lqe::testing::TestDatabase* BqFunctions::db_ = nullptr;

TEST_F(BqFunctions, ReturnBigQueryValues) {
  pqxx::connection conn(db_->dsn());
  pqxx::nontransaction tx(conn);
  tx.exec("SET TimeZone = 'UTC'");
  for (const auto& c : kCases) {
    const auto field = tx.exec1("SELECT (" + c.expr + ")::text")[0];
    EXPECT_EQ(field.is_null() ? "NULL" : field.as<std::string>(), c.expected) << c.expr;
  }
}

TEST_F(BqFunctions, OffsetOutOfRangeRaisesBigQueryMessage) {
  pqxx::connection conn(db_->dsn());
  pqxx::nontransaction tx(conn);
  for (const std::string expr :
       {"bq.array_at(ARRAY[1,2], 2, false)", "bq.jsonb_at('{\"a\":1}', 2, false)"}) {
    try {
      tx.exec("SELECT " + expr);
      ADD_FAILURE() << expr << " did not raise";
    } catch (const pqxx::sql_error& e) {
      EXPECT_NE(std::string(e.what()).find("array index 2 is out of bounds"), std::string::npos)
          << e.what();
      EXPECT_EQ(e.sqlstate(), "2202E");
    }
  }
}

TEST_F(BqFunctions, QuantileCountMustBePositive) {
  pqxx::connection conn(db_->dsn());
  pqxx::nontransaction tx(conn);
  EXPECT_THROW(tx.exec("SELECT bq.quantile_fractions(0)"), pqxx::sql_error);
}

TEST_F(BqFunctions, GatewayRoleMayExecuteEveryBqFunction) {
  pqxx::connection conn(db_->dsn());
  pqxx::nontransaction tx(conn);
  for (const char* signature :
       {"bq.safe_cast_int64(text)", "bq.safe_cast_float64(text)", "bq.safe_cast_numeric(text)",
        "bq.safe_cast_bool(text)", "bq.safe_cast_date(text)", "bq.safe_cast_datetime(text)",
        "bq.safe_cast_timestamp(text)", "bq.array_at(anyarray, bigint, boolean)",
        "bq.jsonb_at(jsonb, bigint, boolean)", "bq.quantile_fractions(bigint)",
        "bq.try_jsonb(text)"}) {
    EXPECT_TRUE(tx.exec_params1("SELECT has_function_privilege('lqe_gateway', $1, 'EXECUTE')",
                                std::string(signature))[0]
                    .as<bool>())
        << signature;
  }
  const auto row = tx.exec1(
      "SELECT bool_and(has_function_privilege('lqe_gateway', p.oid, 'EXECUTE')), "
      "       has_schema_privilege('lqe_gateway', 'bq', 'USAGE'), "
      "       has_schema_privilege('lqe_gateway', 'bq', 'CREATE') "
      "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'bq'");
  EXPECT_TRUE(row[0].as<bool>());
  EXPECT_TRUE(row[1].as<bool>());
  EXPECT_FALSE(row[2].as<bool>());
}

TEST_F(BqFunctions, VolatilityAndParallelSafetyAreDeclared) {
  pqxx::connection conn(db_->dsn());
  pqxx::nontransaction tx(conn);
  // try_jsonb needs an exception block, which PostgreSQL refuses in parallel mode.
  const auto result = tx.exec(
      "SELECT p.proname, p.provolatile, p.proparallel FROM pg_proc p "
      "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'bq' AND p.proname IN "
      "('safe_cast_int64', 'safe_cast_timestamp', 'array_at', 'try_jsonb') ORDER BY 1");
  std::vector<std::string> got;
  for (const auto& r : result) {
    got.push_back(r[0].as<std::string>() + " " + r[1].as<std::string>() + " " +
                  r[2].as<std::string>());
  }
  EXPECT_EQ(got, (std::vector<std::string>{"array_at i s", "safe_cast_int64 i s",
                                           "safe_cast_timestamp s s", "try_jsonb i u"}));
}

TEST_F(BqFunctions, SafeCastsRunInsideParallelQueries) {
  // An exception block would fail with "cannot start subtransactions during a parallel
  // operation"; the guards keep these PARALLEL SAFE for real.
  pqxx::connection conn(db_->dsn());
  pqxx::work tx(conn);
  tx.exec("SET LOCAL force_parallel_mode = on");
  const auto row = tx.exec1(
      "SELECT count(bq.safe_cast_int64(g::text)), count(bq.safe_cast_timestamp('2025-01-0' || "
      "(g % 9 + 1) || ' 10:00:00Z')), count(bq.safe_cast_float64('x' || g)) "
      "FROM generate_series(1, 1000) g");
  EXPECT_EQ(row[0].as<int>(), 1000);
  EXPECT_EQ(row[1].as<int>(), 1000);
  EXPECT_EQ(row[2].as<int>(), 0);
}

}  // namespace
