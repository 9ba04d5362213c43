// The HTTP/1.1 server: Beast sessions as C++20 coroutines on N I/O threads, a worker pool for
// queries, graceful shutdown on SIGTERM/SIGINT and reload on SIGHUP.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "lqe/gateway/handler.h"

namespace lqe::gateway {

// Builds a snapshot for reload; the default is BuildState(config_path). Tests inject their own.
using StateBuilder = std::function<std::shared_ptr<GatewayState>(std::string* error)>;

class Server {
 public:
  // `state` is the already-built first snapshot of `config_path`.
  Server(std::string config_path, std::shared_ptr<GatewayState> state,
         std::shared_ptr<Metrics> metrics, StateBuilder builder = nullptr);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listener, and admin.listen when set (port 0 picks one), and loads listen.tls.
  // Returns an error message or empty.
  std::string Bind();
  std::uint16_t port() const;
  std::uint16_t admin_port() const;  // 0: no admin listener
  // Serves until Stop() or a signal (when handle_signals). Returns the exit status.
  int Run(bool handle_signals);
  void Stop();
  // Rebuilds the snapshot from the config file (and the TLS context from listen.tls); keeps the
  // old ones on error and counts it in lqe_config_reload_failures_total. Returns the error.
  std::string Reload();

  struct Impl;  // defined in src/http/session.h; public so the session coroutine can use it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace lqe::gateway
