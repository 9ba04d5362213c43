// Cancelling queries that nobody waits for: a token per request (the client hung up) and a
// registry of live tokens that shutdown cancels at its deadline.
#pragma once

#include <memory>
#include <mutex>
#include <pqxx/connection_base>
#include <unordered_map>
#include <vector>

namespace lqe::gateway {

// Thread-safe. RunQuery attaches the connection its statement runs on; Cancel() asks Postgres
// to cancel that statement (PQcancel) and makes every later RunQuery under the token refuse to
// start. Cancelling is sticky: a token is for one request, or for the whole server.
//
// Postgres drops a cancel request that reaches the backend between protocol messages (it only
// cancels a statement in progress), so callers repeat Cancel() while Running() stays true.
class QueryCancel {
 public:
  void Cancel();
  bool Cancelled() const;
  bool Running() const;  // a statement is attached
  // False (and nothing attached) when the token is already cancelled.
  bool Attach(pqxx::connection_base* connection);
  void Detach(pqxx::connection_base* connection);

 private:
  mutable std::mutex mutex_;
  std::vector<pqxx::connection_base*> running_;
  bool cancelled_ = false;
};

class CancelRegistry {
 public:
  // A token added after CancelAll() is cancelled at once.
  void Add(const std::shared_ptr<QueryCancel>& token);
  void Remove(const QueryCancel* token);
  // Cancels every live token; returns how many there were.
  std::size_t CancelAll();

 private:
  std::mutex mutex_;
  std::unordered_map<const QueryCancel*, std::shared_ptr<QueryCancel>> live_;
  bool all_cancelled_ = false;
};

}  // namespace lqe::gateway
