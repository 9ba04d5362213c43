#include "pg_conn.h"

namespace lqe::schema {
namespace {

constexpr std::size_t kCopyChunk = 1 << 20;

std::string Trimmed(const char* message) {
  std::string out = message != nullptr ? message : "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string SqlState(const PGresult* result) {
  const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
  return state != nullptr ? state : "";
}

}  // namespace

PgConn::PgConn(const std::string& dsn) : conn_(PQconnectdb(dsn.c_str())) {
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
    const std::string message = conn_ ? Trimmed(PQerrorMessage(conn_)) : "out of memory";
    PQfinish(conn_);
    conn_ = nullptr;
    throw PgError("cannot connect: " + message);
  }
}

PgConn::~PgConn() {
  PQfinish(conn_);
}

void PgConn::Throw(const std::string& what) {
  throw PgError(what + ": " + Trimmed(PQerrorMessage(conn_)));
}

PgResult PgConn::Exec(const std::string& sql,
                      const std::vector<std::optional<std::string>>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  PgResult result(PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                               values.data(), nullptr, nullptr, 0));
  const auto status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    throw PgError(Trimmed(PQresultErrorMessage(result.get())), SqlState(result.get()));
  }
  return result;
}

void PgConn::CopyIn(const std::string& copy_sql, const std::vector<std::string_view>& pieces) {
  PgResult start(PQexec(conn_, copy_sql.c_str()));
  if (PQresultStatus(start.get()) != PGRES_COPY_IN) {
    throw PgError(Trimmed(PQresultErrorMessage(start.get())), SqlState(start.get()));
  }
  // Gathered into chunks of about kCopyChunk: one send per piece would be a system call per row.
  std::string chunk;
  chunk.reserve(kCopyChunk);
  auto put = [&] {
    if (PQputCopyData(conn_, chunk.data(), static_cast<int>(chunk.size())) != 1) {
      Throw("COPY failed");
    }
    chunk.clear();
  };
  for (std::string_view piece : pieces) {
    if (piece.size() >= kCopyChunk) {  // large enough to send as it is, without a copy
      if (!chunk.empty()) put();
      for (std::size_t at = 0; at < piece.size(); at += kCopyChunk) {
        const std::string_view part = piece.substr(at, kCopyChunk);
        if (PQputCopyData(conn_, part.data(), static_cast<int>(part.size())) != 1) {
          Throw("COPY failed");
        }
      }
      continue;
    }
    chunk.append(piece);
    if (chunk.size() >= kCopyChunk) put();
  }
  if (!chunk.empty()) put();
  if (PQputCopyEnd(conn_, nullptr) != 1) Throw("COPY failed");
  // Drain every result; the first failure wins.
  std::string failure;
  std::string state;
  while (PGresult* raw = PQgetResult(conn_)) {
    PgResult result(raw);
    if (PQresultStatus(raw) != PGRES_COMMAND_OK && failure.empty()) {
      failure = Trimmed(PQresultErrorMessage(raw));
      state = SqlState(raw);
    }
  }
  if (!failure.empty()) throw PgError(failure, state);
}

void AppendArrayElement(std::optional<std::string_view> value, std::string* literal) {
  literal->push_back(literal->empty() ? '{' : ',');
  if (!value) {
    literal->append("NULL");
    return;
  }
  literal->push_back('"');
  for (char c : *value) {
    if (c == '"' || c == '\\') literal->push_back('\\');
    literal->push_back(c);
  }
  literal->push_back('"');
}

void CloseArrayLiteral(std::string* literal) {
  literal->append(literal->empty() ? "{}" : "}");
}

std::string TextArrayLiteral(const std::vector<std::optional<std::string>>& values) {
  std::string out;
  for (const auto& value : values) {
    AppendArrayElement(value ? std::optional<std::string_view>(*value) : std::nullopt, &out);
  }
  CloseArrayLiteral(&out);
  return out;
}

}  // namespace lqe::schema
