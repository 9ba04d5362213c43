// The shared "did you mean": optimal string alignment distance, ASCII case-insensitive, and the
// nearest candidate within a caller's limit.
#include "lqe/base/suggest.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace lqe {
namespace {

TEST(SuggestTest, EditDistance) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("from", "FROM"), 0u);         // case-insensitive
  EXPECT_EQ(EditDistance("form", "from"), 1u);         // adjacent transposition
  EXPECT_EQ(EditDistance("max_row", "max_rows"), 1u);  // insertion
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("ca", "abc"), 3u);  // OSA: no edit of a transposed pair
  EXPECT_EQ(EditDistance("pool", "pool_size"), 5u);
}

TEST(SuggestTest, SuggestionLimit) {
  EXPECT_EQ(SuggestionLimit("ab"), 2u);
  EXPECT_EQ(SuggestionLimit("abcdefghi"), 3u);
  EXPECT_EQ(SuggestionLimit("ab", 1), 1u);
  EXPECT_EQ(SuggestionLimit("abcdef", 1), 2u);
}

TEST(SuggestTest, ClosestMatch) {
  const std::vector<std::string> keys = {"max_rows", "cache_seconds", "sandbox"};
  EXPECT_EQ(ClosestMatch("max_row", keys, 2), "max_rows");
  EXPECT_EQ(ClosestMatch("SANDBXO", keys, 2), "sandbox");
  EXPECT_EQ(ClosestMatch("unrelated", keys, 2), "");
  EXPECT_EQ(ClosestMatch("max_row", keys, 0), "");
  // Ties go to the earlier candidate; string_view ranges work too.
  const std::initializer_list<std::string_view> views = {"cat", "car"};
  EXPECT_EQ(ClosestMatch("cax", views, 1), "cat");
  EXPECT_EQ(ClosestMatch("x", std::vector<std::string>{}, 5), "");
}

}  // namespace
}  // namespace lqe
