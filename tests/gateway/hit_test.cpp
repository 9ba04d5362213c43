// Cache hits served from pre-serialised buffers: every hit shares the cache's bytes (no copy),
// gzip is negotiated per request, per-request checks (auth, redaction) still run, and the bytes
// the cache counts are the bytes the heap holds for it.
#include <gtest/gtest.h>
#include <libdeflate.h>
#include <malloc.h>

#include "lqe/gateway/handler.h"
#include "support.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

std::string Gunzip(std::string_view gz, std::size_t plain_size) {
  std::string out(plain_size, '\0');
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::size_t got = 0;
  auto rc = libdeflate_gzip_decompress(d, gz.data(), gz.size(), out.data(), out.size(), &got);
  libdeflate_free_decompressor(d);
  EXPECT_EQ(rc, LIBDEFLATE_SUCCESS);
  out.resize(got);
  return out;
}

// Heap in use by this process, by glibc's own count (arenas and separately mapped blocks).
std::size_t HeapInUse() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

class HitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto big = MakeEndpoint("big.cached", "SELECT $1", {Col("v", TypeKind::kString)}, {"k"});
    AddParam(*big, "k", ParamType::kString, true);
    big->cache_seconds = 900;
    auto pii = MakeEndpoint("pii.cached", "SELECT pii", {Col("v", TypeKind::kString)});
    pii->cache_seconds = 900;
    context_.state = MakeState({big, pii});
    context_.cache = cache_.get();
    context_.memo = &memo_;
    context_.run_query = [this](const std::string&, const std::vector<std::optional<std::string>>&,
                                int, int, QueryCancel*) {
      ++queries_;
      return next_;
    };
    SetValue(std::string(5000, 'a'));
  }

  void SetValue(const std::string& value) { next_.rows = {{value}}; }
  Response Run(const Request& r) { return Handle(r, context_); }
  static Request Big(const std::string& k, const std::string& accept = "") {
    Request r = Get("/api/endpoints/query/big.cached?k=" + k);
    if (!accept.empty()) r.headers["accept-encoding"] = accept;
    return r;
  }

  FakeClock clock_;
  std::unique_ptr<ResultCache> cache_ = MakeInProcessCache(clock_, 1 << 30);
  HitMemo memo_;
  Context context_;
  QueryResult next_;
  int queries_ = 0;
};

TEST_F(HitTest, HitsShareTheCachedBytesWithoutCopying) {
  Response miss = Run(Big("1"));
  ASSERT_TRUE(miss.wire);
  Response hit1 = Run(Big("1"));
  Response hit2 = Run(Big("1"));  // through the per-thread memo
  EXPECT_EQ(queries_, 1);
  EXPECT_EQ(hit1.cache_state, "HIT");
  EXPECT_EQ(hit2.cache_state, "HIT");
  // The same buffer, not equal copies: nothing about the result is copied per request.
  EXPECT_EQ(hit1.wire->bytes.data(), miss.wire->bytes.data());
  EXPECT_EQ(hit2.wire->bytes.data(), miss.wire->bytes.data());
  EXPECT_EQ(hit1.Body(), "{\"result\":[{\"v\":\"" + std::string(5000, 'a') + "\"}]}");
  // The buffer is sized exactly: the cache's count of it is what it holds.
  EXPECT_EQ(hit1.wire->bytes.capacity(), hit1.wire->bytes.size());
  // Only the per-request lines are per request.
  ASSERT_EQ(hit1.headers.size(), 2u);
  EXPECT_EQ(hit1.headers[0], std::make_pair(std::string("X-Cache"), std::string("HIT")));
  EXPECT_EQ(hit1.headers[1], std::make_pair(std::string("Age"), std::string("0")));
}

TEST_F(HitTest, GzipIsNegotiatedPerRequestFromOneEntry) {
  const std::string plain = std::string(Run(Big("1")).Body());
  const std::pair<const char*, bool> cases[] = {
      {"gzip", true},
      {"GZIP", true},
      {"br, gzip;q=0.5", true},
      {"deflate, x-gzip", true},
      {" gzip ; q=1.0", true},
      {"gzip;q=0", false},
      {"gzip; q=0.000", false},
      {"deflate, br", false},
      {"gzipper", false},
      {"identity", false},
      {"", false},
  };
  const WireForm* gzip_form = nullptr;
  for (const auto& [accept, gzip] : cases) {
    Response hit = Run(Big("1", accept));
    ASSERT_TRUE(hit.wire) << accept;
    EXPECT_EQ(hit.cache_state, "HIT") << accept;
    EXPECT_EQ(hit.body_is_gzip, gzip) << accept;
    EXPECT_EQ(hit.wire->gzip, gzip) << accept;
    std::string_view head = std::string_view(hit.wire->bytes).substr(0, hit.wire->body_offset);
    EXPECT_NE(head.find("\r\nVary: Accept-Encoding\r\n"), std::string_view::npos) << accept;
    EXPECT_EQ(head.find("Content-Encoding: gzip") != std::string_view::npos, gzip) << accept;
    EXPECT_NE(head.find("Content-Length: " + std::to_string(hit.Body().size()) + "\r\n"),
              std::string_view::npos)
        << accept;
    if (gzip) {
      EXPECT_EQ(Gunzip(hit.Body(), plain.size()), plain) << accept;
      if (gzip_form == nullptr) gzip_form = hit.wire.get();
      EXPECT_EQ(hit.wire.get(), gzip_form) << accept;  // one gzip form for every such client
    } else {
      EXPECT_EQ(hit.Body(), plain) << accept;
    }
  }
  EXPECT_EQ(queries_, 1);
}

TEST_F(HitTest, SmallResultsHaveNoGzipFormAndNoVary) {
  SetValue("x");
  Run(Big("1"));
  Response hit = Run(Big("1", "gzip"));
  EXPECT_FALSE(hit.body_is_gzip);
  EXPECT_EQ(hit.Body(), R"({"result":[{"v":"x"}]})");
  EXPECT_EQ(std::string_view(hit.wire->bytes).find("Vary"), std::string_view::npos);
}

TEST_F(HitTest, AuthIsCheckedOnEveryHit) {
  Run(Big("1"));
  EXPECT_EQ(Run(Big("1")).cache_state, "HIT");
  Response no_key = Run(Get("/api/endpoints/query/big.cached?k=1", ""));
  EXPECT_EQ(no_key.status, 401);
  EXPECT_FALSE(no_key.wire);
  EXPECT_EQ(Run(Get("/api/endpoints/query/big.cached?k=1", "wrong")).status, 401);
  EXPECT_EQ(Run(Get("/api/endpoints/query/big.cached?k=1", kLimitedKey)).status, 403);
  // A key in the query string reaches the same entry; a wrong one does not.
  Request by_param =
      Get("/api/endpoints/query/big.cached?k=1&api_key=" + std::string(kTestKey), "");
  EXPECT_EQ(Run(by_param).cache_state, "HIT");
  EXPECT_EQ(Run(Get("/api/endpoints/query/big.cached?k=1&api_key=nope", "")).status, 401);
  EXPECT_EQ(queries_, 1);
}

TEST_F(HitTest, RedactedAndPlainHitsNeverShareBytes) {
  SetValue("from 10.0.0.1");
  Request plain = Get("/api/endpoints/query/pii.cached");
  Request redacted = plain;
  redacted.headers["svc-endpoint-redact-pii"] = "true";
  EXPECT_EQ(Run(plain).Body(), R"({"result":[{"v":"from 10.0.0.1"}]})");
  EXPECT_EQ(Run(redacted).Body(), R"({"result":[{"v":"from REDACTED"}]})");
  for (int i = 0; i < 2; ++i) {  // the second round through the memo
    Response p = Run(plain);
    Response r = Run(redacted);
    EXPECT_EQ(p.cache_state, "HIT");
    EXPECT_EQ(r.cache_state, "HIT");
    EXPECT_EQ(p.Body(), R"({"result":[{"v":"from 10.0.0.1"}]})");
    EXPECT_EQ(r.Body(), R"({"result":[{"v":"from REDACTED"}]})");
  }
  EXPECT_EQ(queries_, 2);
}

TEST_F(HitTest, CorsHeadersOnHitsAreTheOnesEveryResponseGets) {
  Run(Big("1"));
  Response hit = Run(Big("1"));
  Request request = Big("1");
  FinishResponse(request, hit);
  EXPECT_EQ(hit.headers.size(), 2u);  // nothing added per request: the buffer has them
  Response common;
  AddCommonHeaders(common);
  std::string_view head = std::string_view(hit.wire->bytes).substr(0, hit.wire->body_offset);
  ASSERT_FALSE(common.headers.empty());
  for (const auto& [name, value] : common.headers) {
    std::string line = "\r\n";
    line.append(name).append(": ").append(value).append("\r\n");
    EXPECT_NE(head.find(line), std::string_view::npos) << name;
  }
}

// The cache's count against glibc's count of the heap the same entries hold, with the real
// loader and rendering: small (chart-sized) and large (listing-sized) results, with gzip forms.
TEST_F(HitTest, CountedBytesAreTheHeapTheEntriesHold) {
  Run(Big("warm-up", "gzip"));  // the thread's compressor and other one-time allocations
  for (std::size_t size : {1200u, 200000u}) {
    std::string value;
    for (std::size_t i = 0; value.size() < size; ++i) value += std::to_string(i * 7919) + ",";
    SetValue(value);
    auto cache = MakeInProcessCache(clock_, 1 << 30);
    context_.cache = cache.get();
    const int entries = size < 10000 ? 400 : 40;
    const std::size_t before = HeapInUse();
    for (int i = 0; i < entries; ++i) {
      Response miss = Run(Big("key-" + std::to_string(i), "gzip"));
      ASSERT_EQ(miss.cache_state, "MISS");
    }
    const double held = static_cast<double>(HeapInUse() - before);
    const double counted = static_cast<double>(cache->Stats().bytes);
    EXPECT_GE(counted, held * 0.9) << size << ": counted " << counted << ", heap " << held;
    EXPECT_LE(counted, held * 1.25) << size << ": counted " << counted << ", heap " << held;
    context_.cache = cache_.get();
  }
}

// A byte budget holds the heap to it: what eviction leaves is what the process holds.
TEST_F(HitTest, EvictionKeepsTheHeapWithinTheBudget) {
  Run(Big("warm-up", "gzip"));
  std::string value(100000, 'v');
  SetValue(value);
  constexpr std::size_t kBudget = 2u << 20;
  const std::size_t before = HeapInUse();
  {
    auto cache = MakeInProcessCache(clock_, kBudget);
    context_.cache = cache.get();
    for (int i = 0; i < 60; ++i) Run(Big("key-" + std::to_string(i), "gzip"));
    CacheStats stats = cache->Stats();
    EXPECT_LE(stats.bytes, kBudget);
    EXPECT_GE(stats.evictions, 40u);
    EXPECT_EQ(stats.entries + stats.evictions, 60u);
    EXPECT_LE(HeapInUse() - before, kBudget * 11 / 10);
    // The most recent entries are the ones kept.
    EXPECT_EQ(Run(Big("key-59")).cache_state, "HIT");
    EXPECT_EQ(Run(Big("key-0")).cache_state, "MISS");
  }
  context_.cache = cache_.get();
}

}  // namespace
}  // namespace lqe::gateway
