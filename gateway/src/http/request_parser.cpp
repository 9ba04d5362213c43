#include "http/request_parser.h"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>

#include "ingest/ingest_handler.h"

namespace lqe::gateway {

namespace http = boost::beast::http;

RequestParser::RequestParser(const RequestLimits& limits) : limits_(limits) {
  // Beast's bound on buffered header bytes: the start line plus every field, with room for the
  // line ends; the finer limits below give the precise status first.
  header_limit(static_cast<std::uint32_t>(limits.max_header_bytes + limits.max_url_bytes +
                                          4 * limits.max_header_fields + 1024));
  body_limit_ = limits.max_body_bytes;
  body_limit(body_limit_);
}

void RequestParser::Reject(int status, std::string message, std::string reason, error_code& ec) {
  rejection_ = Rejection{status, std::move(message), std::move(reason)};
  ec = http::error::bad_value;
}

void RequestParser::on_request_impl(http::verb /*method*/, string_view method_str,
                                    string_view target, int version, error_code& ec) {
  if (target.size() > limits_.max_url_bytes) {
    return Reject(414, "the request URL is too long", "url_too_long", ec);
  }
  request_.method = std::string(method_str);
  request_.target = std::string(target);
  version_ = static_cast<unsigned>(version);
  // Shippers send batches of up to 10 MB; queries keep the small limit.
  if (ingest::IsIngestPath(std::string_view(target).substr(0, target.find('?')))) {
    body_limit_ = limits_.max_ingest_body_bytes;
    body_limit(body_limit_);
  }
}

void RequestParser::on_response_impl(int, string_view, int, error_code& ec) {
  ec = http::error::bad_method;  // never called for a request parser
}

void RequestParser::on_field_impl(http::field name, string_view name_string, string_view value,
                                  error_code& ec) {
  header_bytes_ += name_string.size() + value.size() + 4;
  if (header_bytes_ > limits_.max_header_bytes) {
    return Reject(431, "the request headers are too large", "headers_too_large", ec);
  }
  if (++header_fields_ > limits_.max_header_fields) {
    return Reject(
        431,
        "the request has more than " + std::to_string(limits_.max_header_fields) + " header fields",
        "too_many_headers", ec);
  }
  // Only "chunked" framing is understood; any other coding would leave the body's bytes to be
  // read as the next request.
  if (name == http::field::transfer_encoding && !boost::beast::iequals(value, "chunked")) {
    return Reject(501, "Transfer-Encoding " + std::string(value) + " is not supported",
                  "unsupported_transfer_encoding", ec);
  }
  std::string lower(name_string);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  request_.headers[std::move(lower)] = std::string(value);
}

void RequestParser::on_header_impl(error_code& /*ec*/) {}

void RequestParser::on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                                      error_code& /*ec*/) {
  if (content_length && *content_length <= body_limit_) {
    request_.body.reserve(static_cast<std::size_t>(*content_length));
  }
}

std::size_t RequestParser::on_body_impl(string_view body, error_code& /*ec*/) {
  request_.body.append(body.data(), body.size());
  return body.size();
}

void RequestParser::on_chunk_header_impl(std::uint64_t, string_view, error_code&) {}

std::size_t RequestParser::on_chunk_body_impl(std::uint64_t /*remain*/, string_view body,
                                              error_code& /*ec*/) {
  request_.body.append(body.data(), body.size());
  return body.size();
}

void RequestParser::on_finish_impl(error_code& /*ec*/) {}

}  // namespace lqe::gateway
