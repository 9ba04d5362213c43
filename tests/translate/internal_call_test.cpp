// Internal calls (functions/internal_call.h) are made by the ClickHouse front end only: a
// sandboxed ClickHouse caller's JSONExtractRaw passes the sandbox, and query text cannot name one.
#include <gtest/gtest.h>

#include <string>

#include "lqe/translate.h"

namespace lqe {
namespace {

const Catalog& EmptyCatalog() {
  static const Catalog catalog = [] {
    std::string error;
    return Catalog::FromEntries({{"edge", "id", "STRING"}}, &error);
  }();
  return catalog;
}

TranslateResult Sandboxed(SqlDialect dialect, ConsumerQuery::Language language,
                          const std::string& stored, const std::string& consumer) {
  TranslateOptions options;
  options.catalog = &EmptyCatalog();
  options.dialect = dialect;
  options.consumer = ConsumerQuery{language, consumer};
  return Translate(stored, options);
}

TEST(InternalCall, ASandboxedClickHouseCallerMayUseJsonExtractRaw) {
  const TranslateResult r =
      Sandboxed(SqlDialect::kClickHouse, ConsumerQuery::Language::kClickHouseSql,
                "WITH logs AS (SELECT * FROM logs) SELECT id FROM logs",
                "SELECT JSONExtractRaw(event_message, 'a') AS a FROM logs");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NE(r.value().pg_sql.find("AS json) #> '{\"a\"}'"), std::string::npos) << r.value().pg_sql;
}

TEST(InternalCall, QueryTextCannotNameOne) {
  const TranslateResult sandboxed =
      Sandboxed(SqlDialect::kBigQuery, ConsumerQuery::Language::kSql,
                "with a as (select id from logs.edge) select id from a",
                "select `lqe:JSONExtractRaw`(id, 'a') as x from a");
  ASSERT_FALSE(sandboxed.ok());
  EXPECT_NE(sandboxed.error().message.find("is not allowed here"), std::string::npos)
      << sandboxed.error().message;
  TranslateOptions options;
  options.catalog = &EmptyCatalog();
  const TranslateResult direct =
      Translate("select `lqe:JSONExtractRaw`(id, 'a') as x from logs.edge", options);
  ASSERT_FALSE(direct.ok());
  EXPECT_NE(direct.error().message.find("unsupported function"), std::string::npos)
      << direct.error().message;
}

}  // namespace
}  // namespace lqe
