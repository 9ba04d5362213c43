// Result cache: interface plus the in-process implementation (sharded maps under shared_mutex,
// single flight per key, warming, byte budget with LRU eviction).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "lqe/gateway/clock.h"
#include "lqe/gateway/errors.h"
#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

// A rendered result, pre-serialised for the wire (see MakeCachedResult): every hit sends one of
// these buffers as it is, so nothing about a result is copied per request.
struct CachedResult {
  WireForm plain;
  WireForm gzip;  // empty when not worth compressing
  bool truncated = false;
  // The heap this result holds (both buffers with the allocator's overhead, and itself): what
  // the cache's byte budget counts.
  std::size_t footprint = 0;

  bool HasGzip() const { return !gzip.empty(); }
  std::string_view body() const { return plain.Body(); }
  std::string_view gzip_body() const { return HasGzip() ? gzip.Body() : std::string_view(); }
  std::size_t Bytes() const { return footprint; }
};
using ResultPtr = std::shared_ptr<const CachedResult>;

// What a loader gives back: a result, or the error to answer with (never cached).
using LoadOutcome = std::variant<ResultPtr, GatewayError>;
using Loader = std::function<LoadOutcome()>;

enum class CacheState : std::uint8_t { kMiss, kHit, kStale, kBypass };
std::string_view CacheStateName(CacheState state);

struct CachePolicy {
  std::chrono::seconds ttl{0};                  // lifetime from fill
  std::optional<std::chrono::seconds> warming;  // refresh period
};

struct CacheLookup {
  LoadOutcome outcome;
  CacheState state = CacheState::kMiss;
  std::chrono::seconds age{0};
};

struct CacheStats {
  std::uint64_t hits = 0, misses = 0, stale = 0, evictions = 0, refreshes = 0, refresh_failures = 0,
                entries = 0, bytes = 0;
};

class ResultCache {
 public:
  virtual ~ResultCache() = default;
  // Returns the cached result for `key`, or runs `loader` once for all concurrent callers.
  // `endpoint_id` groups keys for invalidation. Warming refreshes the entry with `refresher`
  // (the same query under the warming timeout). While a refresh runs, the entry keeps being
  // served, as STALE once past its lifetime, so a slow refresh never turns into a cold miss.
  virtual CacheLookup GetOrLoad(const std::string& key, const std::string& endpoint_id,
                                const CachePolicy& policy, const Loader& loader,
                                const Loader& refresher) = 0;
  CacheLookup GetOrLoad(const std::string& key, const std::string& endpoint_id,
                        const CachePolicy& policy, const Loader& loader) {
    return GetOrLoad(key, endpoint_id, policy, loader, loader);
  }
  // Looks up without loading; nullopt on a miss. Never blocks on a query.
  virtual std::optional<CacheLookup> Peek(const std::string& key) = 0;
  virtual void InvalidateEndpoint(const std::string& endpoint_id) = 0;
  // Refreshes entries whose warming is due (requested since their last fill), through `spawn`
  // which runs a job now or on a worker thread. Drops expired entries.
  virtual void RunWarming(const std::function<void(std::function<void()>)>& spawn) = 0;
  virtual CacheStats Stats() const = 0;
};

// Serialises a rendered result for the wire: the plain and (when `gzip_body` is not empty) gzip
// forms, each in one buffer of exactly its size, with the headers every 200 of this result
// carries (type, encoding, Vary, truncation, CORS, length). Defined with the handlers.
ResultPtr MakeCachedResult(std::string_view body, std::string_view gzip_body, bool truncated);

// Heap bytes that a block of `size` bytes from operator new really occupies (glibc malloc:
// 16-byte granules plus a header; blocks of 128 KiB and more counted in whole pages).
std::size_t HeapFootprint(std::size_t size);
// The same for a std::string's buffer (none while the text fits inside the string itself).
std::size_t StringFootprint(const std::string& text);

std::unique_ptr<ResultCache> MakeInProcessCache(const Clock& clock, std::size_t max_bytes);

}  // namespace lqe::gateway
