// The LQL parser: text to rules (lql/rules.h). Schema-free; typing is lowering's job.
#pragma once

#include <cstddef>
#include <string_view>
#include <variant>

#include "lqe/diagnostic.h"
#include "lql/rules.h"

namespace lqe::lql {

inline constexpr std::size_t kMaxClauses = 100;
inline constexpr std::size_t kMaxLqlBytes = 64 * 1024;

// Parses the whole text; anything it cannot read is an error at the offset where it stopped
// (DiagSource::kConsumerLql). Clauses are separated by whitespace; an empty text has no rules.
std::variant<Rules, Diagnostic> Parse(std::string_view text);

}  // namespace lqe::lql
