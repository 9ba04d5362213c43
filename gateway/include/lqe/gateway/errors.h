// The gateway's one error type. Validation, auth, the cache and the query runner produce a
// GatewayError; it becomes an HTTP response only at the handler boundary (ToResponse), in one
// JSON shape: {"error": {"code": <http status>, "status": "<NAME>", "message": "...",
// "reason": "...", ...}}, with the position and hint of a translator diagnostic when there is
// one.
#pragma once

#include <boost/json/object.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lqe/diagnostic.h"
#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

struct GatewayError {
  int status = 500;
  std::string message;
  std::string reason;           // machine-readable cause: "missing_parameter", "timeout", ...
  boost::json::object details;  // more body fields: parameter, sqlstate, line, column, ...
  std::vector<std::pair<std::string, std::string>> headers;  // Retry-After, Allow, ...
  std::string endpoint;  // the endpoint it concerns, when known: for the access log only
};

GatewayError MakeError(int status, std::string message, std::string reason,
                       boost::json::object details = {});
// 400 with the diagnostic's message, code, source ("query", "sql", "lql"), line, column and hint.
GatewayError DiagnosticError(const Diagnostic& diag, std::string_view text);
// The boundary: the response a caller gets for an error.
Response ToResponse(const GatewayError& error);

// "BAD_REQUEST", "UNAUTHENTICATED", ... for an HTTP status.
std::string_view StatusName(int status);

// Shorthand for ToResponse(MakeError(...)); `extra` may carry "reason".
Response ErrorResponse(int status, std::string_view message, boost::json::object extra = {});
// The error body alone, for callers that build their own response.
std::string ErrorBody(int status, std::string_view message, const boost::json::object& extra);

}  // namespace lqe::gateway
