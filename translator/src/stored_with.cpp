#include "stored_with.h"

#include <cstdint>

namespace lqe {
namespace translator {
namespace {

bool StillValid(const StoredWith& entry, const Catalog& catalog) {
  for (const TypePtr& row : entry.state.source_rows) {
    bool found = false;
    for (const auto& name : catalog.SourceNames()) {
      const SourceSchema* s = catalog.FindSource(name);
      if (s && s->row == row) found = true;
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

std::string StoredCacheKey(std::string_view bq_sql, const TranslateOptions& options,
                           bool drop_cte_order) {
  std::string key(bq_sql);
  key += '\0';
  key += std::to_string(reinterpret_cast<std::uintptr_t>(options.catalog));
  for (const auto& [name, type] : options.params) {
    key += '\0' + name + ':' + (type ? TypeName(*type) : "?");
  }
  key += drop_cte_order ? "\1" : "\2";
  return key;
}

std::shared_ptr<const StoredWith> StoredCacheAccess::Find(const StoredQueryCache& cache,
                                                          const std::string& key,
                                                          const Catalog& catalog) {
  std::lock_guard<std::mutex> lock(cache.mutex_);
  const auto it = cache.entries_.find(key);
  if (it == cache.entries_.end() || !StillValid(*it->second, catalog)) return nullptr;
  return it->second;
}

void StoredCacheAccess::Put(StoredQueryCache& cache, const std::string& key,
                            std::shared_ptr<const StoredWith> entry) {
  std::lock_guard<std::mutex> lock(cache.mutex_);
  if (cache.entries_.size() >= StoredQueryCache::kMaxEntries) cache.entries_.clear();
  cache.entries_[key] = std::move(entry);
}

}  // namespace translator

std::size_t StoredQueryCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace lqe
