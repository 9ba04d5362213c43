// POST /v1/logs: OpenTelemetry log records over OTLP/HTTP (protobuf or JSON, gzip or not), stored
// like any other event. Each resource's records go to the source the request names (x-source,
// ?source=, ?source_name=), else to the one its service.name names (otlp_source.h); one ingest
// job per log table, answered with OTLP's ExportLogsServiceResponse in the request's encoding.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/gateway/handler.h"
#include "lqe/gateway/ingest.h"
#include "lqe/otlp/logs_service.pb.h"

namespace lqe::gateway::ingest::otlp {

bool IsOtlpLogsPath(std::string_view path);

struct OtlpBatch {
  std::vector<IngestJob> jobs;          // one per log table
  std::vector<std::size_t> job_events;  // each job's event count (the jobs move to the queue)
  std::size_t refused = 0;  // records refused while forming (a time out of range, a NUL)
  std::vector<std::string> refusals;
  bool protobuf = false;  // the request was protobuf, so is the answer
};

// Decodes the body and forms the events: the jobs, or the answer (400, 401, 413, 415, 422; 200
// for a request without records). A service.name that names no source gets one of its own
// through `creator` (null: it is refused).
std::variant<Response, OtlpBatch> PrepareOtlp(const Request& request, const IngestTarget& target,
                                              const GatewayState& state,
                                              const std::function<std::int64_t()>& now_micros,
                                              IngestService* creator = nullptr);

// The answer once every job is done: outcomes[i] is jobs[i]'s, nullopt when the queue was full
// (429). A retry after 429 or 503 stores nothing twice (the ids are derived from the body).
Response OtlpAnswer(const OtlpBatch& batch,
                    const std::vector<std::optional<IngestOutcome>>& outcomes,
                    int retry_after_seconds);

// Prepare, submit each job and wait on the calling thread (Handle(), tests).
Response HandleOtlp(const Request& request, const PendingRequest& pending, Context& context);

// One log record as the event posted to the log tables (before event forming). Exposed for tests.
boost::json::object RecordToEvent(const opentelemetry::proto::logs::v1::ResourceLogs& resource,
                                  const opentelemetry::proto::logs::v1::ScopeLogs& scope,
                                  const opentelemetry::proto::logs::v1::LogRecord& record,
                                  const boost::json::storage_ptr& storage = {});

}  // namespace lqe::gateway::ingest::otlp
