#include "http/io_deadline.h"

namespace lqe::gateway {

IoDeadline::IoDeadline(boost::asio::ip::tcp::socket& socket)
    : socket_(socket), timer_(socket.get_executor()) {}

void IoDeadline::ExpiresAfter(std::chrono::milliseconds timeout) {
  deadline_ = Clock::now() + timeout;
  // A wait that ends before the new deadline re-arms itself then; only an earlier deadline (a
  // shorter timeout than the armed one) needs the timer moved now.
  if (deadline_ < armed_) Arm(deadline_);
}

void IoDeadline::Stop() {
  stopped_ = true;
  timer_.cancel();
}

void IoDeadline::Arm(Clock::time_point at) {
  armed_ = at;
  std::uint64_t arming = ++arming_;
  timer_.expires_at(at);  // cancels a pending wait, whose handler then sees a stale arming
  timer_.async_wait([self = shared_from_this(), arming](const boost::system::error_code&) {
    self->OnTimer(arming);
  });
}

void IoDeadline::OnTimer(std::uint64_t arming) {
  if (stopped_ || arming != arming_) return;
  armed_ = Clock::time_point::max();
  if (deadline_ == Clock::time_point::max()) return;  // armed again by the next ExpiresAfter
  if (Clock::now() < deadline_) {
    Arm(deadline_);
    return;
  }
  boost::system::error_code ignored;
  socket_.close(ignored);
}

}  // namespace lqe::gateway
