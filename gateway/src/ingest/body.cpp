#include "ingest/body.h"

#include <boost/json/parser.hpp>

#include "ingest/decode.h"
#include "lqe/base/ascii.h"

namespace lqe::gateway::ingest {
namespace {

namespace json = boost::json;

std::string Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return ascii::Lower(s);
}

// application/json, application/*+json and application/csp-report are JSON; a request without a
// Content-Type is read as JSON too (the shippers always send one; curl users often forget it).
bool IsJsonType(const std::string* header) {
  if (header == nullptr) return true;
  std::string type = Trimmed(std::string_view(*header).substr(0, header->find(';')));
  if (type.empty() || type == "application/json" || type == "application/csp-report") return true;
  return type.starts_with("application/") && type.ends_with("+json");
}

bool Fail(BodyError* error, int status, std::string message, std::string reason) {
  error->status = status;
  error->message = std::move(message);
  error->reason = std::move(reason);
  return false;
}

std::optional<std::string> StringKey(const json::object& object, std::string_view key,
                                     std::string_view alias) {
  for (std::string_view k : {key, alias}) {
    if (const json::value* v = object.if_contains(k); v != nullptr && v->is_string()) {
      return std::string(v->get_string());
    }
  }
  return std::nullopt;
}

}  // namespace

bool ParseBody(const Request& request, const BodyLimits& limits, ParsedBody* body,
               BodyError* error) {
  if (!IsJsonType(request.Header("content-type"))) {
    return Fail(
        error, 415,
        "unsupported Content-Type " + *request.Header("content-type") + " (send application/json)",
        "unsupported_media_type");
  }
  std::string decoded;
  std::string_view text = request.body;
  if (const std::string* header = request.Header("content-encoding")) {
    std::string encoding = Trimmed(*header);
    if (encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate") {
      DecodeStatus status = Decompress(encoding == "deflate" ? "deflate" : "gzip", request.body,
                                       limits.max_decompressed_bytes, &decoded);
      if (status == DecodeStatus::kTooLarge) {
        return Fail(error, 413,
                    "the decompressed body is larger than " +
                        std::to_string(limits.max_decompressed_bytes) + " bytes",
                    "body_too_large");
      }
      if (status == DecodeStatus::kBadData) {
        return Fail(error, 400, "the body is not valid " + encoding + " data", "bad_encoding");
      }
      text = decoded;
    } else if (encoding != "identity" && !encoding.empty()) {
      return Fail(error, 400,
                  "unsupported Content-Encoding " + *header + " (gzip, deflate or none)",
                  "unsupported_encoding");
    }
  }
  if (text.size() > limits.max_decompressed_bytes) {
    return Fail(
        error, 413,
        "the body is larger than " + std::to_string(limits.max_decompressed_bytes) + " bytes",
        "body_too_large");
  }
  body->bytes = text.size();
  // An empty body is one empty event, as Logflare stores it.
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    body->events.emplace_back(json::object());
    return true;
  }
  json::parse_options options;
  options.max_depth = 256;
  json::parser parser({}, options);
  parser.reset(body->events.storage());
  json::error_code ec;
  const std::size_t used = parser.write(text.data(), text.size(), ec);
  if (ec) {
    return Fail(error, 400,
                "malformed JSON at byte " + std::to_string(used + 1) + ": " + ec.message(),
                "bad_json");
  }
  json::value root = parser.release();
  if (root.is_array()) {
    body->events = std::move(root.get_array());
    return true;
  }
  if (!root.is_object()) {
    return Fail(error, 400, "the body must be a JSON object or array", "bad_json");
  }
  json::object& object = root.get_object();
  if (json::value* batch = object.if_contains("batch"); batch != nullptr && batch->is_array()) {
    body->events = std::move(batch->get_array());
    return true;
  }
  body->source_name = StringKey(object, "source_name", "collection_name");
  body->source_id = StringKey(object, "source", "collection");
  // Logflare's quirk for a single object: its own timestamp and id are not used.
  object.erase("timestamp");
  object.erase("id");
  body->events.emplace_back(std::move(root));
  return true;
}

}  // namespace lqe::gateway::ingest
