// Test-only: renders the AST LQL lowering produces back to BigQuery SQL text, for the golden
// tests and the LQL fuzzer (not part of the translator library). Covers the node kinds lowering
// emits; other kinds render as <Kind>.
#pragma once

#include <string>

#include "ast/query.h"

namespace lqe::lql {

std::string RenderBigQuery(const ast::Query& query);
std::string RenderBigQuery(const ast::Expr& expr);

}  // namespace lqe::lql
