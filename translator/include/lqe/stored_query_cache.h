// A stored query's translated WITH clause, kept by the caller rather than inside the library:
// the gateway keeps one per endpoint in its configuration snapshot, so a reload drops it with the
// rest of the old state. With one passed in TranslateOptions::stored_cache, a sandboxed
// Translate() of the same stored query parses, checks and emits only the consumer's query.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "lqe/catalog.h"

namespace lqe {

namespace translator {
struct StoredWith;  // the translated WITH and the emitter state after it (translator-private)
struct StoredCacheAccess;
}  // namespace translator

// Thread-safe; one per stored query is the intended use (a few entries: the consumer ordering
// its own result or not, and catalogue changes).
class StoredQueryCache {
 public:
  StoredQueryCache() = default;
  StoredQueryCache(const StoredQueryCache&) = delete;
  StoredQueryCache& operator=(const StoredQueryCache&) = delete;

  std::size_t size() const;

 private:
  friend struct translator::StoredCacheAccess;
  static constexpr std::size_t kMaxEntries = 8;  // then it starts over

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const translator::StoredWith>> entries_;
};

}  // namespace lqe
