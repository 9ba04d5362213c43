// Logflare's management API (/api/sources, /api/backends, /api/rules), as self-hosted
// Supabase Studio's Log Drains page calls it. Only keys with the private scope may call it.
#pragma once

#include <string_view>

#include "lqe/gateway/handler.h"

namespace lqe::gateway::management {

bool IsManagementPath(std::string_view path);
// The whole request: auth, method, body checks, then the change or read in PostgreSQL (blocks).
Response Handle(const Request& request, const GatewayState& state);

}  // namespace lqe::gateway::management
