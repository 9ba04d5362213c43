// The bytes of a response's status line and header block.
#pragma once

#include <string>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

// "HTTP/1.x <status> <reason>\r\n" followed by Server, Content-Type, Content-Encoding, the
// response's own headers, Content-Length, the Connection header the keep-alive choice needs, and
// the blank line. `version` is 10 or 11, as Beast numbers them.
std::string SerializeHead(const Response& response, unsigned version, bool keep_alive);

}  // namespace lqe::gateway
