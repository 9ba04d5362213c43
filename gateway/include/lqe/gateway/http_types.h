// Socket-free request and response types: handlers are pure functions over these, so tests
// call them directly without a server.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lqe::gateway {

struct Request {
  std::string method;  // "GET", "POST", "OPTIONS", ...
  std::string target;  // raw request target: path and query string
  std::map<std::string, std::string, std::less<>> headers;  // names in lower case
  std::string body;

  // The header's value, or nullptr when absent. `name` must be lower case.
  const std::string* Header(std::string_view name) const {
    auto it = headers.find(name);
    return it == headers.end() ? nullptr : &it->second;
  }
};

// A 200 answer serialised once and then sent as is to every client that gets it (cached results):
// the header lines that are the same for every request, the blank line, then the body, in one
// buffer. Per request only the status line and a few short lines go in front of it.
struct WireForm {
  std::string bytes;
  std::size_t body_offset = 0;  // where the body starts, after the blank line
  bool gzip = false;            // the body is gzip-compressed

  std::string_view Body() const { return std::string_view(bytes).substr(body_offset); }
  bool empty() const { return bytes.empty(); }
};

struct Response {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool body_is_gzip = false;  // body already gzip-compressed (Content-Encoding: gzip)
  // Set for a pre-serialised answer, shared with the cache and never copied: it holds the
  // content type, the body and the headers every request gets; `headers` then holds only the
  // lines that vary per request, and `body` and `content_type` are not sent.
  std::shared_ptr<const WireForm> wire;
  // For the access log and metrics only; never sent.
  std::string endpoint_name;
  std::string cache_state;
  std::string reason;  // an error's reason, for the access log

  // The body that is sent, whichever form holds it.
  std::string_view Body() const { return wire ? wire->Body() : std::string_view(body); }

  void AddHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

}  // namespace lqe::gateway
