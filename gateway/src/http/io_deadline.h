// A connection's I/O timeout that costs no timer operation per request. Beast's tcp_stream arms,
// cancels and completes a timer around every read and write; on a cache hit that was a fifth of
// lqe's user-space CPU. Here a request only moves a time point; the one timer of the connection
// is re-armed when it fires early (the deadline moved on meanwhile) or when a deadline earlier
// than the armed one is set. When a deadline passes with I/O still waiting, the socket is closed,
// as tcp_stream did, so the pending operation completes with an error.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>

namespace lqe::gateway {

class IoDeadline : public std::enable_shared_from_this<IoDeadline> {
 public:
  using Clock = std::chrono::steady_clock;

  explicit IoDeadline(boost::asio::ip::tcp::socket& socket);

  // The I/O that starts now must end within `timeout`.
  void ExpiresAfter(std::chrono::milliseconds timeout);
  // No I/O is waiting (a handler runs): no deadline until the next ExpiresAfter.
  void Clear() { deadline_ = Clock::time_point::max(); }
  // Before the socket goes away: the timer's handler touches nothing afterwards.
  void Stop();

 private:
  void Arm(Clock::time_point at);
  void OnTimer(std::uint64_t arming);

  boost::asio::ip::tcp::socket& socket_;
  boost::asio::steady_timer timer_;
  Clock::time_point deadline_ = Clock::time_point::max();
  Clock::time_point armed_ = Clock::time_point::max();  // max: no wait is pending
  std::uint64_t arming_ = 0;  // tells a cancelled wait from the current one
  bool stopped_ = false;
};

}  // namespace lqe::gateway
