// The ClickHouse front end's second half: a query parsed with ClickHouse's lexical rules becomes
// the BigQuery AST the PostgreSQL emitter knows, with ClickHouse's meaning kept. Functions go
// through clickhouse/functions.cpp; m['key'] on a map column reads '' for a missing key; GROUP BY
// an output alias groups by that output; a number used as a condition is true when non-zero; the
// table `logs` is the OTEL relation logs.otel unless a CTE of that name is visible. Anything the
// front end does not support is refused with a positioned error.
#pragma once

#include <string>
#include <vector>

#include "ast/query.h"

namespace lqe::clickhouse {

// `ctes`: CTE names visible to the query from outside (a sandbox's stored CTEs).
// `final_replaced`: the query is a sandboxed endpoint's stored query, whose final SELECT callers
// replace: its CTEs' reads of `logs` are then not restricted by what that SELECT reads.
void Lower(ast::Query& query, const std::vector<std::string>& ctes, bool final_replaced = false);

}  // namespace lqe::clickhouse
