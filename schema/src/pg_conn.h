// A thin libpq connection for the loader. Raw libpq rather than libpqxx 6.4: its stream_to
// converts and sends field by field, while the loader already holds COPY text and sends it in
// large chunks with PQputCopyData.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lqe::schema {

class PgError : public std::runtime_error {
 public:
  explicit PgError(const std::string& what, std::string sqlstate = "")
      : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
  // The server's SQLSTATE, e.g. "23505"; empty for client-side failures.
  const std::string& sqlstate() const { return sqlstate_; }

 private:
  std::string sqlstate_;
};

class PgResult {
 public:
  explicit PgResult(PGresult* result) : result_(result, &PQclear) {}
  int Rows() const { return PQntuples(result_.get()); }
  std::string Text(int row, int column) const { return PQgetvalue(result_.get(), row, column); }
  bool IsNull(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
  PGresult* get() const { return result_.get(); }

 private:
  std::unique_ptr<PGresult, decltype(&PQclear)> result_;
};

class PgConn {
 public:
  explicit PgConn(const std::string& dsn);
  ~PgConn();
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;

  // Runs a statement; throws PgError with the server's message on failure.
  PgResult Exec(const std::string& sql, const std::vector<std::optional<std::string>>& params = {});
  // COPY ... FROM STDIN with the concatenation of `pieces` (text format, complete lines).
  void CopyIn(const std::string& copy_sql, const std::vector<std::string_view>& pieces);

 private:
  [[noreturn]] void Throw(const std::string& what);
  PGconn* conn_ = nullptr;
};

// A PostgreSQL array literal of text values: {"a","b\"c",NULL}.
std::string TextArrayLiteral(const std::vector<std::optional<std::string>>& values);
// The same built one element at a time into an empty string (no copy of each value): append
// the elements, then close it (an array of none is {}).
void AppendArrayElement(std::optional<std::string_view> value, std::string* literal);
void CloseArrayLiteral(std::string* literal);

}  // namespace lqe::schema
