// CTE lists for LQL tests, typed from schema/catalogue_seed.tsv the way the stored logs.all
// query selects them (timestamp, id, event_message, metadata of one source each).
#pragma once

#include <string>
#include <vector>

#include "lqe/lql.h"

namespace lqe::testing {

// The eleven CTEs of sql/logs.all.sql, in order.
std::vector<lql::CteInfo> LogsAllCtes();
// CTEs by name, comma-separated: any logs.all CTE, plus "errors" (a STRING, n INT64: no
// timestamp/id/event_message) and "typed" (timestamp, seen TIMESTAMP, d DATE, n NUMERIC). An empty
// string gives no CTEs.
std::vector<lql::CteInfo> CtesNamed(const std::string& names);

}  // namespace lqe::testing
