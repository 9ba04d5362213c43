// The ingest routes (POST /api/logs, /logs, /api/events): auth and source selection on the fast
// path, then body parsing and event forming on a worker, then the group-commit queue.
#pragma once

#include <variant>

#include "lqe/gateway/handler.h"
#include "lqe/gateway/ingest.h"
#include "lqe/gateway/params.h"

namespace lqe::gateway::ingest {

bool IsIngestPath(std::string_view path);

// Auth, method and (when the URL or headers name it) the source: a response, or the pending
// request for a worker.
FastOutcome HandleFast(const Request& request, RawParams raw, const GatewayState& state);
// Parses the body and forms the events: the job to submit, or the response (400, 401, 406, 413,
// 415, or 200 for an empty batch).
std::variant<Response, IngestJob> PrepareJob(const Request& request, const PendingRequest& pending,
                                             const GatewayState& state,
                                             const std::function<std::int64_t()>& now_micros);
// The answer once the queue took the job (or refused it: 429) and the writer finished it.
Response QueueFullResponse(int retry_after_seconds);
Response OutcomeResponse(const IngestOutcome& outcome);
// Submits and waits on the calling thread (Handle(), tests): the blocking form of the path.
Response SubmitAndWait(IngestJob job, Context& context);

}  // namespace lqe::gateway::ingest
