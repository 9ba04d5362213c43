// gzip compression of response bodies (zlib).
#pragma once

#include <string>
#include <string_view>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

std::string Gzip(std::string_view data);
// True when the request's Accept-Encoding allows gzip.
bool AcceptsGzip(const Request& request);

}  // namespace lqe::gateway
