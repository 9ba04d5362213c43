// The chart query of c: rules: TIMESTAMP_TRUNC(timestamp, <period>) AS timestamp and one
// aggregate column, grouped by bucket, oldest bucket first.
#pragma once

#include <string>

#include "ast/query.h"
#include "lqe/lql.h"
#include "lql/rules.h"

namespace lqe::lql {

// Column names: count for count(*) and count(f); countd_<f>, avg_<f>, sum_<f>, max_<f>,
// p50_<f>, p95_<f>, p99_<f> with <f> the field's last path segment.
std::string ChartColumnName(Aggregate aggregate, const std::string& field);

// Throws LqlError when s: is combined with a chart, the CTE has no timestamp, or the aggregate
// does not fit the field's type.
ast::QueryPtr BuildChartQuery(const Rules& rules, const CteInfo& cte, ast::ExprPtr where);

}  // namespace lqe::lql
