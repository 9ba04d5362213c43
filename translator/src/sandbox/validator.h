// The sandbox pass: a consumer query (Studio's ?sql=, or lowered LQL) may read only the stored
// query's CTEs and its own, call only functions of the function table, and nothing else. Runs on
// the consumer AST before emission; each rule is one check that throws a positioned diagnostic.
#pragma once

#include <string>
#include <vector>

#include "ast/query.h"

namespace lqe::sandbox {

struct Rules {
  std::vector<std::string> stored_ctes;  // names the consumer may read, in stored order
};

// Throws translator::Error (DiagCode::kSandbox) on the first violation.
void Validate(const ast::Query& consumer, const Rules& rules);

}  // namespace lqe::sandbox
