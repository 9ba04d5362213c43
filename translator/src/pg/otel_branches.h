// The OTEL relation compiled per query: the UNION ALL branches of logs.otel_events (migration 020)
// for only the sources a query's WHERE leaves, so PostgreSQL plans those tables alone instead of
// planning all nine branches of the view and then removing the others.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lqe::pg {

// SELECT ... FROM logs.<table> AS t [UNION ALL ...]: the view's branches whose source (Studio's
// name: edge_logs, postgres_logs, ...) is in `sources`, with the view's columns and types. No
// known source: one branch that reads nothing (WHERE false).
std::string OtelBranchesSql(const std::vector<std::string>& sources);

// Whether `source` names a branch of the relation.
bool IsOtelSource(std::string_view source);

}  // namespace lqe::pg
