// The connection deadline that replaced Beast's per-operation timer: I/O still waiting at the
// deadline ends with the socket closed; a deadline moved on, or cleared, keeps the connection.
#include "http/io_deadline.h"

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <optional>

namespace lqe::gateway {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using std::chrono::milliseconds;

// A connected pair of sockets on loopback.
struct SocketPair {
  asio::io_context ioc;
  tcp::socket server{ioc};
  tcp::socket client{ioc};

  SocketPair() {
    tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    client.connect(acceptor.local_endpoint());
    acceptor.accept(server);
  }
};

// Starts a read on the server side; the result lands in `*result` when it completes.
void StartRead(SocketPair& pair, char& byte, std::optional<boost::system::error_code>& result) {
  pair.server.async_read_some(asio::buffer(&byte, 1), [&result](const boost::system::error_code& ec,
                                                                std::size_t) { result = ec; });
}

TEST(IoDeadlineTest, WaitingReadEndsWhenTheDeadlinePasses) {
  SocketPair pair;
  auto deadline = std::make_shared<IoDeadline>(pair.server);
  char byte = 0;
  std::optional<boost::system::error_code> result;
  deadline->ExpiresAfter(milliseconds(50));
  StartRead(pair, byte, result);
  pair.ioc.run_for(std::chrono::seconds(10));  // returns early once nothing is left to do
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(*result, asio::error::operation_aborted);
  EXPECT_FALSE(pair.server.is_open());
}

TEST(IoDeadlineTest, ADeadlineMovedOnKeepsTheConnectionUntilItPasses) {
  SocketPair pair;
  auto deadline = std::make_shared<IoDeadline>(pair.server);
  char byte = 0;
  std::optional<boost::system::error_code> result;
  deadline->ExpiresAfter(milliseconds(500));
  StartRead(pair, byte, result);
  // Renewed every 50 ms for 900 ms: the first 500 ms deadline passes, the connection stays.
  asio::steady_timer renew(pair.ioc);
  int renewals = 0;
  std::function<void()> next = [&] {
    renew.expires_after(milliseconds(50));
    renew.async_wait([&](const boost::system::error_code&) {
      if (++renewals == 18) {
        EXPECT_TRUE(pair.server.is_open());
        EXPECT_FALSE(result.has_value());
        return;
      }
      deadline->ExpiresAfter(milliseconds(500));
      next();
    });
  };
  next();
  pair.ioc.run_for(std::chrono::seconds(10));
  EXPECT_EQ(renewals, 18);
  ASSERT_TRUE(result.has_value());  // then the last deadline passed
  EXPECT_EQ(*result, asio::error::operation_aborted);
}

TEST(IoDeadlineTest, DataBeforeTheDeadlineCompletesTheRead) {
  SocketPair pair;
  auto deadline = std::make_shared<IoDeadline>(pair.server);
  char byte = 0;
  std::optional<boost::system::error_code> result;
  deadline->ExpiresAfter(milliseconds(200));
  StartRead(pair, byte, result);
  asio::write(pair.client, asio::buffer("x", 1));
  pair.ioc.run_one();
  ASSERT_TRUE(result.has_value());
  EXPECT_FALSE(*result);
  EXPECT_EQ(byte, 'x');
  deadline->Clear();  // nothing waits now: the deadline passing changes nothing
  pair.ioc.run_for(std::chrono::seconds(10));
  EXPECT_TRUE(pair.server.is_open());
}

TEST(IoDeadlineTest, AShorterTimeoutMovesTheTimerForward) {
  SocketPair pair;
  auto deadline = std::make_shared<IoDeadline>(pair.server);
  char byte = 0;
  std::optional<boost::system::error_code> result;
  deadline->ExpiresAfter(std::chrono::hours(1));
  deadline->Clear();
  deadline->ExpiresAfter(milliseconds(50));
  StartRead(pair, byte, result);
  pair.ioc.run_for(std::chrono::seconds(10));  // far less than the hour the timer had
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(*result, asio::error::operation_aborted);
}

TEST(IoDeadlineTest, StopLeavesTheSocketAlone) {
  SocketPair pair;
  auto deadline = std::make_shared<IoDeadline>(pair.server);
  deadline->ExpiresAfter(milliseconds(20));
  deadline->Stop();
  pair.ioc.run_for(std::chrono::seconds(10));
  EXPECT_TRUE(pair.server.is_open());
}

}  // namespace
}  // namespace lqe::gateway
