// Internals shared by the handlers: route matching and the prepared form of a query request.
#pragma once

#include <string>
#include <variant>

#include "lqe/gateway/handler.h"
#include "lqe/gateway/params.h"

namespace lqe::gateway {

struct Route {
  enum class Kind : std::uint8_t { kQuery, kHealth, kReady, kMetrics, kUnknown };
  Kind kind = Kind::kUnknown;
  std::string endpoint;  // id or name, for kQuery
  bool by_name_only = false;
  bool get_only = false;  // the legacy /endpoints/query/ route
};

Route MatchRoute(std::string_view path);

// A query request that passed auth and validation.
struct Prepared {
  const EndpointDef* endpoint = nullptr;
  ValidatedParams params;
  bool redact = false;
  std::string cache_key;
};

std::variant<Prepared, Response> Prepare(const Request& request, const Route& route, RawParams raw,
                                         const GatewayState& state);
Response RespondFromLookup(const Request& request, const Prepared& p, const CacheLookup& lookup);
Response RunPrepared(const Request& request, const Prepared& p, Context& context);

}  // namespace lqe::gateway
