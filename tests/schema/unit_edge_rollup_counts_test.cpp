// EdgeRollupCounts' two SQL definitions (005_edge_rollup.sql): logs.url_prefix's regex and the
// trigrams logs.url_rest_trigrams keeps of pg_trgm's show_trgm. The integration test
// WriterRollupTest checks them against the database itself.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "lqe/schema/edge_rollup_counts.h"

namespace lqe::schema {
namespace {

TEST(EdgeRollupCountsTest, PrefixAndTrigramsFollowTheSqlDefinitions) {
  EXPECT_EQ(EdgeUrlPrefix("https://a.b:1/c?d#e"), "https://a.b:1");
  EXPECT_EQ(EdgeUrlPrefix("https://a.b?x//y"), "https://a.b");
  EXPECT_EQ(EdgeUrlPrefix("a?b//c"), "");
  EXPECT_EQ(EdgeUrlPrefix("a/b//c"), "");
  EXPECT_EQ(EdgeUrlPrefix("//h/p"), "//h");
  EXPECT_EQ(EdgeUrlPrefix("x/"), "");
  EXPECT_EQ(EdgeUrlPrefix("x//"), "x//");
  EXPECT_EQ(EdgeRestTrigrams("/AbcD/x1y_z9"), (std::set<std::string>{"abc", "bcd", "x1y"}));
  EXPECT_EQ(EdgeRestTrigrams("İab \u212aab ıxy éab1 ab€cd1"),
            (std::set<std::string>{"iab", "kab", "ab1", "cd1"}));
  EXPECT_TRUE(EdgeRestTrigrams("ab").empty());
}

}  // namespace
}  // namespace lqe::schema
