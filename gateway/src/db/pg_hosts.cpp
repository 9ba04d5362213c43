#include "lqe/gateway/pg_hosts.h"

#include <libpq-fe.h>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace lqe::gateway {

std::string DsnHostLabel(const std::string& dsn) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(dsn.c_str(), &error);
  if (options == nullptr) {
    PQfreemem(error);
    return "unparsed-dsn";
  }
  std::string host = "localhost";
  std::string port = "5432";
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val == nullptr || *o->val == '\0') continue;
    if (std::string_view(o->keyword) == "host" || std::string_view(o->keyword) == "hostaddr") {
      host = o->val;
    }
    if (std::string_view(o->keyword) == "port") port = o->val;
  }
  PQconninfoFree(options);
  return host + ":" + port;
}

PgHosts::PgHosts(PgHostsOptions options) : options_(std::move(options)) {
  primary_.label = DsnHostLabel(options_.primary_dsn);
  primary_.dsn = options_.primary_dsn;
  primary_.pool = std::make_shared<PgPool>(options_.primary_dsn, options_.pool_size,
                                           options_.connect_timeout_ms);
  primary_.in_rotation = true;
  for (const auto& dsn : options_.replica_dsns) {
    auto replica = std::make_unique<Host>();
    replica->label = DsnHostLabel(dsn);
    replica->dsn = dsn;
    replica->pool = std::make_shared<PgPool>(dsn, options_.pool_size, options_.connect_timeout_ms);
    replicas_.push_back(std::move(replica));
  }
  // Replicas join the rotation after their first successful check.
  if (!replicas_.empty()) checker_ = std::thread([this] { CheckLoop(); });
}

PgHosts::~PgHosts() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_all();
  if (checker_.joinable()) checker_.join();
}

void PgHosts::CheckLoop() {
  std::unique_lock lock(stop_mutex_);
  while (!stopping_) {
    lock.unlock();
    CheckReplicas();
    lock.lock();
    stop_signal_.wait_for(lock, std::chrono::milliseconds(options_.check_interval_ms),
                          [this] { return stopping_; });
  }
}

void PgHosts::CheckReplicas() {
  for (auto& replica : replicas_) CheckOne(*replica);
}

void PgHosts::CheckOne(Host& replica) {
  long long lag = -1;
  std::string problem;
  try {
    pqxx::connection conn(DsnWithConnectTimeout(replica.dsn, options_.connect_timeout_ms));
    pqxx::nontransaction tx(conn);
    // Lag is the age of the last replayed transaction while WAL is still waiting to be
    // replayed; a replica that has replayed all it received is current.
    pqxx::row row = tx.exec1(
        "SELECT pg_is_in_recovery(), CASE WHEN NOT pg_is_in_recovery() THEN 0 "
        "WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0 "
        "ELSE coalesce(floor(extract(epoch FROM clock_timestamp() - "
        "pg_last_xact_replay_timestamp()) * 1000), 0) END::bigint");
    lag = row[1].as<long long>();
    if (!row[0].as<bool>()) problem = "it is not in recovery (promoted?)";
    if (problem.empty() && lag > options_.max_replica_lag_ms) {
      problem = "it lags " + std::to_string(lag) + " ms behind the primary";
    }
  } catch (const std::exception& e) {
    problem = "it is unreachable";
  }
  replica.lag_ms = lag;
  bool healthy = problem.empty();
  bool was = replica.in_rotation.exchange(healthy);
  if (was && !healthy) {
    spdlog::warn("replica {} taken out of rotation: {}", replica.label, problem);
  } else if (!was && healthy) {
    spdlog::info("replica {} in rotation (lag {} ms)", replica.label, lag);
  }
}

QueryResult PgHosts::RunOn(Host& host, const std::string& sql,
                           const std::vector<std::optional<std::string>>& params, int max_rows,
                           int statement_timeout_ms, QueryCancel* cancel) {
  host.queries.fetch_add(1, std::memory_order_relaxed);
  QueryResult r = RunQuery(*host.pool, sql, params, max_rows, statement_timeout_ms, cancel);
  if (r.status == QueryStatus::kUnavailable && r.shard.empty()) {
    host.errors.fetch_add(1, std::memory_order_relaxed);
  }
  return r;
}

QueryResult PgHosts::RunRead(const std::string& sql,
                             const std::vector<std::optional<std::string>>& params, int max_rows,
                             int statement_timeout_ms, QueryCancel* cancel) {
  // Least busy first, by a snapshot of each pool's use (the counts move while we sort).
  std::vector<std::pair<int, Host*>> order;
  for (auto& replica : replicas_) {
    if (replica->in_rotation.load()) order.emplace_back(replica->pool->InUse(), replica.get());
  }
  // Ties go round robin, so idle replicas share the load too.
  if (order.size() > 1) {
    auto first = static_cast<std::ptrdiff_t>(next_replica_.fetch_add(1) % order.size());
    std::rotate(order.begin(), order.begin() + first, order.end());
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& entry : order) {
    Host* replica = entry.second;
    QueryResult r = RunOn(*replica, sql, params, max_rows, statement_timeout_ms, cancel);
    // A shard that is down is down for every host; any other answer is the answer.
    if (r.status != QueryStatus::kUnavailable || !r.shard.empty()) return r;
    if (cancel != nullptr && cancel->Cancelled()) return r;
    // Lost or refused: the read-only statement runs again on the next host. The health check
    // puts the replica back once it answers.
    bool busy = r.message == "all database connections are busy";
    if (!busy && replica->in_rotation.exchange(false)) {
      spdlog::warn("replica {} taken out of rotation: {}; retrying on another host", replica->label,
                   r.message);
    }
  }
  return RunOn(primary_, sql, params, max_rows, statement_timeout_ms, cancel);
}

std::vector<HostStats> PgHosts::Stats() const {
  std::vector<HostStats> out;
  auto add = [&out](const Host& host, bool primary) {
    HostStats s;
    s.host = host.label;
    s.primary = primary;
    s.in_rotation = host.in_rotation.load();
    s.in_use = host.pool->InUse();
    s.size = host.pool->Size();
    s.lag_ms = host.lag_ms.load();
    s.queries = host.queries.load();
    s.errors = host.errors.load();
    out.push_back(s);
  };
  add(primary_, true);
  for (const auto& replica : replicas_) add(*replica, false);
  return out;
}

int PgHosts::InUse() const {
  int n = primary_.pool->InUse();
  for (const auto& replica : replicas_) n += replica->pool->InUse();
  return n;
}

int PgHosts::Size() const {
  int n = primary_.pool->Size();
  for (const auto& replica : replicas_) n += replica->pool->Size();
  return n;
}

}  // namespace lqe::gateway
