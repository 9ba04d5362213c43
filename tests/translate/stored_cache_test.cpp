// The façade reuses a stored query's translated WITH across consumer queries; it must never
// serve one translated against a different catalogue.
#include <gtest/gtest.h>

#include "lqe/translate.h"

namespace lqe {
namespace {

Catalog MakeCatalog(const std::string& path_type) {
  std::string error;
  Catalog c = Catalog::FromEntries({{"edge", "id", "STRING"},
                                    {"edge", "timestamp", "TIMESTAMP"},
                                    {"edge", "metadata", "RECORD"},
                                    {"edge", "metadata.request", "RECORD"},
                                    {"edge", "metadata.request.path", path_type}},
                                   &error);
  EXPECT_EQ(error, "");
  return c;
}

TranslateResult Sandboxed(const Catalog& catalog, const std::string& consumer) {
  TranslateOptions options;
  options.catalog = &catalog;
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, consumer};
  return Translate(
      "with a as (select t.metadata.request.path as p from logs.edge t) select p from a", options);
}

TEST(StoredWithCache, SecondConsumerGetsTheSameStoredTranslation) {
  const Catalog catalog = MakeCatalog("STRING");
  const TranslateResult first = Sandboxed(catalog, "select p from a");
  const TranslateResult second = Sandboxed(catalog, "select count(*) as n from a");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first.value().pg_sql,
            "WITH a AS (SELECT ((t.metadata -> 'request') ->> 'path') AS p FROM logs.edge AS t) "
            "SELECT a.p FROM a");
  EXPECT_EQ(second.value().pg_sql,
            "WITH a AS (SELECT ((t.metadata -> 'request') ->> 'path') AS p FROM logs.edge AS t) "
            "SELECT count(*) AS n FROM a");
  EXPECT_EQ(second.value().cte_names, std::vector<std::string>{"a"});
}

TEST(StoredWithCache, ANewCatalogueIsNeverServedAnOldTranslation) {
  {
    const Catalog strings = MakeCatalog("STRING");
    ASSERT_TRUE(Sandboxed(strings, "select p from a").ok());
  }
  const Catalog ints = MakeCatalog("INT64");
  const TranslateResult r = Sandboxed(ints, "select p from a");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(TypeName(*r.value().columns.at(0).type), "INT64");
  EXPECT_NE(r.value().pg_sql.find("bq.json_int64("), std::string::npos);
}

}  // namespace
}  // namespace lqe
