// One HTTP(S) POST of a drain batch, through libcurl: http and https only, redirects never
// followed, bounded connect and total time, and at most a few KiB of the answer kept.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lqe::gateway::drain {

struct PostRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool http2 = false;  // negotiated over TLS; plain http stays HTTP/1.1
  long connect_timeout_ms = 5000;
  long timeout_ms = 15000;
};

struct PostResult {
  long status = 0;     // the HTTP status; 0 when no answer came
  std::string error;   // why no answer came (connection refused, timeout, ...)
  std::string answer;  // the start of the answer's body, for the drain's last error
};

PostResult Post(const PostRequest& request);

}  // namespace lqe::gateway::drain
