// Which listener serves which route, and the /metrics key (config `admin:`).
#pragma once

#include <optional>

#include "handlers/routes.h"

namespace lqe::gateway {

// The refusal of a request its listener does not serve, or of /metrics without its key:
// - on admin.listen, everything but /metrics, /health and /ready is a 404;
// - with admin.listen set, /metrics on the API listener is a 404 (/health and /ready stay, for
//   container health checks);
// - with admin.metrics_key_sha256 set, /metrics without that key (Bearer or X-API-KEY) is a 401.
std::optional<Response> AdminRouteRefusal(const Request& request, Route::Kind kind,
                                          const Context& context);

}  // namespace lqe::gateway
