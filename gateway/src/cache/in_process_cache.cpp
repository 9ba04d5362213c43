// In-process result cache. Hits take one shard's shared lock and touch atomics only; misses
// run the loader once per key (single flight) outside any lock; the warmer re-runs loaders of
// entries requested since their last fill and swaps results in, so a warm entry never becomes a
// cold miss: an entry whose refresh is still running past its lifetime is served as STALE until
// the refresh ends (bounded by the refresh's own statement timeout). Eviction scans for the least
// recently used entry, which is only done on inserts.
#include <spdlog/spdlog.h>

#include <atomic>
#include <future>
#include <shared_mutex>
#include <unordered_map>

#include "lqe/gateway/errors.h"
#include "lqe/gateway/result_cache.h"

namespace lqe::gateway {

std::string_view CacheStateName(CacheState state) {
  switch (state) {
    case CacheState::kHit:
      return "HIT";
    case CacheState::kStale:
      return "STALE";
    case CacheState::kMiss:
      return "MISS";
    case CacheState::kBypass:
      return "BYPASS";
  }
  return "MISS";
}

namespace {

using TimePoint = Clock::time_point;

struct Entry {
  std::string endpoint_id;
  CachePolicy policy;
  Loader refresher;
  // Guarded by the shard's mutex:
  ResultPtr result;
  TimePoint filled_at;
  TimePoint expires_at;
  std::size_t bytes = 0;
  bool refreshing = false;
  // Touched by hits under the shared lock:
  std::atomic<TimePoint::rep> last_requested{TimePoint::min().time_since_epoch().count()};
  std::atomic<std::uint64_t> last_used{0};
};

struct Shard {
  mutable std::shared_mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<Entry>> entries;
  std::unordered_map<std::string, std::shared_future<LoadOutcome>> flights;
};

constexpr std::size_t kShards = 32;

// Heap an entry holds besides its result: the entry and its reference counts, the map node, the
// key (kept by the map), the endpoint id, and the loader's captures (the translation handle, the
// bound arguments, the query runner), which a std::function keeps out of sight; 512 bytes covers
// a loader with a handful of short arguments.
std::size_t EntryOverhead(const std::string& key, const std::string& endpoint_id) {
  constexpr std::size_t kLoader = 512;
  constexpr std::size_t kNode =
      sizeof(void*) + sizeof(std::string) + sizeof(std::shared_ptr<void>) + sizeof(std::size_t);
  return HeapFootprint(sizeof(Entry) + 16) + HeapFootprint(kNode) + StringFootprint(key) +
         StringFootprint(endpoint_id) + kLoader;
}

class InProcessCache final : public ResultCache {
 public:
  InProcessCache(const Clock& clock, std::size_t max_bytes)
      : clock_(clock), max_bytes_(max_bytes) {}

  std::optional<CacheLookup> Peek(const std::string& key) override {
    Shard& shard = ShardFor(key);
    std::shared_lock lock(shard.mutex);
    auto it = shard.entries.find(key);
    if (it == shard.entries.end()) return std::nullopt;
    return Serve(*it->second);
  }

  CacheLookup GetOrLoad(const std::string& key, const std::string& endpoint_id,
                        const CachePolicy& policy, const Loader& loader,
                        const Loader& refresher) override {
    if (auto hit = Peek(key)) return *hit;
    Shard& shard = ShardFor(key);
    std::shared_future<LoadOutcome> flight;
    std::promise<LoadOutcome> promise;
    {
      std::unique_lock lock(shard.mutex);
      auto it = shard.entries.find(key);
      if (it != shard.entries.end()) {
        if (auto hit = Serve(*it->second)) return *hit;
        Erase(shard, it);
      }
      if (auto f = shard.flights.find(key); f != shard.flights.end()) {
        flight = f->second;
      } else {
        shard.flights.emplace(key, promise.get_future().share());
      }
    }
    misses_.fetch_add(1, std::memory_order_relaxed);
    if (flight.valid()) return CacheLookup{flight.get(), CacheState::kMiss, {}};
    LoadOutcome outcome = RunLoader(loader);
    promise.set_value(outcome);
    std::unique_lock lock(shard.mutex);
    shard.flights.erase(key);
    if (const auto* result = std::get_if<ResultPtr>(&outcome); result && policy.ttl.count() > 0) {
      Insert(shard, key, endpoint_id, policy, refresher, *result);
      lock.unlock();
      EvictOverBudget();
    }
    return CacheLookup{outcome, CacheState::kMiss, {}};
  }

  void InvalidateEndpoint(const std::string& endpoint_id) override {
    for (Shard& shard : shards_) {
      std::unique_lock lock(shard.mutex);
      for (auto it = shard.entries.begin(); it != shard.entries.end();) {
        it = it->second->endpoint_id == endpoint_id ? Erase(shard, it) : std::next(it);
      }
    }
  }

  void RunWarming(const std::function<void(std::function<void()>)>& spawn) override;

  CacheStats Stats() const override {
    CacheStats s;
    s.hits = hits_.load();
    s.misses = misses_.load();
    s.stale = stale_.load();
    s.evictions = evictions_.load();
    s.refreshes = refreshes_.load();
    s.refresh_failures = refresh_failures_.load();
    s.entries = entries_.load();
    s.bytes = bytes_.load();
    return s;
  }

 private:
  Shard& ShardFor(const std::string& key) {
    return shards_[std::hash<std::string>{}(key) % kShards];
  }

  // Serves a live entry (caller holds the shard lock); nullopt when it has expired and no
  // refresh of it is running.
  std::optional<CacheLookup> Serve(Entry& entry) {
    TimePoint now = clock_.Now();
    bool expired = now >= entry.expires_at;
    if (expired && !entry.refreshing) return std::nullopt;
    entry.last_requested.store(now.time_since_epoch().count(), std::memory_order_relaxed);
    entry.last_used.store(tick_.fetch_add(1, std::memory_order_relaxed), std::memory_order_relaxed);
    auto age = std::chrono::duration_cast<std::chrono::seconds>(now - entry.filled_at);
    bool stale =
        expired || (entry.policy.warming && now - entry.filled_at >= *entry.policy.warming);
    (stale ? stale_ : hits_).fetch_add(1, std::memory_order_relaxed);
    return CacheLookup{entry.result, stale ? CacheState::kStale : CacheState::kHit, age};
  }

  static LoadOutcome RunLoader(const Loader& loader) {
    try {
      return loader();
    } catch (const std::exception& e) {
      spdlog::error("query failed: {}", e.what());
      return MakeError(500, "internal error while running the query", "internal");
    }
  }

  void Insert(Shard& shard, const std::string& key, const std::string& endpoint_id,
              const CachePolicy& policy, const Loader& refresher, const ResultPtr& result) {
    std::size_t bytes = result->Bytes() + EntryOverhead(key, endpoint_id);
    if (bytes > max_bytes_) return;
    auto entry = std::make_shared<Entry>();
    entry->endpoint_id = endpoint_id;
    entry->policy = policy;
    entry->refresher = refresher;
    entry->result = result;
    entry->filled_at = clock_.Now();
    entry->expires_at = entry->filled_at + policy.ttl;
    entry->bytes = bytes;
    entry->last_used.store(tick_.fetch_add(1));
    if (auto old = shard.entries.find(key); old != shard.entries.end()) Erase(shard, old);
    shard.entries.emplace(key, entry);
    bytes_ += entry->bytes;
    entries_ += 1;
  }

  using EntryIt = std::unordered_map<std::string, std::shared_ptr<Entry>>::iterator;
  EntryIt Erase(Shard& shard, EntryIt it) {
    bytes_ -= it->second->bytes;
    entries_ -= 1;
    return shard.entries.erase(it);
  }

  void EvictOverBudget();

  const Clock& clock_;
  const std::size_t max_bytes_;
  std::array<Shard, kShards> shards_;
  std::atomic<std::uint64_t> tick_{1};
  std::atomic<std::uint64_t> hits_{0}, misses_{0}, stale_{0}, evictions_{0}, refreshes_{0},
      refresh_failures_{0}, entries_{0}, bytes_{0};
};

void InProcessCache::EvictOverBudget() {
  while (bytes_.load() > max_bytes_) {
    Shard* victim_shard = nullptr;
    std::string victim_key;
    std::uint64_t oldest = UINT64_MAX;
    for (Shard& shard : shards_) {
      std::shared_lock lock(shard.mutex);
      for (const auto& [key, entry] : shard.entries) {
        std::uint64_t used = entry->last_used.load(std::memory_order_relaxed);
        if (used < oldest) {
          oldest = used;
          victim_shard = &shard;
          victim_key = key;
        }
      }
    }
    if (victim_shard == nullptr) return;
    std::unique_lock lock(victim_shard->mutex);
    auto it = victim_shard->entries.find(victim_key);
    if (it == victim_shard->entries.end()) continue;
    Erase(*victim_shard, it);
    evictions_.fetch_add(1);
  }
}

void InProcessCache::RunWarming(const std::function<void(std::function<void()>)>& spawn) {
  TimePoint now = clock_.Now();
  struct Due {
    Shard* shard;
    std::string key;
    std::shared_ptr<Entry> entry;
  };
  std::vector<Due> due;
  for (Shard& shard : shards_) {
    std::unique_lock lock(shard.mutex);
    for (auto it = shard.entries.begin(); it != shard.entries.end();) {
      Entry& e = *it->second;
      if (now >= e.expires_at && !e.refreshing) {
        it = Erase(shard, it);
        continue;
      }
      bool requested = e.last_requested.load() >= e.filled_at.time_since_epoch().count();
      if (e.policy.warming && !e.refreshing && requested &&
          now - e.filled_at >= *e.policy.warming) {
        e.refreshing = true;
        due.push_back(Due{&shard, it->first, it->second});
      }
      ++it;
    }
  }
  for (Due& d : due) {
    spawn([this, shard = d.shard, key = d.key, entry = d.entry] {
      LoadOutcome outcome = RunLoader(entry->refresher);
      std::unique_lock lock(shard->mutex);
      entry->refreshing = false;
      auto live = shard->entries.find(key);
      bool still_cached = live != shard->entries.end() && live->second == entry;
      if (const auto* result = std::get_if<ResultPtr>(&outcome)) {
        if (!still_cached) return;  // invalidated or evicted meanwhile
        std::size_t old_bytes = entry->bytes;
        entry->result = *result;
        entry->filled_at = clock_.Now();
        entry->expires_at = entry->filled_at + entry->policy.ttl;
        entry->bytes = (*result)->Bytes() + EntryOverhead(key, entry->endpoint_id);
        bytes_ += entry->bytes;
        bytes_ -= old_bytes;
        refreshes_.fetch_add(1);
      } else {
        refresh_failures_.fetch_add(1);
        spdlog::warn(
            "cache warming of an entry of endpoint {} failed (status {}); keeping the "
            "previous result until it expires",
            entry->endpoint_id, std::get<GatewayError>(outcome).status);
      }
    });
  }
}

}  // namespace

std::unique_ptr<ResultCache> MakeInProcessCache(const Clock& clock, std::size_t max_bytes) {
  return std::make_unique<InProcessCache>(clock, max_bytes);
}

}  // namespace lqe::gateway
