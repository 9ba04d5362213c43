// Server internals shared by server.cpp and session.cpp.
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <mutex>
#include <vector>

#include "http/change_watch.h"
#include "lqe/gateway/clock.h"
#include "lqe/gateway/drains.h"
#include "lqe/gateway/ingest.h"
#include "lqe/gateway/key_limiter.h"
#include "lqe/gateway/operations_metrics.h"
#include "lqe/gateway/query_cancel.h"
#include "lqe/gateway/retention.h"
#include "lqe/gateway/server.h"
#include "tail/remote_feed.h"
#include "tail/tail_hub.h"

namespace lqe::gateway {

struct Server::Impl {
  std::string config_path;
  std::shared_ptr<Metrics> metrics;
  StateBuilder builder;
  SystemClock clock;
  std::unique_ptr<ResultCache> cache;
  std::unique_ptr<boost::asio::thread_pool> workers;
  int io_threads = 1;

  std::mutex state_mutex;
  std::shared_ptr<const GatewayState> state;
  std::atomic<std::uint64_t> generation{1};

  // Declared before the event loops: session coroutines still suspended when a loop is
  // destroyed unwind into these.
  std::atomic<bool> stopping{false};
  std::atomic<int> in_flight{0};
  // Queries to cancel at the shutdown deadline: each waiting request's token, and the one
  // shared by cache fills and warming.
  CancelRegistry cancels;
  std::shared_ptr<QueryCancel> shared_cancel = std::make_shared<QueryCancel>();
  KeyLimiter key_limiter;

  // One event loop per I/O thread: a connection lives on one loop for its whole life, so its
  // reads, writes and timers never wake another thread (the shared-loop design spent most of
  // its time in cross-thread wake-ups). `ioc` is loop 0; it also owns the acceptor, signals and
  // timers. The other loops are declared first so they outlive `ioc`: an accept still pending
  // when the server is destroyed holds a socket that belongs to one of them, and `ioc`'s
  // destructor destroys that operation (ASan saw the use after free with the opposite order).
  std::vector<std::unique_ptr<boost::asio::io_context>> extra_loops;
  boost::asio::io_context ioc{1};
  std::size_t next_loop = 0;
  boost::asio::ip::tcp::acceptor acceptor{ioc};
  boost::asio::ip::tcp::acceptor admin_acceptor{ioc};  // open only with admin.listen
  boost::asio::signal_set signals{ioc};
  boost::asio::steady_timer warm_timer{ioc};
  boost::asio::steady_timer shutdown_timer{ioc};
  std::chrono::steady_clock::time_point shutdown_deadline;

  // Connections beyond this are refused at once; below RLIMIT_NOFILE so accept() keeps working.
  int fd_budget = 0;
  boost::asio::steady_timer accept_backoff{ioc};
  std::chrono::steady_clock::time_point last_accept_log;
  std::uint64_t accept_failures_unlogged = 0;

  // Build, config reload and retention metrics; the retention thread (started by Run).
  OperationsMetrics ops;
  std::unique_ptr<RetentionScheduler> retention;
  std::unique_ptr<DrainWorker> drains;
  std::unique_ptr<ChangeWatch> api_state_watch;

  // The API listener's TLS context (null: plain HTTP); a reload loads the files again and new
  // connections take the new one.
  std::mutex tls_mutex;
  std::shared_ptr<boost::asio::ssl::context> tls;
  std::shared_ptr<boost::asio::ssl::context> CurrentTls();

  std::string Reload();
  std::shared_ptr<const GatewayState> CurrentState();
  Context MakeContext();
  void WatchSignals();
  void ScheduleWarming();
  void BeginShutdown();
  void WaitForInFlight();
  void StopLoops();
  boost::asio::io_context& NextLoop();
  boost::asio::awaitable<void> Accept(boost::asio::ip::tcp::acceptor& from, bool admin);
  // Sends a canned 503 to a connection over the cap and closes it, without blocking.
  void RefuseConnection(boost::asio::ip::tcp::socket& socket);
  // Logs an accept() failure at most once a second, with how many were not logged.
  void LogAcceptFailure(const boost::system::error_code& ec);

  // Open live tails; the ingest writers publish into it, so it outlives them.
  tail::Hub tails;
  // Other gateways' committed batches, read back for the open tails (stopped before `tails`).
  std::unique_ptr<tail::RemoteFeed> remote_tails;

  // Last: destroyed first, so its writers finish (and post their answers) while the event loops
  // still exist.
  std::unique_ptr<IngestService> ingest;
};

// `admin`: accepted on admin.listen. `tls`: the API listener's TLS context, or null.
boost::asio::awaitable<void> RunSession(Server::Impl& server, boost::asio::ip::tcp::socket socket,
                                        bool admin, std::shared_ptr<boost::asio::ssl::context> tls);

}  // namespace lqe::gateway
