#include "tail/tail_stream.h"

namespace lqe::gateway::tail {

std::string StreamHead(const TailRequest& tail, unsigned version, std::string_view request_id) {
  std::string head = version >= 11 ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.0 200 OK\r\n";
  head += "Server: lqe/";
  head += BuildVersion();
  head += tail.ndjson ? "\r\nContent-Type: application/x-ndjson\r\n"
                      : "\r\nContent-Type: text/event-stream; charset=utf-8\r\n";
  // Proxies must pass each message on at once (nginx buffers responses unless told not to).
  head += "Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\n";
  head += "Access-Control-Allow-Origin: *\r\n";
  head += "X-Request-Id: ";
  head += request_id;
  head += "\r\n";
  if (version >= 11) head += "Transfer-Encoding: chunked\r\n";
  head += "Connection: close\r\n\r\n";
  return head;
}

void AppendMessage(const TailRequest& tail, std::string_view type, std::string_view data,
                   std::string& out) {
  if (tail.ndjson) {
    out += "{\"type\":\"";
    out += type;
    out += "\",\"data\":";
    out += data;
    out += "}\n";
    return;
  }
  // SSE: `data` is one line of JSON (serialised JSON escapes every newline).
  out += "event: ";
  out += type;
  out += "\ndata: ";
  out += data;
  out += "\n\n";
}

void AppendHeartbeat(const TailRequest& tail, std::string& out) {
  out += tail.ndjson ? "{\"type\":\"heartbeat\"}\n" : ": heartbeat\n\n";
}

}  // namespace lqe::gateway::tail
