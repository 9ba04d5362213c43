// What a StoredQueryCache (lqe/stored_query_cache.h) holds: a stored query's translated CTEs and
// the emitter state after them, so per request only the consumer is parsed, checked and emitted.
// A statement carries only the stored CTEs its query reads: PostgreSQL plans nothing for an unread
// CTE, yet parses and analyses it, which for logs.all (nine CTEs, one read) is most of planning.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "lqe/stored_query_cache.h"
#include "lqe/translate.h"
#include "pg/emitter.h"

namespace lqe::translator {

struct StoredWith {
  std::vector<pg::Emitter::CteText> ctes;  // reads closed over the CTEs each one reads
  pg::Emitter::State state;
};

// Emits `ctes` with what each reads, directly or through another CTE.
StoredWith EmitStoredCtes(pg::Emitter& emitter, const std::vector<ast::Cte>& ctes);

// "WITH ..." of the stored CTEs `reads` names, and those they read; every stored CTE when one left
// out would leave a parameter of `params` unread (PostgreSQL then cannot type it). "" for none.
std::string KeptWith(const StoredWith& stored, const pg::Emitter::Reads& reads, std::size_t params);

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
