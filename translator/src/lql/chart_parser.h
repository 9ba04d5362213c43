// c:/chart: clauses: one aggregate (count(*), count(f), countd(f), avg|sum|max|p50|p95|p99(f))
// and one group_by(t::period); several c: clauses merge into one chart rule.
#pragma once

#include <cstddef>

#include "lql/parse_util.h"
#include "lql/rules.h"

namespace lqe::lql {

// The cursor is just after "c:"; `start` is where the clause began.
void ParseChartClause(Cursor& cur, std::size_t start, Rules& rules);

}  // namespace lqe::lql
