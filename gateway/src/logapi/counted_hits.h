// The histogram of a source without a filter, from the per-minute counts kept by the writers
// (024_source_minute_counts.sql): the whole minutes of the range are read from the counts and only
// the partial minutes at its two ends from the log table, so seven days of events cost a few
// thousand count rows instead of millions of events. The statement checks the table's coverage
// itself (logs.minute_counts_cover) and counts the table whole when it is not covered, so the
// answer is exact either way.
#pragma once

#include <optional>
#include <string>

#include "logapi/bucket_size.h"
#include "logapi/filter_sql.h"
#include "logapi/log_request.h"

namespace lqe::gateway::logapi {

// The statement (columns: bucket index, count), or nullopt when the counts cannot help: buckets
// shorter than a minute, or a range that holds no whole minute.
std::optional<std::string> CountedHitsSql(const LogRequest& r, const Buckets& buckets,
                                          SqlParams& params);

}  // namespace lqe::gateway::logapi
