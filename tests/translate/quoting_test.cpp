// Emit-side unit tests: quoting of identifiers and literals, the only places text becomes SQL.
#include "pg/quoting.h"

#include <gtest/gtest.h>

#include "pg/function_table.h"
#include "pg/type_table.h"

namespace lqe::pg {
namespace {

TEST(QuoteIdent, LeavesSimpleLowerCaseNamesBare) {
  EXPECT_EQ(QuoteIdent("edge_logs"), "edge_logs");
  EXPECT_EQ(QuoteIdent("_x1"), "_x1");
}

TEST(QuoteIdent, QuotesKeywordsUpperCaseAndSymbols) {
  EXPECT_EQ(QuoteIdent("timestamp"), "\"timestamp\"");
  EXPECT_EQ(QuoteIdent("user"), "\"user\"");
  EXPECT_EQ(QuoteIdent("Edge"), "\"Edge\"");
  EXPECT_EQ(QuoteIdent("a b"), "\"a b\"");
  EXPECT_EQ(QuoteIdent("1abc"), "\"1abc\"");
  EXPECT_EQ(QuoteIdent("we\"ird"), "\"we\"\"ird\"");
  EXPECT_EQ(QuoteIdent(""), "\"\"");
}

TEST(QuoteLabel, AllowsKeywordsAfterDotOrAs) {
  EXPECT_EQ(QuoteLabel("timestamp"), "timestamp");
  EXPECT_EQ(QuoteLabel("select"), "select");
  EXPECT_EQ(QuoteLabel("statusCode"), "\"statusCode\"");
}

TEST(QuoteLiteral, DoublesQuotes) {
  EXPECT_EQ(QuoteLiteral("it's"), "'it''s'");
  EXPECT_EQ(QuoteLiteral(""), "''");
}

TEST(QuoteLiteral, UsesEscapeStringForBackslashes) {
  EXPECT_EQ(QuoteLiteral("a\\b"), "E'a\\\\b'");
  EXPECT_EQ(QuoteLiteral("\\'"), "E'\\\\'''");
}

TEST(QuoteLiteral, DropsNulBytes) {
  EXPECT_EQ(QuoteLiteral(std::string("a\0b", 3)), "'ab'");
}

TEST(TypeTable, MapsTheOutputContract) {
  EXPECT_EQ(PgTypeName(TypeKind::kInt64), "bigint");
  EXPECT_EQ(PgTypeName(TypeKind::kFloat64), "double precision");
  EXPECT_EQ(PgTypeName(TypeKind::kTimestamp), "timestamptz");
  EXPECT_EQ(PgTypeName(TypeKind::kDatetime), "timestamp");
  EXPECT_EQ(PgTypeName(TypeKind::kRecord), "jsonb");
  EXPECT_EQ(PgStorageType(*Type::Array(Type::Scalar(TypeKind::kString))), "text[]");
}

TEST(FunctionTable, LooksNamesUpCaseInsensitively) {
  ASSERT_NE(functions::Find("countif"), nullptr);
  EXPECT_EQ(functions::Find("countif")->name, "COUNTIF");
  EXPECT_EQ(functions::Find("pg_sleep"), nullptr);
  EXPECT_EQ(functions::Find("external_query"), nullptr);
}

TEST(FunctionTable, EveryRowHasItsEmitterAndIndex) {
  const auto& all = functions::All();
  ASSERT_GT(all.size(), 100u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].index, i);
    EXPECT_NE(EmitterFor(all[i]), nullptr) << all[i].name;
  }
}

TEST(FunctionTable, SuggestsTheClosestNameForATypo) {
  EXPECT_EQ(functions::DidYouMean("REGEX_CONTAINS"), "Did you mean REGEXP_CONTAINS?");
  EXPECT_EQ(functions::DidYouMean("timestamp_truncc"), "Did you mean TIMESTAMP_TRUNC?");
  EXPECT_EQ(functions::DidYouMean("pg_sleep"), "");
}

}  // namespace
}  // namespace lqe::pg
