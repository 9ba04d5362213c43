// The web console: GET / and GET /console/<file> answer the embedded assets, gzip-compressed
// once (when the client accepts gzip) and revalidated by strong ETag, with security headers
// that keep the page to its own scripts and styles.
#pragma once

#include <string_view>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway::console {

// "/", "/console", "/console/" and "/console/<anything>" (an unknown file answers 404).
bool IsConsolePath(std::string_view path);
// The whole request: method (GET and HEAD; 405 otherwise), file lookup, revalidation.
Response Serve(const Request& request, std::string_view path);

}  // namespace lqe::gateway::console
