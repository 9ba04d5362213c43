// GET /api/openapi: an OpenAPI 3.1 document of the running configuration: every endpoint with
// its typed parameters and its result columns' JSON types, and the management API's routes.
#pragma once

#include <string>

#include "lqe/gateway/handler.h"

namespace lqe::gateway::management {

std::string OpenApiDocument(const GatewayState& state);
// GET /api/endpoints/openapi.json: the same document with only the endpoints `key` may run (and
// no management routes).
std::string EndpointsOpenApiDocument(const GatewayState& state, const ApiKey& key);

}  // namespace lqe::gateway::management
