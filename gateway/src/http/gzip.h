// gzip compression of response bodies (libdeflate).
#pragma once

#include <string>
#include <string_view>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

// level: 1 (fastest) .. 12 (smallest); 6 is the usual balance.
std::string Gzip(std::string_view data, int level = 6);
// True when the request's Accept-Encoding allows gzip.
bool AcceptsGzip(const Request& request);

}  // namespace lqe::gateway
