// Ids of events sent without one: the same delivery gives the same ids, anything else differs.
#include <gtest/gtest.h>

#include <set>

#include "lqe/base/uuid.h"
#include "lqe/schema/delivery_ids.h"

namespace lqe::schema {
namespace {

TEST(DeliveryIdsTest, TheSameDeliveryGivesTheSameIds) {
  const DeliveryIds first("edge", R"([{"message":"a"},{"message":"a"}])");
  const DeliveryIds again("edge", R"([{"message":"a"},{"message":"a"}])");
  EXPECT_EQ(first.At(0), again.At(0));
  EXPECT_EQ(first.At(1), again.At(1));
}

TEST(DeliveryIdsTest, PositionTableAndBytesEachChangeTheId) {
  const DeliveryIds base("edge", "line");
  std::set<std::string> ids{base.At(0),
                            base.At(1),
                            base.At(1ULL << 40),
                            DeliveryIds("auth", "line").At(0),
                            DeliveryIds("edge", "line ").At(0),
                            DeliveryIds("edge", "").At(0),
                            DeliveryIds("", "edge").At(0)};
  EXPECT_EQ(ids.size(), 7U);
  // The scope and the bytes are separated: ("ab", "c") is not ("a", "bc").
  EXPECT_NE(DeliveryIds("ab", "c").At(0), DeliveryIds("a", "bc").At(0));
}

TEST(DeliveryIdsTest, IdsAreVersion8Uuids) {
  for (std::uint64_t i = 0; i < 64; ++i) {
    const std::string id = DeliveryIds("pooler", "x").At(i);
    ASSERT_TRUE(IsUuid(id)) << id;
    EXPECT_EQ(id[14], '8') << id;                                          // version
    EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;  // variant 10xx
    EXPECT_EQ(id, DeliveryIds("pooler", "x").At(i));
  }
}

TEST(DeliveryIdsTest, Sha256MatchesTheStandardVectors) {
  const auto digest = Sha256("abc");
  // FIPS 180-2, appendix B.1: ba7816bf 8f01cfea ...
  EXPECT_EQ(digest[0], 0xba);
  EXPECT_EQ(digest[1], 0x78);
  EXPECT_EQ(digest[2], 0x16);
  EXPECT_EQ(digest[31], 0xad);
}

}  // namespace
}  // namespace lqe::schema
