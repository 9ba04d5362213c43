#include "lqe/gateway/query_cancel.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace lqe::gateway {

void QueryCancel::Cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  // Under the lock, so the connection stays attached (alive) while the cancel request goes out;
  // PQcancel only reads what the connection learnt when it was opened.
  for (pqxx::connection_base* connection : running_) {
    try {
      connection->cancel_query();
    } catch (const std::exception& e) {
      spdlog::warn("cancelling a query failed: {}", e.what());
    }
  }
}

bool QueryCancel::Running() const {
  std::lock_guard lock(mutex_);
  return !running_.empty();
}

bool QueryCancel::Cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

bool QueryCancel::Attach(pqxx::connection_base* connection) {
  std::lock_guard lock(mutex_);
  if (cancelled_) return false;
  running_.push_back(connection);
  return true;
}

void QueryCancel::Detach(pqxx::connection_base* connection) {
  std::lock_guard lock(mutex_);
  running_.erase(std::remove(running_.begin(), running_.end(), connection), running_.end());
}

void CancelRegistry::Add(const std::shared_ptr<QueryCancel>& token) {
  bool cancel_now = false;
  {
    std::lock_guard lock(mutex_);
    live_[token.get()] = token;
    cancel_now = all_cancelled_;
  }
  if (cancel_now) token->Cancel();
}

void CancelRegistry::Remove(const QueryCancel* token) {
  std::lock_guard lock(mutex_);
  live_.erase(token);
}

std::size_t CancelRegistry::CancelAll() {
  std::vector<std::shared_ptr<QueryCancel>> tokens;
  {
    std::lock_guard lock(mutex_);
    all_cancelled_ = true;
    for (const auto& [raw, token] : live_) tokens.push_back(token);
  }
  for (const auto& token : tokens) token->Cancel();
  return tokens.size();
}

}  // namespace lqe::gateway
