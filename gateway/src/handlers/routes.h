// Internals shared by the handlers: route matching and the steps of a query request.
#pragma once

#include <string>
#include <variant>

#include "lqe/gateway/errors.h"
#include "lqe/gateway/handler.h"
#include "lqe/gateway/params.h"

namespace lqe::gateway {

struct Route {
  enum class Kind : std::uint8_t {
    kQuery,
    kHealth,
    kReady,
    kMetrics,
    kIngest,
    kManagement,
    kTail,
    kLogApi,
    kConsole,
    kUnknown
  };
  Kind kind = Kind::kUnknown;
  std::string endpoint;  // id or name, for kQuery; the path, for kConsole
  bool by_name_only = false;
  bool get_only = false;  // the legacy /endpoints/query/ route
};

Route MatchRoute(std::string_view path);

// Auth, endpoint lookup and parameter validation of a query request.
std::variant<Prepared, GatewayError> Prepare(const Request& request, const Route& route,
                                             RawParams raw, const GatewayState& state);
Response RespondFromLookup(const Request& request, const Prepared& p, const CacheLookup& lookup);
// Runs (or single-flights through the cache) a prepared query; blocks on Postgres.
Response RunPrepared(const Request& request, const Prepared& p, Context& context);

}  // namespace lqe::gateway
