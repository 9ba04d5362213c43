// What a StoredQueryCache (lqe/stored_query_cache.h) holds: a stored query's translated WITH and
// the emitter state after it, so per request only the consumer is parsed, checked and emitted.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "lqe/stored_query_cache.h"
#include "lqe/translate.h"
#include "pg/emitter.h"

namespace lqe::translator {

struct StoredWith {
  std::string with_sql;
  pg::Emitter::State state;
};

// The key of a stored translation: the text, the catalogue's address, the declared parameter
// types, and whether the CTEs' ORDER BYs were dropped (see Emitter::SetDropCteOrder).
std::string StoredCacheKey(std::string_view bq_sql, const TranslateOptions& options,
                           bool drop_cte_order);

struct StoredCacheAccess {
  // nullptr when absent, or when the catalogue no longer has the very row types the entry was
  // translated against (the entry keeps them alive, so a rebuilt catalogue never matches by
  // accident).
  static std::shared_ptr<const StoredWith> Find(const StoredQueryCache& cache,
                                                const std::string& key, const Catalog& catalog);
  static void Put(StoredQueryCache& cache, const std::string& key,
                  std::shared_ptr<const StoredWith> entry);
};

}  // namespace lqe::translator
