// Calls the ClickHouse lowering makes to forms no BigQuery function expresses (JSONExtractRaw
// reads the JSON text in document order, which jsonb loses). Their names start with "lqe:", which
// no unquoted identifier can spell, so a query's own text never reaches them; the sandbox lets
// them through and the emitter handles them before the function table (pg/internal_calls.cpp).
#pragma once

#include <string_view>

#include "ast/query.h"

namespace lqe::functions {

inline constexpr std::string_view kJsonExtractRaw = "lqe:JSONExtractRaw";

inline bool IsInternalCall(const ast::Call& call) {
  return !call.name.quoted && call.name.name.starts_with("lqe:");
}

}  // namespace lqe::functions
