// A minimal blocking HTTP/1.1 client for integration tests (Beast), one request per call or
// several over one kept-alive connection.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <map>
#include <string>

#include "lqe/base/ascii.h"

namespace lqe::gateway::testing {

struct HttpResult {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string error;  // non-empty when the exchange failed (reset, timeout, ...)
  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "<absent>" : it->second;
  }
};

class HttpConnection {
 public:
  explicit HttpConnection(unsigned short port) : stream_(ioc_) {
    stream_.connect(
        boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  }
  HttpResult Send(const std::string& method, const std::string& target,
                  const std::map<std::string, std::string>& headers = {},
                  const std::string& body = "") {
    namespace http = boost::beast::http;
    HttpResult out;
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1");
    for (const auto& [k, v] : headers) req.set(k, v);
    req.body() = body;
    req.prepare_payload();
    boost::beast::error_code ec;
    stream_.expires_after(std::chrono::seconds(30));
    http::write(stream_, req, ec);
    if (ec) {
      out.error = ec.message();
      return out;
    }
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 << 20);
    http::read(stream_, buffer_, parser, ec);
    if (ec) {
      out.error = ec.message();
      return out;
    }
    auto& res = parser.get();
    out.status = static_cast<int>(res.result_int());
    for (const auto& f : res) {
      std::string name(f.name_string());
      for (char& c : name) c = ascii::ToLower(c);
      out.headers[name] = std::string(f.value());
    }
    out.body = res.body();
    return out;
  }

 private:
  boost::asio::io_context ioc_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
};

inline HttpResult Fetch(unsigned short port, const std::string& target,
                        const std::map<std::string, std::string>& headers = {},
                        const std::string& method = "GET", const std::string& body = "") {
  HttpConnection c(port);
  return c.Send(method, target, headers, body);
}

}  // namespace lqe::gateway::testing
