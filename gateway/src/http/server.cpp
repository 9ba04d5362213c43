// The HTTP server: an acceptor coroutine, one coroutine per connection, handlers that may block
// run on a worker pool, signals for shutdown and reload, and the cache-warming timer.
#include "lqe/gateway/server.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <random>
#include <thread>

#include "http/session.h"
#include "http/wire.h"
#include "lqe/gateway/config_diff.h"
#include "lqe/gateway/errors.h"
#include "management/api_endpoints.h"

namespace lqe::gateway {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

std::shared_ptr<PgHosts> MakeHosts(const Config& c) {
  return std::make_shared<PgHosts>(PgHostsOptions{c.dsn, c.replicas, c.pool_size,
                                                  c.connect_timeout_ms, c.max_replica_lag_ms,
                                                  c.replica_check_interval_ms});
}

// The TLS context of listen.tls: TLS 1.2 and later, the certificate chain and key from PEM files.
std::shared_ptr<asio::ssl::context> LoadTls(const TlsConfig& tls, std::string* error) {
  auto context = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
  try {
    context->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                         asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                         asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
    context->use_certificate_chain_file(tls.cert_file);
    context->use_private_key_file(tls.key_file, asio::ssl::context::pem);
  } catch (const boost::system::system_error& e) {
    *error = "listen.tls: cannot load " + tls.cert_file + " / " + tls.key_file + ": " +
             e.code().message();
    return nullptr;
  }
  return context;
}

std::string ListenError(const std::string& host, std::uint16_t port, tcp::acceptor& acceptor) {
  boost::system::error_code ec;
  auto address = asio::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
  if (ec) return "bad listen address " + host;
  tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message();
  return {};
}

std::string RandomSender() {
  std::random_device random;
  char text[24];
  std::snprintf(text, sizeof(text), "%08x%08x", random(), random());
  return text;
}

}  // namespace

Server::Server(std::string config_path, std::shared_ptr<GatewayState> state,
               std::shared_ptr<Metrics> metrics, StateBuilder builder)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.builder = std::move(builder);
  const Config& c = state->config;
  s.config_path = std::move(config_path);
  s.metrics = std::move(metrics);
  s.cache = MakeInProcessCache(s.clock, c.cache_max_bytes);
  state->hosts = MakeHosts(c);
  state->pool = state->hosts->Primary();
  int workers = c.worker_threads > 0 ? c.worker_threads : 2 * c.pool_size;
  s.workers = std::make_unique<asio::thread_pool>(static_cast<std::size_t>(workers));
  s.io_threads = c.io_threads > 0
                     ? c.io_threads
                     : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.cancels.Add(s.shared_cancel);
  // This gateway's name in the commit announcements: its own batches reach its tails in-process.
  // Without tails across gateways, no name: nothing is announced (ingest.h).
  const std::string sender = c.tail.across_gateways ? RandomSender() : std::string();
  s.ingest = std::make_unique<IngestService>(
      c.ingest, c.ingest.dsn.empty() ? c.dsn : c.ingest.dsn,
      [&tails = s.tails](const std::string& table, const std::vector<schema::FormedEvent>& events) {
        tails.Publish(table, events);
      },
      sender);
  if (c.tail.across_gateways) {
    s.remote_tails =
        std::make_unique<tail::RemoteFeed>(c.dsn, sender, s.tails, c.statement_timeout_ms);
  }
  // Every connection is a file descriptor; leave room for the pools, the log and the listener.
  rlimit files{};
  int budget = 1 << 20;
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
    budget = static_cast<int>(std::min<rlim_t>(files.rlim_cur, 1 << 20)) - 2 * c.pool_size - 32;
  }
  s.fd_budget = std::max(1, budget);
  s.state = std::move(state);
}

Server::~Server() {
  if (impl_ && impl_->workers) impl_->workers->join();
}

std::string Server::Bind() {
  Impl& s = *impl_;
  const Config& c = s.state->config;
  if (c.tls.enabled()) {
    std::string error;
    s.tls = LoadTls(c.tls, &error);
    if (!s.tls) return error;
  }
  if (std::string error = ListenError(c.listen_host, c.listen_port, s.acceptor); !error.empty()) {
    return error;
  }
  if (c.admin.separate()) {
    return ListenError(c.admin.listen_host, c.admin.listen_port, s.admin_acceptor);
  }
  return {};
}

std::uint16_t Server::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::uint16_t Server::admin_port() const {
  if (!impl_->admin_acceptor.is_open()) return 0;
  return impl_->admin_acceptor.local_endpoint().port();
}

std::string Server::Reload() {
  return impl_->Reload();
}

void Server::Stop() {
  asio::post(impl_->ioc, [this] { impl_->BeginShutdown(); });
}

int Server::Run(bool handle_signals) {
  Impl& s = *impl_;
  if (handle_signals) s.WatchSignals();
  s.ScheduleWarming();
  asio::co_spawn(s.ioc, s.Accept(s.acceptor, false), asio::detached);
  if (s.admin_acceptor.is_open()) {
    asio::co_spawn(s.ioc, s.Accept(s.admin_acceptor, true), asio::detached);
    spdlog::info("lqe admin routes (/metrics, /health, /ready) on {}:{}",
                 s.state->config.admin.listen_host, admin_port());
  }
  // The background threads read the config of the current snapshot (reloads apply at once).
  auto current_config = [&s] {
    auto state = s.CurrentState();
    return std::shared_ptr<const Config>(state, &state->config);
  };
  s.retention = std::make_unique<RetentionScheduler>(current_config, &s.ops);
  s.retention->Start();
  s.drains = std::make_unique<DrainWorker>(current_config, &s.ops);
  s.drains->Start();
  // Endpoints and sources created through the API: every gateway reloads within a second of a
  // change.
  s.api_state_watch = std::make_unique<ChangeWatch>(
      [&s] {
        const std::string dsn = s.CurrentState()->config.dsn;
        return dsn.empty() ? std::string() : management::ApiStateMark(dsn);
      },
      [&s] {
        spdlog::info("reload: the endpoints or sources created through the API changed");
        asio::post(*s.workers, [&s] { s.Reload(); });
      },
      std::chrono::seconds(1));
  s.api_state_watch->Start();
  spdlog::info("lqe serving {} endpoints on {}:{}{} with {} I/O threads",
               s.state->config.endpoints.size(), s.state->config.listen_host, port(),
               s.tls ? " (TLS)" : "", s.io_threads);
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_alive;
  for (int i = 1; i < s.io_threads; ++i) {
    s.extra_loops.push_back(std::make_unique<asio::io_context>(1));
    keep_alive.push_back(asio::make_work_guard(*s.extra_loops.back()));
  }
  std::vector<std::thread> threads;
  for (auto& loop : s.extra_loops) {
    threads.emplace_back([&loop] {
      for (;;) {
        try {
          loop->run();
          return;
        } catch (const std::exception& e) {
          spdlog::error("event loop: unexpected error, continuing: {}", e.what());
        }
      }
    });
  }
  // A handler that throws must not end the process: log it and keep serving.
  for (;;) {
    try {
      s.ioc.run();
      break;
    } catch (const std::exception& e) {
      spdlog::error("event loop: unexpected error, continuing: {}", e.what());
    }
  }
  keep_alive.clear();
  for (auto& t : threads) t.join();
  s.retention->Stop();
  s.drains->Stop();
  s.api_state_watch->Stop();
  if (s.stopping.load()) {
    // Past the grace deadline: keep cancelling whatever still runs until the workers are done
    // (a cancel that reaches a backend between protocol messages is dropped).
    std::atomic<bool> joined{false};
    std::thread canceller([&] {
      while (!joined.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (!joined.load()) s.cancels.CancelAll();
      }
    });
    s.workers->join();
    joined = true;
    canceller.join();
  }
  s.workers->join();
  spdlog::info("lqe stopped");
  return 0;
}

std::string Server::Impl::Reload() {
  std::string error;
  auto next = builder ? builder(&error) : BuildState(config_path, metrics.get(), &error);
  std::shared_ptr<asio::ssl::context> next_tls;
  if (next && next->config.tls.enabled()) next_tls = LoadTls(next->config.tls, &error);
  if (!next || (next->config.tls.enabled() && !next_tls)) {
    ops.CountReloadFailure();
    spdlog::error("reload failed, keeping the previous config: {}", error);
    return error;
  }
  std::shared_ptr<const GatewayState> previous = CurrentState();
  const Config& was = previous->config;
  const Config& now = next->config;
  if (now.dsn != was.dsn || now.pool_size != was.pool_size ||
      now.connect_timeout_ms != was.connect_timeout_ms || now.replicas != was.replicas ||
      now.max_replica_lag_ms != was.max_replica_lag_ms ||
      now.replica_check_interval_ms != was.replica_check_interval_ms) {
    next->hosts = MakeHosts(now);
    spdlog::info("reload: database settings changed; new queries use new connection pools");
  } else {
    next->hosts = previous->hosts;
  }
  next->pool = next->hosts->Primary();
  // Results read from another database are not this database's results.
  bool other_database = now.dsn != was.dsn;
  for (const auto& [id, old] : previous->by_id) {
    auto it = next->by_id.find(id);
    if (other_database || it == next->by_id.end() || it->second->version != old->version) {
      cache->InvalidateEndpoint(id);
      spdlog::info(
          "reload: endpoint {} changed, removed or moved to another database; its "
          "cache entries were dropped",
          old->name);
    }
  }
  if (now.listen_host != was.listen_host || now.listen_port != was.listen_port ||
      now.io_threads != was.io_threads || now.worker_threads != was.worker_threads ||
      now.cache_max_bytes != was.cache_max_bytes || now.log_json != was.log_json ||
      now.admin.listen_host != was.admin.listen_host ||
      now.admin.listen_port != was.admin.listen_port) {
    spdlog::warn(
        "reload: listen, admin.listen, io_threads, worker_threads, cache_max_bytes and "
        "log.format take effect after a restart; the running values are kept");
  }
  std::vector<std::string> changes = DescribeConfigChanges(was, now);
  for (const std::string& change : changes) spdlog::info("reload: {}", change);
  {
    std::lock_guard lock(tls_mutex);
    tls = std::move(next_tls);
  }
  if (now.tls.enabled()) spdlog::info("reload: TLS certificate loaded from {}", now.tls.cert_file);
  {
    std::lock_guard lock(state_mutex);
    state = std::move(next);
    generation.fetch_add(1, std::memory_order_release);
  }
  ops.MarkReloadSuccess();
  spdlog::info("reload: config {} applied ({} changes to endpoints and keys)", config_path,
               changes.size());
  return {};
}

std::shared_ptr<asio::ssl::context> Server::Impl::CurrentTls() {
  std::lock_guard lock(tls_mutex);
  return tls;
}

std::shared_ptr<const GatewayState> Server::Impl::CurrentState() {
  // Each thread keeps its own copy and refreshes it only when the generation moves, so
  // requests never take the state mutex.
  thread_local const Impl* owner = nullptr;
  thread_local std::uint64_t seen = 0;
  thread_local std::shared_ptr<const GatewayState> cached;
  std::uint64_t now = generation.load(std::memory_order_acquire);
  if (owner != this || seen != now || !cached) {
    std::lock_guard lock(state_mutex);
    cached = state;
    seen = generation.load(std::memory_order_relaxed);
    owner = this;
  }
  return cached;
}

Context Server::Impl::MakeContext() {
  Context context;
  context.state = CurrentState();
  thread_local HitMemo memo;  // each I/O thread's own: no lock
  context.memo = &memo;
  context.cache = cache.get();
  context.metrics = metrics.get();
  // Raw pointers are enough: the context and any loader built from it hold the snapshot that
  // owns the hosts.
  PgHosts* hosts = context.state->hosts.get();
  context.run_query = [hosts](const std::string& sql,
                              const std::vector<std::optional<std::string>>& params, int max_rows,
                              int timeout_ms, QueryCancel* cancel) {
    return hosts->RunRead(sql, params, max_rows, timeout_ms, cancel);
  };
  context.shared_cancel = shared_cancel;
  context.key_limiter = &key_limiter;
  context.ready = [hosts] {
    QueryResult r = hosts->RunRead("SELECT 1", {}, -1, 2000, nullptr);
    return r.status == QueryStatus::kOk;
  };
  context.metrics_text = [this, hosts] {
    return metrics->Render(cache->Stats(), hosts->InUse(), hosts->Size()) +
           RenderHostMetrics(hosts->Stats()) + ingest->RenderMetrics() + tails.RenderMetrics() +
           ops.Render();
  };
  context.ingest = ingest.get();
  context.tails = &tails;
  return context;
}

void Server::Impl::WatchSignals() {
  signals.add(SIGINT);
  signals.add(SIGTERM);
  signals.add(SIGHUP);
  signals.async_wait([this](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    if (signal == SIGHUP) {
      asio::post(*workers, [this] { Reload(); });
      WatchSignals();
      return;
    }
    spdlog::info("signal {}: shutting down", signal);
    BeginShutdown();
  });
}

void Server::Impl::ScheduleWarming() {
  warm_timer.expires_after(std::chrono::seconds(1));
  warm_timer.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping.load()) return;
    cache->RunWarming([this](std::function<void()> job) { asio::post(*workers, std::move(job)); });
    ScheduleWarming();
  });
}

void Server::Impl::BeginShutdown() {
  if (stopping.exchange(true)) return;
  boost::system::error_code ignored;
  acceptor.close(ignored);
  admin_acceptor.close(ignored);
  warm_timer.cancel();
  signals.cancel(ignored);
  tails.Shutdown();  // each tail writes its end message and counts out of in_flight
  shutdown_deadline = std::chrono::steady_clock::now() +
                      std::chrono::milliseconds(CurrentState()->config.shutdown_grace_ms);
  WaitForInFlight();
}

void Server::Impl::WaitForInFlight() {
  if (in_flight.load() == 0 || std::chrono::steady_clock::now() >= shutdown_deadline) {
    if (in_flight.load() != 0) {
      spdlog::warn("shutdown: {} requests still running at the deadline", in_flight.load());
    }
    // Whatever still runs in Postgres is cancelled, so the worker threads return at once.
    cancels.CancelAll();
    StopLoops();
    return;
  }
  shutdown_timer.expires_after(std::chrono::milliseconds(20));
  shutdown_timer.async_wait([this](const boost::system::error_code&) { WaitForInFlight(); });
}

void Server::Impl::StopLoops() {
  for (auto& loop : extra_loops) loop->stop();
  ioc.stop();
}

asio::io_context& Server::Impl::NextLoop() {
  // Round robin over the loops; only the accept coroutine (on loop 0) calls this.
  std::size_t index = next_loop++ % (extra_loops.size() + 1);
  return index == 0 ? ioc : *extra_loops[index - 1];
}

void Server::Impl::RefuseConnection(tcp::socket& socket) {
  Response response = ErrorResponse(503, "the server has too many open connections; retry shortly",
                                    {{"reason", "too_many_connections"}});
  response.AddHeader("Retry-After", "1");
  std::string bytes = SerializeHead(response, 11, false) + response.body;
  // Best effort: a fresh socket's send buffer takes these few hundred bytes at once.
  [[maybe_unused]] ssize_t sent =
      ::send(socket.native_handle(), bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

void Server::Impl::LogAcceptFailure(const boost::system::error_code& ec) {
  metrics->CountAcceptFailure();
  auto now = std::chrono::steady_clock::now();
  if (now - last_accept_log < std::chrono::seconds(1)) {
    ++accept_failures_unlogged;
    return;
  }
  spdlog::warn("accept failed: {} ({} more failures since the last report)", ec.message(),
               accept_failures_unlogged);
  accept_failures_unlogged = 0;
  last_accept_log = now;
}

asio::awaitable<void> Server::Impl::Accept(tcp::acceptor& from, bool admin) {
  auto backoff = std::chrono::milliseconds(0);
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket =
        co_await from.async_accept(NextLoop(), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (stopping.load() || ec == asio::error::operation_aborted) co_return;
      LogAcceptFailure(ec);
      // Out of descriptors or memory: the pending connection stays queued and accept() would
      // fail again at once. Wait (10 ms doubling to 1 s) while existing connections are served.
      if (ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space ||
          ec == asio::error::no_memory || ec.value() == ENFILE) {
        backoff = std::min<std::chrono::milliseconds>(
            std::chrono::milliseconds(1000),
            std::max<std::chrono::milliseconds>(std::chrono::milliseconds(10), backoff * 2));
        accept_backoff.expires_after(backoff);
        co_await accept_backoff.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      }
      continue;
    }
    backoff = std::chrono::milliseconds(0);
    int cap = std::min(CurrentState()->config.max_connections, fd_budget);
    if (metrics->OpenConnections().load() >= cap) {
      metrics->CountRefusedConnection();
      RefuseConnection(socket);
      continue;
    }
    metrics->OpenConnections().fetch_add(1);
    auto executor = socket.get_executor();
    asio::co_spawn(executor,
                   RunSession(*this, std::move(socket), admin, admin ? nullptr : CurrentTls()),
                   asio::detached);
  }
}

}  // namespace lqe::gateway
