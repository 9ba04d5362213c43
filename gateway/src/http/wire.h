// The bytes of a response's status line and header block.
#pragma once

#include <string>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

// "HTTP/1.x <status> <reason>\r\n" followed by Server, Content-Type, Content-Encoding, the
// response's own headers, Content-Length, the Connection header the keep-alive choice needs, and
// the blank line. `version` is 10 or 11, as Beast numbers them.
std::string SerializeHead(const Response& response, unsigned version, bool keep_alive);
// The same appended to `out` (which a connection reuses, so a head costs no allocation). For a
// pre-serialised response (`response.wire`) only the status line, the response's own headers
// and the Connection header: the buffer holds the rest of the head and the blank line.
void AppendHead(const Response& response, unsigned version, bool keep_alive, std::string& out);
// A pre-serialised 200 (see WireForm): the lines of `fixed` that SerializeHead would write after
// the status line (Server, type, encoding, its headers, Content-Length of `body`), the blank
// line and the body, in a buffer of exactly that size.
WireForm SerializeWireForm(const Response& fixed, std::string_view body);

}  // namespace lqe::gateway
