// The parameters of /api/logs/events, /api/logs/hits and /api/logs/facets: the key (one that may
// run every endpoint, as for the live tail), the source, the LQL filter, the time range and each
// API's own parameter, checked into a LogRequest or the 4xx error to answer.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/gateway/errors.h"
#include "lqe/gateway/handler.h"

namespace lqe::gateway::logapi {

enum class LogApi : std::uint8_t { kEvents, kHits, kFacets };

// The API a path names, if any.
std::optional<LogApi> LogApiOf(std::string_view path);

struct LogRequest {
  LogApi api = LogApi::kEvents;
  std::string source;  // the source's name
  std::string table;   // its log table (from the config: [a-z0-9_])
  std::string lql;
  std::int64_t start_micros = 0;  // [start, end)
  std::int64_t end_micros = 0;
  bool range_given = false;             // both ends named by the caller: the answer may be cached
  int limit = 0;                        // events: 1..1000 (100); facets: 1..100 (10)
  int buckets = 60;                     // hits: 10..500
  std::string field;                    // facets: as given
  std::vector<std::string> field_path;  // facets: {"metadata", "level"}
};

constexpr std::int64_t kMaxRangeMicros = 31LL * 86400 * 1000000;

std::variant<LogRequest, GatewayError> ParseLogRequest(LogApi api, const Request& request,
                                                       const RawParams& raw,
                                                       const GatewayState& state,
                                                       std::chrono::system_clock::time_point now);

// A dotted field path ("metadata.level", "m.level", "event_message"), its first segment
// resolved to a column; nullopt when it names none or has an empty segment.
std::optional<std::vector<std::string>> ParseFieldPath(std::string_view field);

}  // namespace lqe::gateway::logapi
