// A caller's StoredQueryCache reuses a stored query's translated WITH across consumer queries;
// it must never serve one translated against a different catalogue.
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

TranslateResult Sandboxed(const Catalog& catalog, const std::string& consumer,
                          StoredQueryCache* cache) {
  TranslateOptions options;
  options.catalog = &catalog;
  options.stored_cache = cache;
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, consumer};
  return Translate(
      "with a as (select r.path as p from logs.edge t cross join unnest(t.metadata) as m "
      "cross join unnest(m.request) as r) select p from a",
      options);
}

TEST(StoredWithCache, SecondConsumerGetsTheSameStoredTranslation) {
  const Catalog catalog = MakeCatalog("STRING");
  StoredQueryCache cache;
  const TranslateResult first = Sandboxed(catalog, "select p from a", &cache);
  EXPECT_EQ(cache.size(), 1u);
  const TranslateResult second = Sandboxed(catalog, "select count(*) as n from a", &cache);
  EXPECT_EQ(cache.size(), 1u);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first.value().pg_sql,
            "WITH a AS (SELECT (r.value ->> 'path') AS p FROM logs.edge AS t CROSS JOIN LATERAL "
            "bq.json_record_elements((t.metadata -> 'request')) WITH ORDINALITY AS r(value, ord)) "
            "SELECT a.p FROM a");
  EXPECT_EQ(second.value().pg_sql,
            "WITH a AS (SELECT (r.value ->> 'path') AS p FROM logs.edge AS t CROSS JOIN LATERAL "
            "bq.json_record_elements((t.metadata -> 'request')) WITH ORDINALITY AS r(value, ord)) "
            "SELECT count(*) AS n FROM a");
  EXPECT_EQ(second.value().cte_names, std::vector<std::string>{"a"});
}

TEST(StoredWithCache, ANewCatalogueIsNeverServedAnOldTranslation) {
  StoredQueryCache cache;
  {
    const Catalog strings = MakeCatalog("STRING");
    ASSERT_TRUE(Sandboxed(strings, "select p from a", &cache).ok());
  }
  const Catalog ints = MakeCatalog("INT64");
  const TranslateResult r = Sandboxed(ints, "select p from a", &cache);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(TypeName(*r.value().columns.at(0).type), "INT64");
  EXPECT_NE(r.value().pg_sql.find("bq.json_int64("), std::string::npos);
}

TEST(StoredWithCache, WithoutACacheEveryCallTranslatesTheStoredQuery) {
  const Catalog catalog = MakeCatalog("STRING");
  const TranslateResult first = Sandboxed(catalog, "select p from a", nullptr);
  const TranslateResult second = Sandboxed(catalog, "select p from a", nullptr);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first.value().pg_sql, second.value().pg_sql);
}

TEST(StoredWithCache, AConsumerOrderingItsResultGetsItsOwnEntry) {
  // The CTEs' ORDER BYs are dropped when the consumer orders; the two forms never mix.
  const Catalog catalog = MakeCatalog("STRING");
  StoredQueryCache cache;
  TranslateOptions options;
  options.catalog = &catalog;
  options.stored_cache = &cache;
  const std::string stored =
      "with a as (select r.path as p from logs.edge t cross join unnest(t.metadata) as m "
      "cross join unnest(m.request) as r order by p) select p from a";
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, "select p from a"};
  const TranslateResult unordered = Translate(stored, options);
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, "select p from a order by p"};
  const TranslateResult ordered = Translate(stored, options);
  ASSERT_TRUE(unordered.ok());
  ASSERT_TRUE(ordered.ok());
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_NE(unordered.value().pg_sql.find("ORDER BY"), std::string::npos);
  EXPECT_EQ(ordered.value().pg_sql.find("AS r(value, ord) ORDER BY"), std::string::npos);
  EXPECT_NE(unordered.value().pg_sql.find("AS r(value, ord) ORDER BY"), std::string::npos);
}

}  // namespace
}  // namespace lqe
