// Every error response of the gateway comes from here: one JSON shape,
// {"error": {"code": <http status>, "status": "<NAME>", "message": "...", ...}}, with the
// position and hint of a translator diagnostic when there is one.
#pragma once

#include <boost/json/object.hpp>
#include <string_view>

#include "lqe/diagnostic.h"
#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

// "BAD_REQUEST", "UNAUTHENTICATED", ... for an HTTP status.
std::string_view StatusName(int status);

Response ErrorResponse(int status, std::string_view message, boost::json::object extra = {});
// 400 with the diagnostic's message, code, source ("query", "sql", "lql"), line, column and hint.
Response DiagnosticResponse(const Diagnostic& diag, std::string_view text);
// The error body alone, for callers that build their own response.
std::string ErrorBody(int status, std::string_view message, const boost::json::object& extra);

}  // namespace lqe::gateway
