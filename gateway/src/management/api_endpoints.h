// Endpoints created through the management API (lqe_admin.endpoints, 022_api_endpoints.sql):
// loaded into every configuration snapshot beside the endpoint files.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lqe/gateway/config.h"

namespace lqe::gateway::management {

// The stored endpoints of `config.dsn`, parsed and translated against `catalog`. One that no
// longer translates (the catalogue changed) or whose name a file's endpoint has is left out with a
// warning; a database without the table, or out of reach, gives none.
std::vector<std::shared_ptr<EndpointDef>> LoadApiEndpoints(const Config& config,
                                                           const Catalog& catalog);

// What marks a change of the endpoints and sources created through the API (their counts and
// latest changes), for the gateways' watch; empty when it cannot be read.
std::string ApiStateMark(const std::string& dsn);

}  // namespace lqe::gateway::management
