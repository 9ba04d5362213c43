// Ingest request bodies as Logflare takes them: a JSON array (one event per element), an object
// with a "batch" array (the same), or any other object (one event, without its own timestamp
// and id). Content-Encoding gzip or deflate; the decoded size is bounded.
#pragma once

#include <boost/json/array.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway::ingest {

struct BodyLimits {
  std::size_t max_decompressed_bytes = 128u << 20;
};

struct ParsedBody {
  // The events (and the whole parsed tree) live in `storage`.
  explicit ParsedBody(const boost::json::storage_ptr& storage = {}) : events(storage) {}

  boost::json::array events;  // each element as posted (not necessarily an object)
  std::size_t bytes = 0;      // decoded body size
  // A single-object body's source_name/collection_name and source/collection keys (they stay in
  // the event too): the source when the URL and headers name none.
  std::optional<std::string> source_name;
  std::optional<std::string> source_id;
};

struct BodyError {
  int status = 400;  // 400, 413 or 415
  std::string message;
  std::string reason;
};

// Never throws for any input.
bool ParseBody(const Request& request, const BodyLimits& limits, ParsedBody* body,
               BodyError* error);

}  // namespace lqe::gateway::ingest
