#include "lqe/gateway/pg_pool.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace lqe::gateway {

std::string DsnWithConnectTimeout(const std::string& dsn, int connect_timeout_ms) {
  // libpq takes the connect timeout in whole seconds, at least 1 (our unreachable-check bound).
  std::string seconds = std::to_string(std::max(1, connect_timeout_ms / 1000));
  if (dsn.find("://") == std::string::npos) return dsn + " connect_timeout=" + seconds;
  return dsn + (dsn.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=" + seconds;
}

PgPool::PgPool(const std::string& dsn, int size, int connect_timeout_ms)
    : dsn_(DsnWithConnectTimeout(dsn, connect_timeout_ms)), size_(size) {}

PgPool::~PgPool() = default;

PgPool::Lease::~Lease() {
  if (pool_ != nullptr && pooled_.conn) pool_->Release(std::move(pooled_), broken_);
}

void PgPool::Lease::UseTimeout(int timeout_ms) {
  if (pooled_.timeout_ms == timeout_ms) return;
  pqxx::nontransaction tx(*pooled_.conn);
  tx.exec("SET statement_timeout = " + std::to_string(timeout_ms));
  pooled_.timeout_ms = timeout_ms;
}

PgPool::Lease PgPool::Acquire(std::chrono::milliseconds wait, int timeout_ms) {
  Pooled pooled;
  {
    std::unique_lock lock(mutex_);
    if (!freed_.wait_for(lock, wait, [this] { return in_use_ < size_; })) {
      throw std::runtime_error("all database connections are busy");
    }
    ++in_use_;
    if (!idle_.empty()) {
      pooled = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  try {
    if (!pooled.conn || !pooled.conn->is_open()) {
      pooled.conn = std::make_unique<pqxx::connection>(dsn_);
      // Session defaults instead of per-query BEGIN READ ONLY / SET LOCAL / COMMIT: every
      // statement then runs as its own read-only transaction with the timeout, in one round trip.
      // The planner settings the gateway role gets from lqe migrate (no JIT: compiling costs
      // more than the short queries save; 64 MB per sort or hash) are set here too, so a
      // gateway logging in with another role plans the same way.
      pqxx::nontransaction setup(*pooled.conn);
      setup.exec(
          "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'; "
          "SET default_transaction_read_only = on; SET jit = off; SET work_mem = '64MB'; "
          "SET statement_timeout = " +
          std::to_string(timeout_ms));
      pooled.timeout_ms = timeout_ms;
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    --in_use_;
    freed_.notify_one();
    throw;
  }
  return Lease(this, std::move(pooled));
}

void PgPool::Release(Pooled pooled, bool broken) {
  std::lock_guard lock(mutex_);
  --in_use_;
  if (!broken && pooled.conn->is_open()) idle_.push_back(std::move(pooled));
  freed_.notify_one();
}

void PgPool::DropIdle() {
  std::vector<Pooled> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(idle_);
  }
  // Closed outside the lock.
}

int PgPool::InUse() const {
  std::lock_guard lock(mutex_);
  return in_use_;
}

std::size_t ResultRows::Columns(std::size_t row) const {
  return pg_ ? static_cast<std::size_t>(pg_->columns()) : owned_[row].size();
}

std::optional<std::string_view> ResultRows::Cell(std::size_t row, std::size_t column) const {
  if (pg_) {
    pqxx::field field = (*pg_)[static_cast<pqxx::result::size_type>(row)]
                              [static_cast<pqxx::row::size_type>(column)];
    if (field.is_null()) return std::nullopt;
    return std::string_view(field.c_str(), field.size());
  }
  const auto& value = owned_[row][column];
  return value ? std::optional<std::string_view>(*value) : std::nullopt;
}

void ResultRows::Truncate(std::size_t n) {
  count_ = std::min(count_, n);
  if (!pg_) owned_.resize(count_);
}

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

QueryResult Failure(QueryStatus status, std::string message, std::string sqlstate = {}) {
  QueryResult r;
  r.status = status;
  r.message = std::move(message);
  r.sqlstate = std::move(sqlstate);
  return r;
}

// The first line of Postgres's message, without "ERROR:  ".
std::string FirstLine(std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  if (message.rfind("ERROR:  ", 0) == 0) message = message.substr(8);
  if (message.rfind("FATAL:  ", 0) == 0) message = message.substr(8);
  if (auto nl = message.find('\n'); nl != std::string::npos) message = message.substr(0, nl);
  return message;
}

// The connection itself is gone (or going): the statement may succeed on a fresh one.
bool LostConnection(std::string_view state) {
  return StartsWith(state, "08") || state == "57P01" || state == "57P02";
}

// postgres_fdw's "could not connect to server "NAME"": the shard's name, else "".
std::string UnreachableShard(std::string_view message) {
  constexpr std::string_view kPrefix = "could not connect to server \"";
  auto at = message.find(kPrefix);
  if (at == std::string_view::npos) return {};
  auto start = at + kPrefix.size();
  auto end = message.find('"', start);
  return end == std::string_view::npos ? std::string()
                                       : std::string(message.substr(start, end - start));
}

// The coordinator's connection is fine; one of its foreign servers is not.
QueryResult ShardFailure(std::string shard) {
  QueryResult failure =
      Failure(QueryStatus::kUnavailable, "shard " + shard + " is unavailable", "08001");
  failure.shard = std::move(shard);
  return failure;
}

// One attempt of RunQuery on one leased connection.
QueryResult RunOnce(PgPool::Lease& lease, const std::string& sql,
                    const std::vector<const char*>& args, int max_rows, int timeout_ms,
                    QueryCancel* cancel, bool* retry) {
  *retry = false;
  QueryResult out;
  pqxx::connection& connection = *lease;
  if (cancel != nullptr && !cancel->Attach(&connection)) {
    return Failure(QueryStatus::kCancelled, "the query was cancelled");
  }
  struct Detach {
    QueryCancel* cancel;
    pqxx::connection* connection;
    ~Detach() {
      if (cancel != nullptr) cancel->Detach(connection);
    }
  } detach{cancel, &connection};
  try {
    lease.UseTimeout(timeout_ms);
    // One statement, no explicit transaction: the session is read only and has the timeout.
    pqxx::nontransaction tx(connection);
    pqxx::result rows = tx.exec_params(sql, pqxx::prepare::make_dynamic_params(args));
    std::size_t limit = rows.size();
    if (max_rows >= 0 && rows.size() > static_cast<std::size_t>(max_rows)) {
      limit = static_cast<std::size_t>(max_rows);
      out.truncated = true;
    }
    // The result outlives the connection's lease; rows are rendered from it in place.
    out.rows = ResultRows(rows, limit);
    return out;
  } catch (const pqxx::broken_connection& e) {
    // libpqxx reports every SQLSTATE 08 this way, postgres_fdw's own failures included.
    if (std::string shard = UnreachableShard(e.what()); !shard.empty()) {
      return ShardFailure(std::move(shard));
    }
    lease.MarkBroken();
    *retry = true;
    return Failure(QueryStatus::kUnavailable, "the database is unavailable");
  } catch (const pqxx::sql_error& e) {
    const std::string& state = e.sqlstate();
    if (std::string shard = UnreachableShard(e.what()); !shard.empty()) {
      return ShardFailure(std::move(shard));
    }
    QueryStatus status = ClassifySqlState(state);
    // Postgres reports a value past its 1 GB allocation limit as an internal error.
    if (state == "XX000" && std::string_view(e.what()).find("invalid memory alloc request size") !=
                                std::string_view::npos) {
      status = QueryStatus::kTooExpensive;
    }
    if (status == QueryStatus::kTimeout && cancel != nullptr && cancel->Cancelled()) {
      return Failure(QueryStatus::kCancelled, "the query was cancelled", state);
    }
    if (status == QueryStatus::kUnavailable) {
      if (LostConnection(state) || !connection.is_open()) lease.MarkBroken();
      *retry = LostConnection(state);
      return Failure(status, "the database is unavailable", state);
    }
    return Failure(status, FirstLine(e.what()), state);
  } catch (const std::exception& e) {
    lease.MarkBroken();
    return Failure(QueryStatus::kFailed, e.what());
  }
}

}  // namespace

QueryStatus ClassifySqlState(std::string_view state) {
  if (state == "57014") return QueryStatus::kTimeout;
  if (StartsWith(state, "08") || state == "57P01" || state == "57P02" || state == "57P03" ||
      state == "53300" || state == "40001" || state == "40P01" || state == "55P03" ||
      StartsWith(state, "58")) {
    return QueryStatus::kUnavailable;
  }
  if (StartsWith(state, "22") || state == "21000" || state == "P0001" || StartsWith(state, "2F") ||
      StartsWith(state, "38") || StartsWith(state, "39")) {
    return QueryStatus::kBadQuery;
  }
  if (StartsWith(state, "53") || StartsWith(state, "54")) return QueryStatus::kTooExpensive;
  if (StartsWith(state, "42") || StartsWith(state, "0A")) return QueryStatus::kTranslatorBug;
  return QueryStatus::kFailed;
}

QueryResult RunQuery(PgPool& pool, const std::string& sql,
                     const std::vector<std::optional<std::string>>& params, int max_rows,
                     int statement_timeout_ms, QueryCancel* cancel) {
  auto start = std::chrono::steady_clock::now();
  std::vector<const char*> args;
  args.reserve(params.size());
  for (const auto& p : params) args.push_back(p ? p->c_str() : nullptr);
  std::string wrapped = max_rows < 0 ? sql
                                     : "SELECT * FROM (" + sql + "\n) AS lqe_result LIMIT " +
                                           std::to_string(max_rows + 1);
  QueryResult out;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (cancel != nullptr && cancel->Cancelled()) {
      return Failure(QueryStatus::kCancelled, "the query was cancelled");
    }
    std::optional<PgPool::Lease> lease;
    try {
      lease.emplace(
          pool.Acquire(std::chrono::milliseconds(statement_timeout_ms), statement_timeout_ms));
    } catch (const pqxx::broken_connection& e) {
      return Failure(QueryStatus::kUnavailable, "the database is unavailable");
    } catch (const std::exception& e) {
      return Failure(QueryStatus::kUnavailable, e.what());
    }
    bool retry = false;
    out = RunOnce(*lease, wrapped, args, max_rows, statement_timeout_ms, cancel, &retry);
    if (!retry) break;
    // The other pooled connections predate the same restart: drop them rather than fail one
    // request on each.
    lease.reset();
    pool.DropIdle();
    if (attempt == 0) spdlog::info("a pooled database connection was lost; retrying the query");
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace lqe::gateway
