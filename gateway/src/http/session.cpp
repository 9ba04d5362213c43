// One connection: read a request with size limits and timeouts, answer it (fast path inline,
// otherwise on a worker thread), write, repeat while keep-alive.
#include "http/session.h"

#include <spdlog/spdlog.h>

#include <array>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "http/wire.h"
#include "lqe/ascii.h"
#include "lqe/gateway/errors.h"

namespace lqe::gateway {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

Request ToRequest(const http::request<http::string_body>& message, std::size_t* header_bytes) {
  Request request;
  request.method = std::string(message.method_string());
  request.target = std::string(message.target());
  *header_bytes = 0;
  for (const auto& field : message) {
    std::string name(field.name_string());
    for (char& c : name) c = ascii::ToLower(c);
    *header_bytes += name.size() + field.value().size() + 4;
    request.headers[std::move(name)] = std::string(field.value());
  }
  request.body = message.body();
  return request;
}

// Writes the head and the body in one gather write.
asio::awaitable<boost::system::error_code> WriteResponse(beast::tcp_stream& stream,
                                                         const Response& response, unsigned version,
                                                         bool keep_alive) {
  std::string head = SerializeHead(response, version, keep_alive);
  std::array<asio::const_buffer, 2> buffers{asio::buffer(head), asio::buffer(response.body)};
  boost::system::error_code ec;
  co_await asio::async_write(stream, buffers, asio::redirect_error(asio::use_awaitable, ec));
  co_return ec;
}

// A bare error for requests that never reached a handler (limits, parse errors).
asio::awaitable<void> WriteEarlyError(beast::tcp_stream& stream, int status, std::string message) {
  Response response = ErrorResponse(status, message);
  Request none;
  FinishResponse(none, response);
  co_await WriteResponse(stream, response, 11, false);
}

// After a header_limit error the parser has consumed the start line if it was complete, so
// the unread bytes begin with the method ("GET /...") only when the request line itself was
// too long.
bool StartLineTooLong(const beast::flat_buffer& buffer) {
  auto data = buffer.data();
  std::string_view text(static_cast<const char*>(data.data()), data.size());
  std::size_t space = text.find(' ');
  if (space == std::string_view::npos || space == 0 || space > 32) return false;
  for (char c : text.substr(0, space)) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

}  // namespace

namespace {

// Answers one parsed request: limits, then the non-blocking fast path, else a worker thread.
asio::awaitable<Response> Answer(Server::Impl& server, const GatewayState& state, Request& request,
                                 std::size_t header_bytes) {
  const Config& config = state.config;
  if (request.target.size() > config.max_url_bytes) {
    co_return ErrorResponse(414, "the request URL is too long");
  }
  if (header_bytes > config.max_header_bytes) {
    co_return ErrorResponse(431, "the request headers are too large");
  }
  Context context = server.MakeContext();
  if (auto fast = HandleFast(request, context)) co_return std::move(*fast);
  co_return co_await asio::co_spawn(
      *server.workers,
      [&]() -> asio::awaitable<Response> {
        try {
          co_return Handle(request, context);
        } catch (const std::exception& e) {
          spdlog::error("handler failed: {}", e.what());
          co_return ErrorResponse(500, "internal error");
        }
      },
      asio::use_awaitable);
}

void Record(Server::Impl& server, const GatewayState& state, const Request& request,
            const Response& response, double seconds) {
  server.metrics->Latency().Observe(seconds);
  auto m = state.endpoint_metrics.find(response.endpoint_name);
  (m == state.endpoint_metrics.end() ? server.metrics->Other() : *m->second).Count(response.status);
  if (!state.config.access_log) return;
  std::string_view path(request.target);
  path = path.substr(0, path.find('?'));  // the query string may hold api_key or SQL
  spdlog::info("{} {} {} {:.1f}ms cache={} endpoint={}", request.method, path, response.status,
               seconds * 1000, response.cache_state.empty() ? "-" : response.cache_state,
               response.endpoint_name.empty() ? "-" : response.endpoint_name);
}

// Reads one request; on a limit or parse error writes the error and returns false.
asio::awaitable<bool> ReadRequest(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                                  const Config& config,
                                  http::request_parser<http::string_body>& parser) {
  parser.header_limit(
      static_cast<std::uint32_t>(config.max_header_bytes + config.max_url_bytes + 1024));
  parser.body_limit(config.max_body_bytes);
  stream.expires_after(std::chrono::milliseconds(config.read_timeout_ms));
  boost::system::error_code ec;
  co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
  if (!ec) co_return true;
  if (ec == http::error::header_limit) {
    bool url = StartLineTooLong(buffer);
    co_await WriteEarlyError(
        stream, url ? 414 : 431,
        url ? "the request URL is too long" : "the request headers are too large");
  } else if (ec == http::error::body_limit) {
    co_await WriteEarlyError(stream, 413, "the request body is too large");
  } else if (ec != http::error::end_of_stream &&
             ec.category() == http::make_error_code(http::error::bad_target).category()) {
    co_await WriteEarlyError(stream, 400, "malformed HTTP request");
  }
  co_return false;
}

}  // namespace

asio::awaitable<void> RunSession(Server::Impl& server, asio::ip::tcp::socket socket) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  for (;;) {
    auto state = server.CurrentState();
    http::request_parser<http::string_body> parser;
    if (!co_await ReadRequest(stream, buffer, state->config, parser)) break;
    auto start = std::chrono::steady_clock::now();
    server.in_flight.fetch_add(1);
    const auto& message = parser.get();
    std::size_t header_bytes = 0;
    Request request = ToRequest(message, &header_bytes);
    Response response = co_await Answer(server, *state, request, header_bytes);
    FinishResponse(request, response);
    Record(server, *state, request, response,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    bool keep_alive = message.keep_alive() && !server.stopping.load();
    stream.expires_after(std::chrono::milliseconds(state->config.write_timeout_ms));
    auto ec = co_await WriteResponse(stream, response, message.version(), keep_alive);
    server.in_flight.fetch_sub(1);  // after the write, so shutdown waits for the bytes too
    if (ec || !keep_alive) break;
  }
  boost::system::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

}  // namespace lqe::gateway
