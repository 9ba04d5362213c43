// A count chart over a stored CTE that is the plain project-and-bounds read of a log table,
// counted by logs.count_by_bucket (migration 040) so each shard node counts its own days:
// `SELECT TIMESTAMP_TRUNC(timestamp, unit) AS a, COUNT(*) AS b FROM <cte> GROUP BY 1 [ORDER BY 1]`
// (unit SECOND, MINUTE, HOUR or DAY). Any other query keeps the ordinary plan.
#pragma once

#include <optional>

#include "ast/query.h"
#include "pg/emitter.h"

namespace lqe::translator {

// The CTE the consumer counts, when its shape is a count chart (checked before the stored
// query is parsed again for EmitCountChart).
std::optional<std::string> CountChartCte(const ast::Query& consumer);

// The consumer as a call of logs.count_by_bucket, when `stored` defines the CTE as the plain
// read of a log table by project and time bounds; nullopt otherwise.
std::optional<pg::QueryOut> EmitCountChart(pg::Emitter& emitter, const ast::Query& consumer,
                                           const ast::Query& stored);

}  // namespace lqe::translator
