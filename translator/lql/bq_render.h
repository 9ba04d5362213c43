// Renders the AST LQL lowering produces back to BigQuery SQL text: for golden tests, for
// `lqe translate --lql` diagnostics, and to feed the SQL front end as a cross-check. Covers
// the node kinds lowering emits; other kinds render as <Kind>.
#pragma once

#include <string>

#include "ast/query.h"

namespace lqe::lql {

std::string RenderBigQuery(const ast::Query& query);
std::string RenderBigQuery(const ast::Expr& expr);

}  // namespace lqe::lql
