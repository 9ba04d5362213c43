// GET /api/logs/events, /api/logs/hits, /api/logs/facets (the console's search, histogram and
// top values over a source's log table) and GET /api/endpoints/openapi.json (the OpenAPI
// document of the endpoints the calling key may run). docs/console.md describes them.
#pragma once

#include <string_view>

#include "lqe/gateway/handler.h"

namespace lqe::gateway::logapi {

bool IsLogApiPath(std::string_view path);
// Every check (key, parameters, LQL) without blocking: the error, or the pending request.
FastOutcome HandleFast(const Request& request, const RawParams& raw, Context& context);
// The whole request; queries PostgreSQL (blocks), through the cache when the range is given.
Response Handle(const Request& request, Context& context);

}  // namespace lqe::gateway::logapi
