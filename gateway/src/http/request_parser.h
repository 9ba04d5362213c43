// An HTTP/1.1 request parser that fills the handlers' Request directly (one pass, no Beast
// fields container) and enforces lqe's limits as it reads. Beast's own field container cannot
// hold a field of 64 KiB or more and throws; this parser never throws and turns every limit it
// checks into the status the caller gets.
#pragma once

#include <boost/beast/http/basic_parser.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

struct RequestLimits {
  std::size_t max_url_bytes = 64u << 10;
  std::size_t max_header_bytes = 64u << 10;  // all fields, names and values together
  std::size_t max_body_bytes = 1u << 20;
  std::size_t max_ingest_body_bytes = 16u << 20;  // for the ingest routes (ingest.max_body_bytes)
  std::size_t max_header_fields = 100;
};

// Why a request was refused while it was read: the status and message to answer with.
struct Rejection {
  int status = 400;
  std::string message;
  std::string reason;
};

class RequestParser : public boost::beast::http::basic_parser<true> {
 public:
  explicit RequestParser(const RequestLimits& limits);

  Request& GetRequest() { return request_; }
  unsigned Version() const { return version_; }
  const std::optional<Rejection>& GetRejection() const { return rejection_; }

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;
  void Reject(int status, std::string message, std::string reason, error_code& ec);

  void on_request_impl(boost::beast::http::verb method, string_view method_str, string_view target,
                       int version, error_code& ec) override;
  void on_response_impl(int code, string_view reason, int version, error_code& ec) override;
  void on_field_impl(boost::beast::http::field name, string_view name_string, string_view value,
                     error_code& ec) override;
  void on_header_impl(error_code& ec) override;
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                         error_code& ec) override;
  std::size_t on_body_impl(string_view body, error_code& ec) override;
  void on_chunk_header_impl(std::uint64_t size, string_view extensions, error_code& ec) override;
  std::size_t on_chunk_body_impl(std::uint64_t remain, string_view body, error_code& ec) override;
  void on_finish_impl(error_code& ec) override;

  RequestLimits limits_;
  std::size_t body_limit_ = 0;  // this request's: max_body_bytes or max_ingest_body_bytes
  Request request_;
  unsigned version_ = 11;
  std::size_t header_bytes_ = 0;
  std::size_t header_fields_ = 0;
  std::optional<Rejection> rejection_;
};

}  // namespace lqe::gateway
