// lqe::FormatPostgres: clauses on their own lines, CTEs and subqueries indented, and nothing but
// whitespace between tokens changed (checked on the whole translated logs.all endpoint).
#include "lqe/format_postgres.h"

#include <gtest/gtest.h>

#include "lqe/translate.h"
#include "support/test_database.h"

namespace lqe {
namespace {

std::string WithoutWhitespace(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c != ' ' && c != '\n') out += c;
  }
  return out;
}

TEST(FormatPostgres, PutsClausesOnLinesAndIndentsCtesAndSubqueries) {
  EXPECT_EQ(FormatPostgres("WITH a AS (SELECT t.id, count(*) AS n FROM logs.edge AS t "
                           "CROSS JOIN LATERAL jsonb_array_elements(t.metadata) WITH ORDINALITY "
                           "AS e(v, n) WHERE t.id IS DISTINCT FROM 'x' GROUP BY t.id), "
                           "b AS (SELECT 1 AS k) SELECT a.id, row_number() OVER (PARTITION BY "
                           "a.id ORDER BY a.n) AS r FROM a LEFT JOIN b ON true WHERE a.n IN "
                           "(SELECT k FROM b) ORDER BY a.id COLLATE \"C\" ASC NULLS FIRST "
                           "LIMIT 10"),
            "WITH a AS (\n"
            "  SELECT t.id, count(*) AS n\n"
            "  FROM logs.edge AS t\n"
            "  CROSS JOIN LATERAL jsonb_array_elements(t.metadata) WITH ORDINALITY AS e(v, n)\n"
            "  WHERE t.id IS DISTINCT FROM 'x'\n"
            "  GROUP BY t.id\n"
            "),\n"
            "b AS (\n"
            "  SELECT 1 AS k\n"
            ")\n"
            "SELECT a.id, row_number() OVER (PARTITION BY a.id ORDER BY a.n) AS r\n"
            "FROM a\n"
            "LEFT JOIN b ON true\n"
            "WHERE a.n IN (\n"
            "  SELECT k\n"
            "  FROM b\n"
            ")\n"
            "ORDER BY a.id COLLATE \"C\" ASC NULLS FIRST\n"
            "LIMIT 10");
}

TEST(FormatPostgres, CopiesLiteralsAndQuotedNamesAsTheyAre) {
  EXPECT_EQ(FormatPostgres("SELECT 'a  FROM (SELECT '' x' AS \"order by\", E'\\' WHERE ' AS w "
                           "FROM t"),
            "SELECT 'a  FROM (SELECT '' x' AS \"order by\", E'\\' WHERE ' AS w\nFROM t");
  EXPECT_EQ(FormatPostgres("SELECT $1 AS p, t.\"from\" FROM t"),
            "SELECT $1 AS p, t.\"from\"\nFROM t");
}

TEST(FormatPostgres, SetOperatorsAndUnbalancedInputDoNotBreakIt) {
  EXPECT_EQ(FormatPostgres("SELECT 1 UNION ALL SELECT 2"), "SELECT 1\nUNION ALL SELECT 2");
  EXPECT_EQ(FormatPostgres("SELECT (1))) FROM ((("), "SELECT (1)))\nFROM (((");
  EXPECT_EQ(FormatPostgres(""), "");
}

TEST(FormatPostgres, ChangesOnlyWhitespaceOfTheTranslatedLogListing) {
  std::string error;
  const Catalog catalog = Catalog::FromEntries(
      Catalog::ParseTsv(testing::ReadFileText(LQE_SOURCE_DIR "/schema/catalogue_seed.tsv"), &error),
      &error);
  TranslateOptions options;
  options.catalog = &catalog;
  const TypePtr s = Type::Scalar(TypeKind::kString);
  options.params = {{"project", s}, {"iso_timestamp_start", s}, {"iso_timestamp_end", s}};
  // A statement carries the CTEs its query reads: two here.
  options.consumer =
      ConsumerQuery{ConsumerQuery::Language::kSql,
                    "select id from edge_logs union all select id from postgres_logs"};
  const TranslateResult r =
      Translate(testing::ReadFileText(LQE_SOURCE_DIR "/sql/logs.all.sql"), options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string formatted = FormatPostgres(r.value().pg_sql);
  EXPECT_EQ(WithoutWhitespace(formatted), WithoutWhitespace(r.value().pg_sql));
  EXPECT_EQ(formatted.rfind("WITH edge_logs AS (\n  SELECT ", 0), 0u) << formatted;
  EXPECT_NE(formatted.find("\n),\npostgres_logs AS (\n"), std::string::npos) << formatted;
}

}  // namespace
}  // namespace lqe
