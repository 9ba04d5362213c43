// Postgres access: a bounded pool of libpqxx connections that reconnects by itself, and the
// executor that runs one translated query in a READ ONLY transaction with a statement timeout.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <vector>

namespace lqe::gateway {

class PgPool {
 public:
  PgPool(std::string dsn, int size, int connect_timeout_ms);
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  class Lease {
   public:
    Lease(PgPool* pool, std::unique_ptr<pqxx::connection> conn)
        : pool_(pool), conn_(std::move(conn)) {}
    Lease(Lease&&) = default;
    ~Lease();
    pqxx::connection& operator*() { return *conn_; }
    void MarkBroken() { broken_ = true; }

   private:
    PgPool* pool_;
    std::unique_ptr<pqxx::connection> conn_;
    bool broken_ = false;
  };

  // Waits up to `wait` for a slot; connects if needed. Throws pqxx::broken_connection when
  // Postgres is unreachable and std::runtime_error when the pool stays exhausted.
  Lease Acquire(std::chrono::milliseconds wait);
  int InUse() const;
  int Size() const { return size_; }

 private:
  void Release(std::unique_ptr<pqxx::connection> conn, bool broken);
  std::string dsn_;
  int size_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;
  int in_use_ = 0;
};

enum class QueryStatus : std::uint8_t { kOk, kTimeout, kUnavailable, kBadQuery, kFailed };

struct QueryResult {
  QueryStatus status = QueryStatus::kOk;
  // Text values per row and column (nullopt = NULL); at most max_rows rows.
  std::vector<std::vector<std::optional<std::string>>> rows;
  bool truncated = false;  // the query had more than max_rows rows
  std::string message;
  std::string sqlstate;
  double seconds = 0;
};

// Runs `sql` with text parameters ($1..$n; nullopt = NULL). max_rows < 0: no cap.
QueryResult RunQuery(PgPool& pool, const std::string& sql,
                     const std::vector<std::optional<std::string>>& params, int max_rows,
                     int statement_timeout_ms);

}  // namespace lqe::gateway
