#include "lqe/gateway/errors.h"

#include <boost/json/serialize.hpp>

#include "lqe/base/utf8.h"

namespace lqe::gateway {

std::string_view StatusName(int status) {
  switch (status) {
    case 400:
      return "BAD_REQUEST";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 405:
      return "METHOD_NOT_ALLOWED";
    case 408:
      return "REQUEST_TIMEOUT";
    case 406:
      return "NOT_ACCEPTABLE";
    case 413:
      return "PAYLOAD_TOO_LARGE";
    case 415:
      return "UNSUPPORTED_MEDIA_TYPE";
    case 414:
      return "URI_TOO_LONG";
    case 499:
      return "CLIENT_CLOSED";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 431:
      return "REQUEST_HEADER_FIELDS_TOO_LARGE";
    case 500:
      return "INTERNAL";
    case 501:
      return "NOT_IMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "TIMEOUT";
    default:
      return "ERROR";
  }
}

std::string ErrorBody(int status, std::string_view message, const boost::json::object& extra) {
  boost::json::object error;
  error["code"] = status;
  error["status"] = StatusName(status);
  // Messages and details may echo request bytes (a path, an endpoint name): keep the body
  // valid JSON whatever they hold.
  error["message"] = ToValidUtf8(message);
  for (const auto& item : extra) {
    if (item.value().is_string()) {
      error[item.key()] = ToValidUtf8(item.value().get_string());
    } else {
      error[item.key()] = item.value();
    }
  }
  boost::json::object root;
  root["error"] = std::move(error);
  return boost::json::serialize(root);
}

GatewayError MakeError(int status, std::string message, std::string reason,
                       boost::json::object details) {
  GatewayError error;
  error.status = status;
  error.message = std::move(message);
  error.reason = std::move(reason);
  error.details = std::move(details);
  return error;
}

Response ToResponse(const GatewayError& error) {
  boost::json::object extra;
  if (!error.reason.empty()) extra["reason"] = error.reason;
  for (const auto& item : error.details) extra[item.key()] = item.value();
  Response response;
  response.status = error.status;
  response.body = ErrorBody(error.status, error.message, extra);
  response.reason = error.reason;
  response.endpoint_name = error.endpoint;
  for (const auto& [name, value] : error.headers) response.AddHeader(name, value);
  return response;
}

Response ErrorResponse(int status, std::string_view message, boost::json::object extra) {
  GatewayError error;
  error.status = status;
  error.message = std::string(message);
  if (auto* reason = extra.if_contains("reason"); reason != nullptr && reason->is_string()) {
    error.reason = std::string(reason->get_string());
    extra.erase("reason");
  }
  error.details = std::move(extra);
  return ToResponse(error);
}

GatewayError DiagnosticError(const Diagnostic& diag, std::string_view text) {
  LineColumn position = LocateOffset(text, diag.offset);
  boost::json::object details;
  details["source"] = DiagSourceName(diag.source);
  details["line"] = position.line;
  details["column"] = position.column;
  // Studio's proxy keeps only `message` of an error body, so the hint goes there too.
  std::string message = RenderOneLine(diag, text);
  if (!diag.hint.empty()) {
    details["hint"] = diag.hint;
    message += "; hint: " + diag.hint;
  }
  return MakeError(400, std::move(message), std::string(DiagCodeName(diag.code)),
                   std::move(details));
}

}  // namespace lqe::gateway
