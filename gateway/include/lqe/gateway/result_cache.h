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

// A rendered result: the exact bytes sent for a 200, plus their gzip form.
struct CachedResult {
  std::string body;
  std::string gzip_body;  // empty when not worth compressing
  bool truncated = false;
  std::size_t Bytes() const { return body.size() + gzip_body.size() + 256; }
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
  // `endpoint_id` groups keys for invalidation.
  virtual CacheLookup GetOrLoad(const std::string& key, const std::string& endpoint_id,
                                const CachePolicy& policy, const Loader& loader) = 0;
  // Looks up without loading; nullopt on a miss. Never blocks on a query.
  virtual std::optional<CacheLookup> Peek(const std::string& key) = 0;
  virtual void InvalidateEndpoint(const std::string& endpoint_id) = 0;
  // Refreshes entries whose warming is due (requested since their last fill), through `spawn`
  // which runs a job now or on a worker thread. Drops expired entries.
  virtual void RunWarming(const std::function<void(std::function<void()>)>& spawn) = 0;
  virtual CacheStats Stats() const = 0;
};

std::unique_ptr<ResultCache> MakeInProcessCache(const Clock& clock, std::size_t max_bytes);

}  // namespace lqe::gateway
