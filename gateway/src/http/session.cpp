// One connection: read a request with size limits and timeouts, answer it (fast path inline,
// otherwise on a worker thread while watching for the client hanging up), write, repeat while
// keep-alive. Nothing a client sends ends more than its own connection.
#include "http/session.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/serialize.hpp>
#include <cerrno>
#include <cmath>
#include <type_traits>

#include "http/io_deadline.h"
#include "http/request_parser.h"
#include "http/wire.h"
#include "ingest/ingest_handler.h"
#include "ingest/otlp_logs.h"
#include "lqe/base/ascii.h"
#include "lqe/gateway/errors.h"
#include "lqe/gateway/log_format.h"
#include "tail/tail_stream.h"

namespace lqe::gateway {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using TlsStream = asio::ssl::stream<asio::ip::tcp::socket>;

// A connection's stream (a TCP socket, or TLS over one) and the deadline that bounds its reads
// and writes.
template <typename Stream>
struct Connection {
  Stream stream;
  std::shared_ptr<IoDeadline> deadline;
  asio::ip::tcp::socket& Socket() { return beast::get_lowest_layer(stream); }
};

// Writes the head and the body in one gather write (for the early errors; Serve writes its
// answers inline).
template <typename Stream>
asio::awaitable<boost::system::error_code> WriteResponse(Connection<Stream>& connection,
                                                         const Response& response, unsigned version,
                                                         bool keep_alive, std::string& head) {
  head.clear();
  AppendHead(response, version, keep_alive, head);
  std::string_view rest =
      response.wire ? std::string_view(response.wire->bytes) : std::string_view(response.body);
  std::array<asio::const_buffer, 2> buffers{asio::buffer(head), asio::buffer(rest)};
  boost::system::error_code ec;
  co_await asio::async_write(connection.stream, buffers,
                             asio::redirect_error(asio::use_awaitable, ec));
  co_return ec;
}

void Record(Server::Impl& server, const GatewayState& state, std::string_view method,
            std::string_view target, const Response& response, double seconds,
            std::string_view request_id) {
  server.metrics->Latency().Observe(seconds);
  auto m = state.endpoint_metrics.find(response.endpoint_name);
  (m == state.endpoint_metrics.end() ? server.metrics->Other() : *m->second).Count(response.status);
  if (!state.config.access_log) return;
  std::string_view path = target.substr(0, target.find('?'));  // may hold api_key or SQL
  if (path.size() > 200) path = path.substr(0, 200);
  if (JsonLogs()) {
    boost::json::object line;
    line["type"] = "access";
    line["request_id"] = request_id;
    line["method"] = method;
    line["path"] = path;
    line["status"] = response.status;
    line["ms"] = std::round(seconds * 10000) / 10;
    if (!response.cache_state.empty()) line["cache"] = response.cache_state;
    if (!response.endpoint_name.empty()) line["endpoint"] = response.endpoint_name;
    if (response.status >= 400) line["reason"] = response.reason.empty() ? "-" : response.reason;
    spdlog::info("{}{}", StructuredLogPrefix(), boost::json::serialize(line));
    return;
  }
  // 4xx and 5xx lines name why, so a caller's mistakes can be told from lqe's.
  spdlog::info("{} {} {} {:.1f}ms cache={} endpoint={} request_id={}{}{}",
               method.empty() ? "-" : method, path.empty() ? "-" : path, response.status,
               seconds * 1000, response.cache_state.empty() ? "-" : response.cache_state,
               response.endpoint_name.empty() ? "-" : response.endpoint_name, request_id,
               response.status >= 400 ? " reason=" : "",
               response.status >= 400 ? (response.reason.empty() ? "-" : response.reason) : "");
}

// A bare error for requests that never reached a handler (limits, parse errors); the
// connection closes after it.
template <typename Stream>
asio::awaitable<void> WriteEarlyError(Server::Impl& server, const GatewayState& state,
                                      Connection<Stream>& connection, RequestParser& parser,
                                      const GatewayError& error) {
  Response response = ToResponse(error);
  FinishResponse(parser.GetRequest(), response);
  std::string request_id = RequestIdFor(parser.GetRequest().Header("x-request-id"));
  response.AddHeader("X-Request-Id", request_id);
  Record(server, state, parser.GetRequest().method, parser.GetRequest().target, response, 0,
         request_id);
  connection.deadline->ExpiresAfter(std::chrono::milliseconds(state.config.write_timeout_ms));
  std::string head;
  co_await WriteResponse(connection, response, 11, false, head);
}

// After an early error the client may still be sending the request (a body over the limit):
// closing with its bytes unread makes the kernel reset the connection, and a reset can reach the
// client before it reads the answer. So stop sending, then read and discard until the client
// closes, for at most `limit_ms` and 64 MiB, as nginx's lingering close does.
template <typename Stream>
asio::awaitable<void> LingerBeforeClose(Connection<Stream>& connection, int limit_ms) {
  constexpr std::size_t kMaxDiscard = std::size_t{64} << 20;
  boost::system::error_code ec;
  connection.Socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
  if (ec) co_return;
  connection.deadline->ExpiresAfter(std::chrono::milliseconds(limit_ms));
  std::array<char, 16384> discard{};
  std::size_t total = 0;
  while (total < kMaxDiscard) {
    auto [read_error, n] = co_await connection.Socket().async_read_some(
        asio::buffer(discard), asio::as_tuple(asio::use_awaitable));
    if (read_error) break;
    total += n;
  }
  connection.deadline->Clear();
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

// Answers a request that could not be read (a limit or parse error) before the connection
// closes; a client that closed or went quiet gets nothing (the deadline has closed the socket
// then: no 408).
template <typename Stream>
asio::awaitable<void> AnswerReadError(Server::Impl& server, const GatewayState& state,
                                      Connection<Stream>& connection,
                                      const beast::flat_buffer& buffer, RequestParser& parser,
                                      boost::system::error_code ec) {
  std::optional<GatewayError> error;
  if (const auto& rejection = parser.GetRejection()) {
    error = MakeError(rejection->status, rejection->message, rejection->reason);
  } else if (ec == http::error::header_limit) {
    error = StartLineTooLong(buffer)
                ? MakeError(414, "the request URL is too long", "url_too_long")
                : MakeError(431, "the request headers are too large", "headers_too_large");
  } else if (ec == http::error::body_limit) {
    error = MakeError(413, "the request body is too large", "body_too_large");
  } else if (ec != http::error::end_of_stream && ec != http::error::partial_message &&
             ec.category() == http::make_error_code(http::error::bad_target).category()) {
    error = MakeError(400, "malformed HTTP request (" + ec.message() + ")", "bad_request");
  }
  if (error) {
    co_await WriteEarlyError(server, state, connection, parser, *error);
    co_await LingerBeforeClose(connection, std::min(state.config.write_timeout_ms, 5000));
  }
}

// Cancels the query and repeats every 100 ms while it still runs (a cancel that reaches the
// backend between protocol messages is dropped), until the session stops watching.
void KeepCancelling(const asio::any_io_executor& executor, std::shared_ptr<QueryCancel> cancel,
                    std::shared_ptr<bool> watching) {
  cancel->Cancel();
  auto timer = std::make_shared<asio::steady_timer>(executor, std::chrono::milliseconds(100));
  timer->async_wait([executor, timer, cancel = std::move(cancel),
                     watching = std::move(watching)](const boost::system::error_code& ec) {
    if (ec || !*watching || !cancel->Running()) return;
    KeepCancelling(executor, cancel, watching);
  });
}

// While a worker runs the request, a readable socket with nothing to read means the client
// hung up: cancel its query. Data (a pipelined next request) means it is still there.
void WatchForHangUp(asio::ip::tcp::socket& socket, std::shared_ptr<QueryCancel> cancel,
                    std::shared_ptr<bool> watching) {
  socket.async_wait(asio::ip::tcp::socket::wait_read,
                    [&socket, cancel = std::move(cancel),
                     watching = std::move(watching)](const boost::system::error_code& ec) {
                      if (ec || !*watching) return;
                      char byte = 0;
                      ssize_t n = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
                      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
                        KeepCancelling(socket.get_executor(), cancel, watching);
                      }
                    });
}

// Queues an ingest job and resumes the session when its transaction has committed (or failed),
// without holding a thread meanwhile. Completes with nullopt when the queue is full.
template <typename Token>
auto AsyncSubmit(IngestService& service, IngestJob job, Token&& token) {
  return asio::async_initiate<Token, void(std::optional<IngestOutcome>)>(
      [&service](auto handler, IngestJob queued) {
        auto shared = std::make_shared<decltype(handler)>(std::move(handler));
        auto executor = asio::get_associated_executor(*shared);
        auto work = std::make_shared<asio::executor_work_guard<decltype(executor)>>(executor);
        queued.done = [shared, work](IngestOutcome outcome) {
          auto ex = work->get_executor();
          asio::post(ex, [shared, work, outcome = std::move(outcome)]() mutable {
            (*shared)(std::optional<IngestOutcome>(std::move(outcome)));
          });
        };
        if (!service.Submit(std::move(queued))) {
          asio::post(executor, [shared]() mutable { (*shared)(std::optional<IngestOutcome>()); });
        }
      },
      token, std::move(job));
}

// OTLP ingest: decoding and event forming on a worker, then one queued job per log table.
asio::awaitable<Response> AnswerOtlp(Server::Impl& server, Context& context, const Request& request,
                                     const PendingRequest& pending) {
  auto prepared = co_await asio::co_spawn(
      *server.workers,
      [&]() -> asio::awaitable<std::variant<Response, ingest::otlp::OtlpBatch>> {
        try {
          co_return ingest::otlp::PrepareOtlp(request, pending.ingest, *context.state, nullptr,
                                              server.ingest.get());
        } catch (const std::exception& e) {
          spdlog::error("OTLP ingest handler failed: {}", e.what());
          co_return ErrorResponse(500, "internal error", {{"reason", "internal"}});
        }
      },
      asio::use_awaitable);
  if (auto* response = std::get_if<Response>(&prepared)) co_return std::move(*response);
  auto& batch = std::get<ingest::otlp::OtlpBatch>(prepared);
  std::vector<std::optional<IngestOutcome>> outcomes;
  for (IngestJob& job : batch.jobs) {
    std::optional<IngestOutcome> outcome =
        co_await AsyncSubmit(*server.ingest, std::move(job), asio::use_awaitable);
    const bool queued = outcome.has_value();
    outcomes.push_back(std::move(outcome));
    if (!queued) break;  // queue full: 429
  }
  co_return ingest::otlp::OtlpAnswer(batch, outcomes, server.ingest->RetryAfterSeconds());
}

// Ingest: body parsing and event forming on a worker, then the group-commit queue.
asio::awaitable<Response> AnswerIngest(Server::Impl& server, Context& context,
                                       const Request& request, const PendingRequest& pending) {
  auto prepared = co_await asio::co_spawn(
      *server.workers,
      [&]() -> asio::awaitable<std::variant<Response, IngestJob>> {
        try {
          co_return ingest::PrepareJob(request, pending, *context.state, nullptr);
        } catch (const std::exception& e) {
          spdlog::error("ingest handler failed: {}", e.what());
          co_return ErrorResponse(500, "internal error", {{"reason", "internal"}});
        }
      },
      asio::use_awaitable);
  if (auto* response = std::get_if<Response>(&prepared)) co_return std::move(*response);
  std::optional<IngestOutcome> outcome = co_await AsyncSubmit(
      *server.ingest, std::get<IngestJob>(std::move(prepared)), asio::use_awaitable);
  if (!outcome) co_return ingest::QueueFullResponse(server.ingest->RetryAfterSeconds());
  co_return ingest::OutcomeResponse(*outcome);
}

// Answers a request the fast path could not: ingest, or on a worker thread while watching for
// the client hanging up.
template <typename Stream>
asio::awaitable<Response> AnswerPending(Server::Impl& server, Connection<Stream>& connection,
                                        Context& context, const Request& request,
                                        // NOLINTNEXTLINE(performance-unnecessary-value-param)
                                        const PendingRequest pending) {  // a coroutine keeps a copy
  if (pending.kind == PendingRequest::Kind::kIngest && pending.ingest.otlp) {
    co_return co_await AnswerOtlp(server, context, request, pending);
  }
  if (pending.kind == PendingRequest::Kind::kIngest) {
    co_return co_await AnswerIngest(server, context, request, pending);
  }
  context.cancel = std::make_shared<QueryCancel>();
  server.cancels.Add(context.cancel);
  auto watching = std::make_shared<bool>(true);
  WatchForHangUp(connection.Socket(), context.cancel, watching);
  struct StopWatching {
    Server::Impl& server;
    asio::ip::tcp::socket& socket;
    std::shared_ptr<bool> watching;
    const QueryCancel* cancel;
    ~StopWatching() {
      *watching = false;
      boost::system::error_code ignored;
      socket.cancel(ignored);
      server.cancels.Remove(cancel);
    }
  } stop{server, connection.Socket(), watching, context.cancel.get()};
  co_return co_await asio::co_spawn(
      *server.workers,
      [&]() -> asio::awaitable<Response> {
        try {
          co_return HandlePending(request, pending, context);
        } catch (const std::exception& e) {
          spdlog::error("handler failed: {}", e.what());
          co_return ErrorResponse(500, "internal error", {{"reason", "internal"}});
        }
      },
      asio::use_awaitable);
}

// A live tail: the replay of `since` on a worker, then the stream until shutdown or the client
// leaves. Logged when it ends.
template <typename Stream>
asio::awaitable<void> ServeTail(Server::Impl& server, Connection<Stream>& connection,
                                Context& context, const Request& request,
                                const PendingRequest& pending, unsigned version,
                                std::chrono::steady_clock::time_point start) {
  tail::TailRequest& tail = *pending.tail;
  tail::Replay replay;
  if (tail.since_seconds > 0) {
    replay = co_await asio::co_spawn(
        *server.workers,
        [&]() -> asio::awaitable<tail::Replay> {
          try {
            co_return tail::ReadReplay(tail, context);
          } catch (const std::exception& e) {
            spdlog::error("tail replay failed: {}", e.what());
            tail::Replay failed;
            failed.error = "internal error";
            co_return failed;
          }
        },
        asio::use_awaitable);
    if (!replay.error.empty()) {
      spdlog::warn("tail replay of {} failed: {}", tail.table, replay.error);
    }
  }
  std::string request_id = RequestIdFor(request.Header("x-request-id"));
  co_await tail::StreamTail(connection.stream, connection.Socket(), *connection.deadline, tail,
                            replay, version, context.state->config.write_timeout_ms, request_id);
  Response logged;
  logged.endpoint_name = "tail";
  Record(server, *context.state, request.method, request.target, logged,
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
         request_id);
}

RequestLimits LimitsOf(const Config& config) {
  RequestLimits limits;
  limits.max_url_bytes = config.max_url_bytes;
  limits.max_header_bytes = config.max_header_bytes;
  limits.max_body_bytes = config.max_body_bytes;
  limits.max_ingest_body_bytes = config.ingest.max_body_bytes;
  return limits;
}

// The request loop. A cache hit runs without a coroutine frame or timer operation of its own:
// the read and the write are awaited as deferred operations, the fast path is a plain call.
template <typename Stream>
asio::awaitable<void> Serve(Server::Impl& server, Connection<Stream>& connection, bool admin) {
  beast::flat_buffer buffer;
  std::string head;
  for (;;) {
    auto state = server.CurrentState();
    RequestParser parser(LimitsOf(state->config));
    connection.deadline->ExpiresAfter(std::chrono::milliseconds(state->config.read_timeout_ms));
    auto [read_error, read_bytes] = co_await http::async_read(connection.stream, buffer, parser,
                                                              asio::as_tuple(asio::deferred));
    connection.deadline->Clear();
    if (read_error) {
      co_await AnswerReadError(server, *state, connection, buffer, parser, read_error);
      break;
    }
    auto start = std::chrono::steady_clock::now();
    server.in_flight.fetch_add(1);
    struct InFlight {
      std::atomic<int>& count;
      ~InFlight() { count.fetch_sub(1); }  // after the write: shutdown waits for the bytes too
    } in_flight{server.in_flight};
    const Request& request = parser.GetRequest();
    Context context = server.MakeContext();
    context.admin_listener = admin;
    FastOutcome fast = HandleFast(request, context);
    Response response;
    if (auto* answered = std::get_if<Response>(&fast)) {
      response = std::move(*answered);
    } else if (auto* tail = std::get_if<PendingRequest>(&fast);
               tail->kind == PendingRequest::Kind::kTail) {
      co_await ServeTail(server, connection, context, request, *tail, parser.Version(), start);
      break;  // a tail's response ends with its connection
    } else {
      response = co_await AnswerPending(server, connection, context, request,
                                        std::get<PendingRequest>(std::move(fast)));
    }
    FinishResponse(request, response);
    std::string request_id = RequestIdFor(request.Header("x-request-id"));
    response.AddHeader("X-Request-Id", request_id);
    Record(server, *state, request.method, request.target, response,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
           request_id);
    if (response.status == 499) break;  // the client is gone
    bool keep_alive = parser.keep_alive() && !server.stopping.load();
    head.clear();
    AppendHead(response, parser.Version(), keep_alive, head);
    std::string_view rest =
        response.wire ? std::string_view(response.wire->bytes) : std::string_view(response.body);
    std::array<asio::const_buffer, 2> buffers{asio::buffer(head), asio::buffer(rest)};
    connection.deadline->ExpiresAfter(std::chrono::milliseconds(state->config.write_timeout_ms));
    auto [write_error, written] =
        co_await asio::async_write(connection.stream, buffers, asio::as_tuple(asio::deferred));
    connection.deadline->Clear();
    if (write_error || !keep_alive) break;
    // Let the other connections' ready work run before this one reads again: a fast client's
    // next request is often there already, and serving it at once would keep the rest waiting
    // (the tail latency under load).
    co_await asio::post(connection.Socket().get_executor(), asio::deferred);
  }
}

// Serves one accepted connection; over TLS after the handshake (bounded by the read timeout).
template <typename Stream>
asio::awaitable<void> ServeConnection(Server::Impl& server, Connection<Stream>& connection,
                                      bool admin) {
  connection.deadline = std::make_shared<IoDeadline>(connection.Socket());
  struct StopDeadline {
    IoDeadline& deadline;
    ~StopDeadline() { deadline.Stop(); }  // also when the loop is destroyed mid-session
  } stop_deadline{*connection.deadline};
  try {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      connection.deadline->ExpiresAfter(
          std::chrono::milliseconds(server.CurrentState()->config.read_timeout_ms));
      auto [handshake_error] = co_await connection.stream.async_handshake(
          asio::ssl::stream_base::server, asio::as_tuple(asio::use_awaitable));
      connection.deadline->Clear();
      if (handshake_error) {
        spdlog::debug("TLS handshake failed: {}", handshake_error.message());
        co_return;
      }
    }
    co_await Serve(server, connection, admin);
  } catch (const std::exception& e) {
    // A bug must cost one connection, never the process.
    spdlog::error("connection closed after an unexpected error: {}", e.what());
  }
  boost::system::error_code ignored;
  connection.Socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

}  // namespace

asio::awaitable<void> RunSession(Server::Impl& server, asio::ip::tcp::socket socket, bool admin,
                                 std::shared_ptr<asio::ssl::context> tls) {
  struct Open {
    std::atomic<int>& count;
    ~Open() { count.fetch_sub(1); }
  } open{server.metrics->OpenConnections()};  // counted up by the acceptor
  // As nginx does on keep-alive connections: a response's last partial segment goes out at once
  // rather than after the client acknowledges the previous ones (Nagle).
  boost::system::error_code nodelay_error;
  socket.set_option(asio::ip::tcp::no_delay(true), nodelay_error);
  if (tls) {
    // `tls` stays alive in this frame for as long as the stream uses it.
    Connection<TlsStream> connection{TlsStream(std::move(socket), *tls), nullptr};
    co_await ServeConnection(server, connection, admin);
  } else {
    Connection<asio::ip::tcp::socket> connection{std::move(socket), nullptr};
    co_await ServeConnection(server, connection, admin);
  }
}

}  // namespace lqe::gateway
