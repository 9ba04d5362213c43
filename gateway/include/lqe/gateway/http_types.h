// Socket-free request and response types: handlers are pure functions over these, so tests
// call them directly without a server.
#pragma once

#include <map>
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

struct Response {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool body_is_gzip = false;  // body already gzip-compressed (Content-Encoding: gzip)
  // For the access log and metrics only; never sent.
  std::string endpoint_name;
  std::string cache_state;
  std::string reason;  // an error's reason, for the access log

  void AddHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

}  // namespace lqe::gateway
