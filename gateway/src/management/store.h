// The management API's state in PostgreSQL (schema lqe_admin, migration 018): one read-write
// connection per gateway process and database, shared by the requests one at a time. Every read
// goes to the database, so a change made through any gateway is what the next request sees.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>

namespace lqe::gateway::management {

// An answer: HTTP status and JSON body (empty for 204).
struct Outcome {
  int status = 200;
  std::string body;
  bool commit = true;  // false: the transaction is rolled back (every Error())
};

// Who made a change, for the audit log.
struct Actor {
  std::string key_name;
  std::string fingerprint;  // first 16 hex digits of the SHA-256 of the key's token
};

class Store {
 public:
  Store(std::string dsn, int connect_timeout_ms);
  // Runs `work` in one read-write transaction and commits it when the outcome says so (an
  // Error() does not). A connection found dead before the commit is replaced and `work` runs once
  // more; database failures become 4xx/5xx outcomes that say what is wrong.
  Outcome Transact(const std::function<Outcome(pqxx::work&)>& work);

 private:
  Outcome TransactOnce(const std::function<Outcome(pqxx::work&)>& work);
  std::string dsn_;
  int connect_timeout_ms_;
  std::mutex mutex_;
  std::unique_ptr<pqxx::connection> conn_;
};

// The process's store for `dsn`, made on first use.
std::shared_ptr<Store> StoreFor(const std::string& dsn, int connect_timeout_ms);

// Writes one audit row in `tx`. `detail` is JSON text (may be "null").
void Audit(pqxx::transaction_base& tx, const Actor& actor, const std::string& action,
           const std::string& object_type, long long object_id, const std::string& object_token,
           const std::string& detail);

// {"error": message} with `status`; field errors add {"errors": {field: [message]}}.
Outcome Error(int status, const std::string& message, const std::string& field = "");

}  // namespace lqe::gateway::management
