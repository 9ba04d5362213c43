// The database hosts behind the gateway: the primary and its streaming read replicas, each with
// its own connection pool. Endpoint queries go to a healthy replica (the least busy first) and
// move to the next host when one fails to answer; with no healthy replica they run on the
// primary. A background thread checks each replica (reachable, in recovery, replay lag) and
// takes it out of rotation or puts it back.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "lqe/gateway/pg_pool.h"

namespace lqe::gateway {

struct PgHostsOptions {
  std::string primary_dsn;
  std::vector<std::string> replica_dsns;
  int pool_size = 8;
  int connect_timeout_ms = 2000;
  int max_replica_lag_ms = 5000;
  int check_interval_ms = 1000;
};

// What /metrics and `lqe cluster status` show of one host.
struct HostStats {
  std::string host;  // host:port from its DSN (never a password)
  bool primary = false;
  bool in_rotation = true;
  int in_use = 0;
  int size = 0;
  long long lag_ms = -1;  // -1: not measured (the primary, or a replica never reached)
  std::uint64_t queries = 0;
  std::uint64_t errors = 0;
};

class PgHosts {
 public:
  explicit PgHosts(PgHostsOptions options);
  ~PgHosts();
  PgHosts(const PgHosts&) = delete;
  PgHosts& operator=(const PgHosts&) = delete;

  std::shared_ptr<PgPool> Primary() const { return primary_.pool; }
  // Runs a read-only query as RunQuery does, on a replica when one is in rotation.
  QueryResult RunRead(const std::string& sql, const std::vector<std::optional<std::string>>& params,
                      int max_rows, int statement_timeout_ms, QueryCancel* cancel = nullptr);
  std::vector<HostStats> Stats() const;
  // One health round over every replica, now (the background thread runs it on its interval).
  void CheckReplicas();
  // Connections in use over all hosts, and their sum of sizes.
  int InUse() const;
  int Size() const;

 private:
  struct Host {
    std::string label;
    std::string dsn;
    std::shared_ptr<PgPool> pool;
    std::atomic<bool> in_rotation{false};
    std::atomic<long long> lag_ms{-1};
    std::atomic<std::uint64_t> queries{0};
    std::atomic<std::uint64_t> errors{0};
  };
  void CheckLoop();
  void CheckOne(Host& replica);
  QueryResult RunOn(Host& host, const std::string& sql,
                    const std::vector<std::optional<std::string>>& params, int max_rows,
                    int statement_timeout_ms, QueryCancel* cancel);

  PgHostsOptions options_;
  Host primary_;
  std::vector<std::unique_ptr<Host>> replicas_;
  std::atomic<std::size_t> next_replica_{0};
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread checker_;
};

// host:port of a libpq DSN (URI or key=value), for labels and messages.
std::string DsnHostLabel(const std::string& dsn);

}  // namespace lqe::gateway
