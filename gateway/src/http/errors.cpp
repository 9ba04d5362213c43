#include "lqe/gateway/errors.h"

#include <boost/json/serialize.hpp>

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
    case 413:
      return "PAYLOAD_TOO_LARGE";
    case 414:
      return "URI_TOO_LONG";
    case 431:
      return "REQUEST_HEADER_FIELDS_TOO_LARGE";
    case 500:
      return "INTERNAL";
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
  error["message"] = message;
  for (const auto& item : extra) error[item.key()] = item.value();
  boost::json::object root;
  root["error"] = std::move(error);
  return boost::json::serialize(root);
}

Response ErrorResponse(int status, std::string_view message, boost::json::object extra) {
  Response response;
  response.status = status;
  response.body = ErrorBody(status, message, extra);
  return response;
}

Response DiagnosticResponse(const Diagnostic& diag, std::string_view text) {
  LineColumn position = LocateOffset(text, diag.offset);
  boost::json::object extra;
  extra["reason"] = DiagCodeName(diag.code);
  extra["source"] = DiagSourceName(diag.source);
  extra["line"] = position.line;
  extra["column"] = position.column;
  if (!diag.hint.empty()) extra["hint"] = diag.hint;
  return ErrorResponse(400, RenderOneLine(diag, text), std::move(extra));
}

}  // namespace lqe::gateway
