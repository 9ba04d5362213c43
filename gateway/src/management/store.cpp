#include "management/store.h"

#include <spdlog/spdlog.h>

#include <boost/json/serialize.hpp>
#include <map>

#include "lqe/gateway/pg_pool.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

Outcome Error(int status, const std::string& message, const std::string& field) {
  json::object body;
  body["error"] = field.empty() ? message : field + " " + message;
  if (!field.empty()) body["errors"] = json::object{{field, json::array{json::value(message)}}};
  return Outcome{status, json::serialize(body), false};
}

Store::Store(std::string dsn, int connect_timeout_ms)
    : dsn_(std::move(dsn)), connect_timeout_ms_(connect_timeout_ms) {}

Outcome Store::TransactOnce(const std::function<Outcome(pqxx::work&)>& work) {
  if (!conn_ || !conn_->is_open()) {
    conn_ = std::make_unique<pqxx::connection>(DsnWithConnectTimeout(dsn_, connect_timeout_ms_));
    // The gateway's roles default to read-only transactions; this connection writes, bounded.
    pqxx::nontransaction setup(*conn_);
    setup.exec(
        "SET default_transaction_read_only = off; SET statement_timeout = 10000; "
        "SET TIME ZONE 'UTC'");
  }
  pqxx::work tx(*conn_);
  Outcome outcome = work(tx);
  if (outcome.commit) tx.commit();
  return outcome;
}

Outcome Store::Transact(const std::function<Outcome(pqxx::work&)>& work) {
  std::lock_guard lock(mutex_);
  for (int attempt = 0;; ++attempt) {
    try {
      return TransactOnce(work);
    } catch (const pqxx::in_doubt_error& e) {
      conn_.reset();
      spdlog::error("management API: commit in doubt: {}", e.what());
      return Error(503, "the database connection was lost while committing; check the state");
    } catch (const pqxx::broken_connection& e) {
      conn_.reset();
      if (attempt == 0) continue;  // nothing was committed: run it once more on a new connection
      spdlog::warn("management API: database unreachable: {}", e.what());
      return Error(503, "the database is unreachable");
    } catch (const pqxx::sql_error& e) {
      const std::string& state = e.sqlstate();
      if (state == "42P01" || state == "3F000") {
        return Error(503, "the management schema lqe_admin is missing: run lqe migrate");
      }
      if (state == "42501" || state == "25006") {
        return Error(503,
                     "the database role may not write schema lqe_admin (see "
                     "docs/management-api.md)");
      }
      if (state == "54000") {
        // A limit lqe's schema enforces (lqe_admin.max_created_sources): its message says which.
        std::string message = e.what();
        if (auto end = message.find('\n'); end != std::string::npos) message.resize(end);
        if (StartsWith(message, "ERROR:  ")) message.erase(0, 8);
        return Error(422, message);
      }
      if (StartsWith(state, "22")) {
        // PostgreSQL's message would echo the value back; this says what to fix.
        return Error(400, "a value in the body cannot be stored (a \\u0000 in a string?)");
      }
      spdlog::error("management API: {} ({})", e.what(), state);
      return Error(500, "internal error");
    }
  }
}

std::shared_ptr<Store> StoreFor(const std::string& dsn, int connect_timeout_ms) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<Store>, std::less<>> stores;
  std::lock_guard lock(mutex);
  auto& store = stores[dsn];
  if (!store) store = std::make_shared<Store>(dsn, connect_timeout_ms);
  return store;
}

void Audit(pqxx::transaction_base& tx, const Actor& actor, const std::string& action,
           const std::string& object_type, long long object_id, const std::string& object_token,
           const std::string& detail) {
  tx.exec_params(
      "INSERT INTO lqe_admin.audit_log (key_name, key_fingerprint, action, object_type, "
      "object_id, object_token, detail) VALUES ($1, $2, $3, $4, $5, $6::uuid, $7::jsonb)",
      actor.key_name, actor.fingerprint, action, object_type, object_id, object_token, detail);
}

}  // namespace lqe::gateway::management
