#include "logapi/counted_hits.h"

#include "tail/tail_hub.h"

namespace lqe::gateway::logapi {
namespace {

constexpr std::int64_t kMinuteMicros = 60LL * 1000000;

std::int64_t FloorMinute(std::int64_t micros) {
  std::int64_t q = micros / kMinuteMicros;
  if (micros % kMinuteMicros != 0 && micros < 0) --q;
  return q * kMinuteMicros;
}

}  // namespace

std::optional<std::string> CountedHitsSql(const LogRequest& r, const Buckets& buckets,
                                          SqlParams& params) {
  // Buckets of whole minutes, aligned to minutes (bucket_size.h): each minute lies in one bucket.
  if (buckets.seconds < 60 || buckets.seconds % 60 != 0) return std::nullopt;
  const std::int64_t whole_from = FloorMinute(r.start_micros + kMinuteMicros - 1);
  const std::int64_t whole_to = FloorMinute(r.end_micros);
  if (whole_from >= whole_to) return std::nullopt;

  const std::string table = params.Add(r.table) + "::text";
  const std::string start = params.Add(tail::IsoMicros(r.start_micros)) + "::timestamptz";
  const std::string end = params.Add(tail::IsoMicros(r.end_micros)) + "::timestamptz";
  const std::string from = params.Add(tail::IsoMicros(whole_from)) + "::timestamptz";
  const std::string to = params.Add(tail::IsoMicros(whole_to)) + "::timestamptz";
  const std::string first = params.Add(std::to_string(buckets.first_micros)) + "::bigint";
  const std::string size = params.Add(std::to_string(buckets.seconds * 1000000)) + "::bigint";
  const std::string covered = "logs.minute_counts_cover(" + table + ")";
  // The config's table names are [a-z0-9_] (log_request.h).
  const std::string events = "logs.\"" + r.table + "\" AS e";
  auto counts = [&](const std::string& counts_table) {
    return "SELECT c.\"timestamp\", c.events FROM logs." + counts_table +
           " AS c WHERE c.source_table = " + table + " AND c.\"timestamp\" >= " + from +
           " AND c.\"timestamp\" < " + to + " AND " + covered;
  };
  // Without coverage (a sharded table, one made outside lqe) the one-time filters leave only the
  // last branch, which counts the whole range from the table.
  return "SELECT ((extract(epoch FROM m.t) * 1000000)::bigint - " + first + ") / " + size +
         " AS b, sum(m.n)::bigint FROM (" + counts("source_minute_counts") + " UNION ALL " +
         counts("source_minute_counts_delta") + " UNION ALL SELECT e.\"timestamp\", 1 FROM " +
         events + " WHERE ((e.\"timestamp\" >= " + start + " AND e.\"timestamp\" < " + from +
         ") OR (e.\"timestamp\" >= " + to + " AND e.\"timestamp\" < " + end + ")) AND " + covered +
         " UNION ALL SELECT e.\"timestamp\", 1 FROM " + events +
         " WHERE e.\"timestamp\" >= " + start + " AND e.\"timestamp\" < " + end + " AND NOT " +
         covered + ") AS m(t, n) GROUP BY 1";
}

}  // namespace lqe::gateway::logapi
