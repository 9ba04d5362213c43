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

// `name AS NOT MATERIALIZED (...)`, unless the CTE calls a volatile function: inlined in two
// places, it would then be evaluated twice where BigQuery's result is one evaluation.
std::string NotMaterialized(const std::string& cte) {
  if (cte.find("random") != std::string::npos) return cte;  // RAND(), GENERATE_UUID()
  const std::size_t as = cte.find(" AS (");
  if (as == std::string::npos) return cte;
  return cte.substr(0, as) + " AS NOT MATERIALIZED (" + cte.substr(as + 5);
}

}  // namespace

StoredWith EmitStoredCtes(pg::Emitter& emitter, const std::vector<ast::Cte>& ctes) {
  StoredWith out;
  emitter.TakeReads();
  out.ctes = emitter.EmitCtes(ctes);
  for (std::size_t i = 0; i < out.ctes.size(); ++i) {
    // A CTE reads only earlier ones; a larger index is a CTE nested in its own WITH.
    pg::Emitter::Reads& reads = out.ctes[i].reads;
    std::set<std::size_t> direct;
    for (std::size_t c : reads.ctes) {
      if (c < i) direct.insert(c);
    }
    reads.ctes = direct;
    for (std::size_t c : direct) {
      const auto& more = out.ctes[c].reads.ctes;
      reads.ctes.insert(more.begin(), more.end());
    }
  }
  out.state = emitter.SaveState();
  emitter.TakeReads();
  return out;
}

std::string KeptWith(const StoredWith& stored, const pg::Emitter::Reads& reads,
                     std::size_t params) {
  std::set<std::size_t> kept;
  for (std::size_t c : reads.ctes) {
    if (c >= stored.ctes.size()) continue;  // the consumer's own
    kept.insert(c);
    kept.insert(stored.ctes[c].reads.ctes.begin(), stored.ctes[c].reads.ctes.end());
  }
  std::set<std::size_t> bound = reads.params;
  for (std::size_t c : kept) {
    bound.insert(stored.ctes[c].reads.params.begin(), stored.ctes[c].reads.params.end());
  }
  bool all = false;
  for (std::size_t p = 1; p <= params; ++p) all = all || bound.count(p) == 0;
  std::string sql;
  for (std::size_t c = 0; c < stored.ctes.size(); ++c) {
    if (!all && kept.count(c) == 0) continue;
    std::string cte = stored.ctes[c].sql;
    if (reads.inline_ctes.count(c) != 0) cte = NotMaterialized(cte);
    sql += (sql.empty() ? "WITH " : ", ") + cte;
  }
  return sql;
}

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
