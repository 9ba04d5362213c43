// One ingest request's arena: what the queue counts for a request is what its JSON really holds,
// and its values are freed with it at once.
#include "ingest/request_memory.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <string>

#include "ingest/arena_blocks.h"

namespace lqe::gateway::ingest {
namespace {

namespace json = boost::json;

std::string Events(int count) {
  std::string text = "[";
  for (int i = 0; i < count; ++i) {
    text += std::string(i ? "," : "") + R"({"id":")" + std::to_string(i) +
            R"(","metadata":{"request":{"url":"https://example.com/rest/v1/items?select=*",)" +
            R"("headers":{"user_agent":"curl/8.0","x_forwarded_for":"203.0.113.7"}}}})";
  }
  return text + "]";
}

TEST(RequestMemoryTest, CountsTheBytesItsParsedTreeHolds) {
  const std::string text = Events(200);
  RequestMemory memory(text.size());
  EXPECT_EQ(memory.Bytes(), 0u) << "nothing is taken before the first value";
  json::value tree = json::parse(text, memory.Storage());
  EXPECT_EQ(json::serialize(tree), text);
  // The first block is the body's size; a tree of these events needs a few times more, taken in
  // doubling blocks, so the count lies between the text's size and a small multiple of it.
  EXPECT_GE(memory.Bytes(), text.size());
  EXPECT_LE(memory.Bytes(), 8 * text.size());
  const std::size_t before = memory.Bytes();
  tree.as_array().clear();  // freeing values inside the arena gives nothing back until it dies
  EXPECT_EQ(memory.Bytes(), before);
}

TEST(RequestMemoryTest, ValuesInTheArenaAreNotTakenApartWhenTheyDie) {
  RequestMemory memory(0);
  const json::storage_ptr storage = memory.Storage();
  // Not shared (no reference count per copy) and with nothing to free: Boost.JSON skips the
  // destruction of every value made in it.
  EXPECT_TRUE(storage.is_not_shared_and_deallocate_is_trivial());
  EXPECT_EQ(storage.get(), &memory);
}

TEST(RequestMemoryTest, LargeBlocksOfAFinishedArenaServeTheNextOne) {
  ArenaBlocks& blocks = ArenaBlocks::Shared();
  const std::string text = Events(2000);  // a few hundred KB: blocks of the kept sizes
  std::size_t first_bytes = 0;
  {
    RequestMemory memory(text.size());
    json::value tree = json::parse(text, memory.Storage());
    ASSERT_EQ(tree.as_array().size(), 2000u);
    first_bytes = memory.Bytes();
  }
  const std::size_t kept = blocks.KeptBytes();
  EXPECT_GE(kept, first_bytes) << "the finished arena's blocks are kept";
  EXPECT_LE(kept, ArenaBlocks::kMaxKeptBytes);
  RequestMemory again(text.size());
  json::value tree = json::parse(text, again.Storage());
  EXPECT_EQ(json::serialize(tree), text);
  EXPECT_EQ(again.Bytes(), first_bytes);
  EXPECT_EQ(blocks.KeptBytes(), kept - first_bytes) << "taken from the kept ones, not the heap";
}

TEST(RequestMemoryTest, AnArenaAsksAPowerOfTwoAndItsHeaderAndGivesBackThePowerOfTwo) {
  // Both sizes of one block fall in one class, which has room for the larger.
  EXPECT_EQ(ArenaBlocks::BlockSize((1u << 20) + 32), (1u << 20) + ArenaBlocks::kSlack);
  EXPECT_EQ(ArenaBlocks::BlockSize(1u << 20), (1u << 20) + ArenaBlocks::kSlack);
  EXPECT_EQ(ArenaBlocks::BlockSize(1000), 1000u) << "small blocks are left to the heap";
  EXPECT_EQ(ArenaBlocks::BlockSize(std::size_t{1} << 30), std::size_t{1} << 30);
  ArenaBlocks& blocks = ArenaBlocks::Shared();
  void* block = blocks.Take((1u << 18) + 32);
  const std::size_t kept = blocks.KeptBytes();
  blocks.Give(block, 1u << 18);
  EXPECT_EQ(blocks.KeptBytes(), kept + (1u << 18) + ArenaBlocks::kSlack);
  EXPECT_EQ(blocks.Take((1u << 18) + 32), block);
  blocks.Give(block, 1u << 18);
}

TEST(RequestMemoryTest, AnEmptyBodyStillGetsAUsableArena) {
  RequestMemory memory(0);
  json::object object(memory.Storage());
  object["k"] = "v";
  EXPECT_EQ(json::serialize(object), R"({"k":"v"})");
  EXPECT_GE(memory.Bytes(), 4096u);
}

}  // namespace
}  // namespace lqe::gateway::ingest
