// Live tails across gateways: every gateway's ingest writers announce each committed batch
// (IngestService::kCommitChannel: table, sender, transaction id, time range), and this feed
// LISTENs on one connection of its own. For a batch another gateway wrote into a table that has
// an open tail here, it reads exactly that batch's rows back (its time range and transaction)
// and publishes them to the hub. Its own batches were published in-process and are skipped.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "tail/tail_hub.h"

namespace pqxx {
class connection_base;
}  // namespace pqxx

namespace lqe::gateway::tail {

class RemoteFeed {
 public:
  // Starts the listening thread; `sender` is this gateway's name in the announcements.
  RemoteFeed(std::string dsn, std::string sender, Hub& hub, int statement_timeout_ms);
  ~RemoteFeed();  // stops and joins
  RemoteFeed(const RemoteFeed&) = delete;
  RemoteFeed& operator=(const RemoteFeed&) = delete;

  std::uint64_t EventsRead() const { return events_read_.load(); }

 private:
  void Run();
  // Reads the announced batch back and publishes it when a tail of its table is open.
  void Handle(pqxx::connection_base& conn, const std::string& payload);
  bool WaitBeforeRetry();  // false when stopping

  const std::string dsn_;
  const std::string sender_;
  Hub& hub_;
  const int statement_timeout_ms_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> events_read_{0};
  std::mutex mutex_;
  std::condition_variable stop_;
  std::thread thread_;
};

}  // namespace lqe::gateway::tail
