// What a drain sends: a batch of stored events, shaped for its backend type's receiver.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "drain/http_post.h"

namespace lqe::gateway::drain {

// One stored event as the drain read it back.
struct DrainEvent {
  std::string source;  // the source's name, "cloudflare.logs.prod"
  std::int64_t micros = 0;
  // The live tail's shape, which rules match against: id, timestamp, event_message, project
  // (when set), metadata and extra.
  boost::json::object fields;
};

// The event as Logflare's backends receive it: extra's keys at the top, then id, timestamp
// (microseconds since the epoch), event_message, project and metadata.
boost::json::object LogflareBody(const DrainEvent& event);

// Datadog's logs intake for a region name (US1, US3, US5, EU, AP1, US1-FED); empty if unknown.
std::string DatadogIntake(std::string_view region);

// The request for a batch to a backend of `type` (webhook, loki, datadog, otlp) with its
// stored `config`, or why it cannot be made.
std::variant<PostRequest, std::string> BuildRequest(std::string_view type,
                                                    const boost::json::object& config,
                                                    const std::vector<DrainEvent>& events);

// Sends one probe event to a backend of `type` with `config`: empty when the receiver accepted
// it, else why not.
std::string TestConnection(std::string_view type, const boost::json::object& config);

// The OTLP drain's request (otlp_request.cpp).
std::variant<PostRequest, std::string> OtlpRequest(const boost::json::object& config,
                                                   const std::vector<DrainEvent>& events);

}  // namespace lqe::gateway::drain
