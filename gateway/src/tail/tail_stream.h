// Streams an open tail to its client over one HTTP/1.1 response with chunked transfer encoding
// (HTTP/1.0: the body ends with the connection): Server-Sent Events, or NDJSON when asked.
// Events go out as their commits publish them; a `dropped` message counts what the tail's buffer
// could not keep; a heartbeat goes out after heartbeat_ms without events; shutdown ends the
// stream with an `end` message and the last chunk. The connection closes afterwards.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <unordered_set>

#include "http/io_deadline.h"
#include "lqe/gateway/build_info.h"
#include "tail/tail_request.h"

namespace lqe::gateway::tail {

// The status line and headers of a tail's response.
std::string StreamHead(const TailRequest& tail, unsigned version, std::string_view request_id);
// One message in the tail's format; `type` is event, dropped, replay_error or end (SSE: the
// event name; NDJSON: {"type": ..., "data": ...}). `data` is a JSON text.
void AppendMessage(const TailRequest& tail, std::string_view type, std::string_view data,
                   std::string& out);
void AppendHeartbeat(const TailRequest& tail, std::string& out);

// Returns when the stream has ended: shutdown, the client gone, or a write that failed or did
// not finish within write_timeout_ms.
template <typename Stream>
boost::asio::awaitable<void> StreamTail(Stream& stream, boost::asio::ip::tcp::socket& socket,
                                        IoDeadline& deadline, TailRequest& tail,
                                        const Replay& replay, unsigned version,
                                        int write_timeout_ms, std::string_view request_id) {
  namespace asio = boost::asio;
  namespace http = boost::beast::http;
  const bool chunked = version >= 11;
  auto write = [&](const std::string& bytes) -> asio::awaitable<bool> {
    deadline.ExpiresAfter(std::chrono::milliseconds(write_timeout_ms));
    boost::system::error_code ec;
    if (chunked) {
      co_await asio::async_write(stream, http::make_chunk(asio::buffer(bytes)),
                                 asio::redirect_error(asio::use_awaitable, ec));
    } else {
      co_await asio::async_write(stream, asio::buffer(bytes),
                                 asio::redirect_error(asio::use_awaitable, ec));
    }
    deadline.Clear();
    co_return !ec;
  };
  std::string out = StreamHead(tail, version, request_id);
  {
    deadline.ExpiresAfter(std::chrono::milliseconds(write_timeout_ms));
    boost::system::error_code ec;
    co_await asio::async_write(stream, asio::buffer(out),
                               asio::redirect_error(asio::use_awaitable, ec));
    deadline.Clear();
    if (ec) co_return;
  }
  out.clear();
  if (!replay.error.empty()) {
    AppendMessage(tail, "replay_error", "{\"message\":\"the replay of since failed\"}", out);
  }
  for (const std::string& event : replay.events) AppendMessage(tail, "event", event, out);
  if (!out.empty() && !co_await write(out)) co_return;
  // Live events already sent by the replay (committed while it read) are not sent again.
  std::unordered_set<std::string> replayed(replay.ids.begin(), replay.ids.end());

  auto executor = co_await asio::this_coro::executor;
  auto timer = std::make_shared<asio::steady_timer>(executor);
  auto gone = std::make_shared<bool>(false);
  // Publishers post the wake-up onto this connection's loop, so it cannot slip in between a
  // Take that found nothing and the wait that follows.
  tail.subscriber->SetWaker(
      [executor, timer] { asio::post(executor, [timer] { timer->cancel(); }); });
  // A tail's client sends nothing more: a readable socket means it closed (or broke the rules).
  socket.async_wait(asio::ip::tcp::socket::wait_read,
                    [timer, gone](const boost::system::error_code& ec) {
                      if (ec == asio::error::operation_aborted) return;
                      *gone = true;
                      timer->cancel();
                    });
  struct Unhook {
    TailRequest& tail;
    asio::ip::tcp::socket& socket;
    ~Unhook() {
      tail.subscriber->SetWaker(nullptr);
      boost::system::error_code ignored;
      socket.cancel(ignored);
    }
  } unhook{tail, socket};

  auto last_write = std::chrono::steady_clock::now();
  const auto heartbeat = std::chrono::milliseconds(tail.heartbeat_ms);
  for (;;) {
    Subscriber::Batch batch = tail.subscriber->Take();
    out.clear();
    if (batch.dropped > 0) {
      AppendMessage(tail, "dropped", "{\"dropped\":" + std::to_string(batch.dropped) + "}", out);
    }
    for (const auto& event : batch.events) {
      if (!replayed.empty()) {
        // The id is the object's first member: {"id":"..."
        const std::string& text = *event;
        auto end = text.find('"', 7);
        if (text.starts_with("{\"id\":\"") && end != std::string::npos &&
            replayed.contains(text.substr(7, end - 7))) {
          continue;
        }
      }
      AppendMessage(tail, "event", *event, out);
    }
    if (batch.closed) {
      AppendMessage(tail, "end", "{\"reason\":\"shutdown\"}", out);
      if (co_await write(out) && chunked) {
        deadline.ExpiresAfter(std::chrono::milliseconds(write_timeout_ms));
        boost::system::error_code ec;
        co_await asio::async_write(stream, http::make_chunk_last(),
                                   asio::redirect_error(asio::use_awaitable, ec));
        deadline.Clear();
      }
      co_return;
    }
    if (*gone) co_return;
    auto now = std::chrono::steady_clock::now();
    if (out.empty() && now - last_write >= heartbeat) AppendHeartbeat(tail, out);
    if (!out.empty()) {
      if (!co_await write(out)) co_return;
      last_write = std::chrono::steady_clock::now();
      continue;  // more may have arrived while writing
    }
    timer->expires_at(last_write + heartbeat);
    boost::system::error_code ignored;
    co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
}

}  // namespace lqe::gateway::tail
