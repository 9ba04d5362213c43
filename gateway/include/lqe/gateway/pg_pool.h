// Postgres access: a bounded pool of libpqxx connections that reconnects by itself, and the
// executor that runs one translated query as a single statement. Each connection is set up once
// with default_transaction_read_only and statement_timeout, so a query costs one round trip: it
// runs as its own implicit READ ONLY transaction, bounded by the timeout.
#pragma once

#include <chrono>
#include <condition_variable>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/gateway/query_cancel.h"

namespace lqe::gateway {

class PgPool {
 public:
  PgPool(const std::string& dsn, int size, int connect_timeout_ms);
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  // A connection and the session statement_timeout it has (-1: not set yet).
  struct Pooled {
    std::unique_ptr<pqxx::connection> conn;
    int timeout_ms = -1;
  };

  class Lease {
   public:
    Lease(PgPool* pool, Pooled pooled) : pool_(pool), pooled_(std::move(pooled)) {}
    Lease(Lease&&) = default;
    ~Lease();
    pqxx::connection& operator*() { return *pooled_.conn; }
    // Sets the session's statement_timeout unless it already has this value.
    void UseTimeout(int timeout_ms);
    void MarkBroken() { broken_ = true; }

   private:
    PgPool* pool_;
    Pooled pooled_;
    bool broken_ = false;
  };

  // Waits up to `wait` for a slot; connects if needed, setting the session up (UTC, ISO dates,
  // read only, jit off, work_mem 64 MB, statement_timeout = timeout_ms) in one round trip. Throws
  // pqxx::broken_connection when Postgres is unreachable and std::runtime_error when the pool
  // stays exhausted.
  Lease Acquire(std::chrono::milliseconds wait, int timeout_ms);
  // Closes every idle connection: after one turned out dead (Postgres restarted), the others
  // opened before it are dead too, and each would fail its next query.
  void DropIdle();
  int InUse() const;
  int Size() const { return size_; }

 private:
  void Release(Pooled pooled, bool broken);
  std::string dsn_;
  int size_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<Pooled> idle_;
  int in_use_ = 0;
};

// The DSN with libpq's connect_timeout set (whole seconds, at least 1).
std::string DsnWithConnectTimeout(const std::string& dsn, int connect_timeout_ms);

// The rows of a query result, read in place from libpq's result (no copy), or held in memory
// (test doubles build them from a list of rows).
class ResultRows {
 public:
  using Row = std::vector<std::optional<std::string>>;
  ResultRows() = default;
  ResultRows(pqxx::result pg, std::size_t count) : pg_(std::move(pg)), count_(count) {}
  ResultRows(std::initializer_list<Row> rows) : owned_(rows), count_(owned_.size()) {}
  explicit ResultRows(std::vector<Row> rows) : owned_(std::move(rows)), count_(owned_.size()) {}
  std::size_t size() const { return count_; }
  std::size_t Columns(std::size_t row) const;
  // The text of a value; nullopt = NULL.
  std::optional<std::string_view> Cell(std::size_t row, std::size_t column) const;
  // Keeps the first n rows.
  void Truncate(std::size_t n);

 private:
  std::optional<pqxx::result> pg_;
  std::vector<Row> owned_;
  std::size_t count_ = 0;
};

// How a query ended; each failure maps to one HTTP status (see FromQueryFailure).
enum class QueryStatus : std::uint8_t {
  kOk,
  kTimeout,        // statement_timeout (57014) -> 504
  kCancelled,      // its QueryCancel fired: the client went away, or shutdown -> not answered
  kUnavailable,    // connection lost or refused, server shutting down, too many connections -> 503
  kBadQuery,       // data exceptions (22), cardinality (21000), RAISE (P0001): the caller's -> 400
  kTooExpensive,   // insufficient resources (53) or program limits (54) -> 400
  kTranslatorBug,  // syntax/undefined object/feature not supported (42, 0A): lqe's fault -> 500
  kFailed,         // anything else -> 500
};

struct QueryResult {
  QueryStatus status = QueryStatus::kOk;
  ResultRows rows;         // at most max_rows rows
  bool truncated = false;  // the query had more than max_rows rows
  std::string message;
  std::string sqlstate;
  // kUnavailable because a postgres_fdw shard did not answer: the shard's server name. Another
  // host of the coordinator would fail the same way.
  std::string shard;
  double seconds = 0;
};

// Runs `sql` with text parameters ($1..$n; nullopt = NULL). max_rows < 0: no cap. A query
// whose connection turns out lost (Postgres restarted since it was pooled) runs once more on a
// fresh connection: every query is a read-only statement, so running it again is safe.
// `cancel` (may be null) cancels the statement from another thread.
QueryResult RunQuery(PgPool& pool, const std::string& sql,
                     const std::vector<std::optional<std::string>>& params, int max_rows,
                     int statement_timeout_ms, QueryCancel* cancel = nullptr);
// The status a SQLSTATE maps to (kOk never).
QueryStatus ClassifySqlState(std::string_view sqlstate);

}  // namespace lqe::gateway
