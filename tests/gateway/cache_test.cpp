// The in-process cache under a fake clock: lifetime, warming, STALE, failed refreshes, single
// flight, errors not cached, byte budget with LRU eviction, invalidation.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "lqe/gateway/errors.h"
#include "lqe/gateway/result_cache.h"
#include "support.h"

namespace lqe::gateway {
namespace {

using std::chrono::seconds;
using testing::FakeClock;

ResultPtr Result(const std::string& body) {
  return MakeCachedResult(body, "", false);
}

std::string BodyOf(const CacheLookup& lookup) {
  return std::string(std::get<ResultPtr>(lookup.outcome)->body());
}

void Inline(const std::function<void()>& job) {
  job();
}

class CacheTest : public ::testing::Test {
 protected:
  FakeClock clock_;
  std::unique_ptr<ResultCache> cache_ = MakeInProcessCache(clock_, 1 << 20);
  std::atomic<int> calls_{0};
  Loader Counting(const std::string& prefix = "r") {
    return [this, prefix]() -> LoadOutcome { return Result(prefix + std::to_string(++calls_)); };
  }
  CachePolicy Policy(int ttl, std::optional<int> warming = std::nullopt) {
    CachePolicy p;
    p.ttl = seconds(ttl);
    if (warming) p.warming = seconds(*warming);
    return p;
  }
};

TEST_F(CacheTest, MissThenHitThenExpiresAfterLifetime) {
  auto first = cache_->GetOrLoad("k", "e", Policy(10), Counting());
  EXPECT_EQ(first.state, CacheState::kMiss);
  EXPECT_EQ(BodyOf(first), "r1");
  clock_.Advance(std::chrono::milliseconds(9999));
  auto hit = cache_->GetOrLoad("k", "e", Policy(10), Counting());
  EXPECT_EQ(hit.state, CacheState::kHit);
  EXPECT_EQ(BodyOf(hit), "r1");
  EXPECT_EQ(hit.age, seconds(9));
  clock_.Advance(std::chrono::milliseconds(1));
  auto expired = cache_->GetOrLoad("k", "e", Policy(10), Counting());
  EXPECT_EQ(expired.state, CacheState::kMiss);
  EXPECT_EQ(BodyOf(expired), "r2");
  EXPECT_EQ(calls_, 2);
}

TEST_F(CacheTest, LifetimeDoesNotSlideWithHits) {
  cache_->GetOrLoad("k", "e", Policy(10), Counting());
  for (int i = 0; i < 9; ++i) {
    clock_.Advance(seconds(1));
    EXPECT_EQ(cache_->GetOrLoad("k", "e", Policy(10), Counting()).state, CacheState::kHit);
  }
  clock_.Advance(seconds(1));
  EXPECT_EQ(cache_->GetOrLoad("k", "e", Policy(10), Counting()).state, CacheState::kMiss);
}

TEST_F(CacheTest, ErrorsAreNotCached) {
  Loader failing = [this]() -> LoadOutcome {
    ++calls_;
    return MakeError(504, "timed out", "timeout");
  };
  auto a = cache_->GetOrLoad("k", "e", Policy(10), failing);
  auto b = cache_->GetOrLoad("k", "e", Policy(10), failing);
  EXPECT_EQ(std::get<GatewayError>(a.outcome).status, 504);
  EXPECT_EQ(std::get<GatewayError>(b.outcome).status, 504);
  EXPECT_EQ(calls_, 2);
  EXPECT_EQ(cache_->Stats().entries, 0u);
}

TEST_F(CacheTest, WarmingRefreshesRequestedEntriesSoTheyNeverGoCold) {
  auto policy = Policy(900, 300);
  cache_->GetOrLoad("k", "e", policy, Counting());
  for (int minute = 1; minute <= 60; ++minute) {
    clock_.Advance(seconds(60));
    auto r = cache_->GetOrLoad("k", "e", policy, Counting());
    ASSERT_NE(r.state, CacheState::kMiss) << "cold miss at minute " << minute;
    cache_->RunWarming(Inline);
  }
  // One fill plus one refresh every 300 s over 3600 s.
  EXPECT_EQ(calls_, 1 + 12);
  EXPECT_EQ(cache_->Stats().refreshes, 12u);
}

TEST_F(CacheTest, StaleBetweenWarmingDueAndRefresh) {
  auto policy = Policy(900, 300);
  cache_->GetOrLoad("k", "e", policy, Counting());
  clock_.Advance(seconds(100));
  EXPECT_EQ(cache_->GetOrLoad("k", "e", policy, Counting()).state, CacheState::kHit);
  clock_.Advance(seconds(200));
  auto stale = cache_->GetOrLoad("k", "e", policy, Counting());
  EXPECT_EQ(stale.state, CacheState::kStale);
  EXPECT_EQ(BodyOf(stale), "r1");
  cache_->RunWarming(Inline);
  auto fresh = cache_->GetOrLoad("k", "e", policy, Counting());
  EXPECT_EQ(fresh.state, CacheState::kHit);
  EXPECT_EQ(BodyOf(fresh), "r2");
  EXPECT_EQ(fresh.age, seconds(0));
}

TEST_F(CacheTest, UnrequestedEntriesAreNotWarmedAndExpire) {
  auto policy = Policy(900, 300);
  cache_->GetOrLoad("k", "e", policy, Counting());
  clock_.Advance(seconds(301));
  cache_->RunWarming(Inline);
  EXPECT_EQ(calls_, 1);
  clock_.Advance(seconds(600));
  cache_->RunWarming(Inline);
  EXPECT_EQ(cache_->Stats().entries, 0u);
}

TEST_F(CacheTest, FailedRefreshKeepsOldResultUntilExpiry) {
  auto policy = Policy(900, 300);
  bool fail = false;
  Loader loader = [&]() -> LoadOutcome {
    if (fail) return MakeError(503, "down", "unavailable");
    return Result("good" + std::to_string(++calls_));
  };
  cache_->GetOrLoad("k", "e", policy, loader);
  fail = true;
  clock_.Advance(seconds(300));
  EXPECT_EQ(cache_->GetOrLoad("k", "e", policy, loader).state, CacheState::kStale);
  cache_->RunWarming(Inline);
  EXPECT_EQ(cache_->Stats().refresh_failures, 1u);
  clock_.Advance(seconds(599));
  auto still = cache_->GetOrLoad("k", "e", policy, loader);
  EXPECT_EQ(still.state, CacheState::kStale);
  EXPECT_EQ(BodyOf(still), "good1");
  clock_.Advance(seconds(1));
  auto after = cache_->GetOrLoad("k", "e", policy, loader);
  EXPECT_EQ(std::get<GatewayError>(after.outcome).status, 503);
}

// Warming runs the refresher, not the fill's loader; while it runs, the entry outlives its
// lifetime as STALE instead of turning into a cold miss, and it is not refreshed twice at once.
TEST_F(CacheTest, RefreshRunningPastTheLifetimeKeepsServingTheWarmEntry) {
  auto policy = Policy(900, 300);
  std::atomic<int> refreshes{0};
  bool fail = false;
  Loader refresher = [&]() -> LoadOutcome {
    if (fail) return MakeError(504, "timed out", "timeout");
    return Result("refresh" + std::to_string(++refreshes));
  };
  std::vector<std::function<void()>> jobs;
  auto later = [&](const std::function<void()>& job) { jobs.push_back(job); };
  cache_->GetOrLoad("k", "e", policy, Counting("fill"), refresher);
  clock_.Advance(seconds(300));
  EXPECT_EQ(cache_->GetOrLoad("k", "e", policy, Counting("fill"), refresher).state,
            CacheState::kStale);
  cache_->RunWarming(later);
  ASSERT_EQ(jobs.size(), 1u);
  clock_.Advance(seconds(700));  // 1000 s: past the lifetime, the refresh still running
  auto during = cache_->GetOrLoad("k", "e", policy, Counting("fill"), refresher);
  EXPECT_EQ(during.state, CacheState::kStale);
  EXPECT_EQ(BodyOf(during), "fill1");
  EXPECT_EQ(during.age, seconds(1000));
  cache_->RunWarming(later);
  EXPECT_EQ(jobs.size(), 1u);
  EXPECT_EQ(cache_->Stats().entries, 1u);
  jobs[0]();
  auto after = cache_->GetOrLoad("k", "e", policy, Counting("fill"), refresher);
  EXPECT_EQ(after.state, CacheState::kHit);
  EXPECT_EQ(BodyOf(after), "refresh1");
  EXPECT_EQ(calls_, 1);
  // A refresh that fails after the lifetime has ended leaves nothing to serve: the next caller
  // runs the query.
  fail = true;
  clock_.Advance(seconds(300));
  cache_->GetOrLoad("k", "e", policy, Counting("fill"), refresher);
  cache_->RunWarming(later);
  ASSERT_EQ(jobs.size(), 2u);
  clock_.Advance(seconds(600));
  EXPECT_EQ(cache_->GetOrLoad("k", "e", policy, Counting("fill"), refresher).state,
            CacheState::kStale);
  jobs[1]();
  EXPECT_EQ(cache_->Stats().refresh_failures, 1u);
  auto cold = cache_->GetOrLoad("k", "e", policy, Counting("fill"), refresher);
  EXPECT_EQ(cold.state, CacheState::kMiss);
  EXPECT_EQ(BodyOf(cold), "fill2");
}

TEST_F(CacheTest, ConcurrentMissesRunOneQuery) {
  std::atomic<bool> release{false};
  Loader slow = [&]() -> LoadOutcome {
    ++calls_;
    while (!release.load()) std::this_thread::yield();
    return Result("once");
  };
  std::vector<std::thread> threads;
  threads.reserve(8);
  std::vector<std::string> bodies(8);
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back(
        [&, i] { bodies[i] = BodyOf(cache_->GetOrLoad("k", "e", Policy(60), slow)); });
  }
  while (calls_.load() == 0) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // let the others queue up
  release = true;
  for (auto& t : threads) t.join();
  EXPECT_EQ(calls_, 1);
  for (const auto& b : bodies) EXPECT_EQ(b, "once");
}

TEST_F(CacheTest, ByteBudgetEvictsLeastRecentlyUsed) {
  std::string kb(1000, 'x');
  Loader load = [&]() -> LoadOutcome { return Result(kb); };
  // What one entry of this size counts, from a cache with room to spare.
  cache_->GetOrLoad("probe", "e", Policy(60), load);
  const std::size_t entry = cache_->Stats().bytes;
  ASSERT_GT(entry, kb.size());
  auto small = MakeInProcessCache(clock_, 3 * entry + entry / 2);
  auto fill = [&](const std::string& key) { return small->GetOrLoad(key, "e", Policy(60), load); };
  fill("a");
  fill("b");
  fill("c");
  EXPECT_EQ(fill("a").state, CacheState::kHit);  // a is now more recent than b
  fill("d");                                     // over budget: b goes
  EXPECT_EQ(small->Stats().evictions, 1u);
  EXPECT_TRUE(small->Peek("a").has_value());
  EXPECT_FALSE(small->Peek("b").has_value());
  EXPECT_TRUE(small->Peek("c").has_value());
  EXPECT_TRUE(small->Peek("d").has_value());
  EXPECT_EQ(small->Stats().entries, 3u);
  EXPECT_EQ(small->Stats().bytes, 3 * entry);
}

TEST_F(CacheTest, InvalidateEndpointDropsOnlyItsEntries) {
  cache_->GetOrLoad("k1", "e1", Policy(60), Counting());
  cache_->GetOrLoad("k2", "e2", Policy(60), Counting());
  cache_->InvalidateEndpoint("e1");
  EXPECT_FALSE(cache_->Peek("k1").has_value());
  EXPECT_TRUE(cache_->Peek("k2").has_value());
}

}  // namespace
}  // namespace lqe::gateway
