// The live tail's fan-out: the ingest writers publish each committed batch here, and every open
// tail of that table takes the events its filter matches into its own bounded buffer. A tail
// whose client reads slower than events arrive loses the overflow and is told how many it lost
// (`dropped`); no buffer grows past its cap. Opening is capped per API key and in all.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/gateway/config.h"
#include "lqe/schema/event_form.h"
#include "tail/event_match.h"

namespace lqe::gateway::tail {

// One open tail.
class Subscriber {
 public:
  Subscriber(std::string table, std::string key, EventMatch match, std::size_t max_events,
             std::size_t max_bytes)
      : table_(std::move(table)),
        key_(std::move(key)),
        match_(std::move(match)),
        max_events_(max_events),
        max_bytes_(max_bytes) {}

  struct Batch {
    std::vector<std::shared_ptr<const std::string>> events;  // serialised event objects
    std::uint64_t dropped = 0;  // events lost to the buffer cap since the last Take
    bool closed = false;        // the server is stopping: end the stream
  };
  // Everything buffered (and the buffer emptied).
  Batch Take();
  // Called (from a writer thread) whenever something is buffered or the tail is closed; the
  // session clears it before it goes away.
  void SetWaker(std::function<void()> waker);

  const std::string& table() const { return table_; }
  const std::string& key() const { return key_; }
  const EventMatch& match() const { return match_; }

 private:
  friend class Hub;
  // Buffers one matching event, or counts it dropped when the buffer is full. True when the
  // waker should be called.
  bool Offer(const std::shared_ptr<const std::string>& event, std::atomic<std::uint64_t>& dropped,
             std::atomic<std::int64_t>& buffered_bytes);
  void Close();
  void Wake();

  const std::string table_;
  const std::string key_;
  const EventMatch match_;
  const std::size_t max_events_;
  const std::size_t max_bytes_;
  std::mutex mutex_;
  std::deque<std::shared_ptr<const std::string>> events_;
  std::size_t bytes_ = 0;
  std::uint64_t dropped_ = 0;
  bool closed_ = false;
  std::function<void()> waker_;
  std::atomic<std::int64_t>* buffered_bytes_ = nullptr;  // the hub's gauge, for Take
};

// The JSON object a tail sends for a formed event, and the same fields as EventView input.
boost::json::object EventObject(const schema::FormedEvent& event);
// "2026-01-02T03:04:05.678901Z"
std::string IsoMicros(std::int64_t micros);

class Hub {
 public:
  // A new tail, or why not (the status to answer: 429 over a cap, 503 when stopping).
  struct Refusal {
    int status = 429;
    std::string message;
    std::string reason;
  };
  std::variant<std::shared_ptr<Subscriber>, Refusal> Open(const TailConfig& config,
                                                          const std::string& table,
                                                          const std::string& key, EventMatch match);
  void CloseTail(const std::shared_ptr<Subscriber>& subscriber);
  // Fans a committed batch of `table` out to its tails (a no-op when none is open).
  void Publish(const std::string& table, const std::vector<schema::FormedEvent>& events);
  // The same for events read back from the table (written by another gateway): each as its
  // event object (EventObject's fields) and timestamp.
  struct Fields {
    boost::json::object fields;
    std::int64_t timestamp_micros = 0;
  };
  void PublishFields(const std::string& table, const std::vector<Fields>& events);
  // Whether a tail of `table` is open (another gateway's events are read back only then).
  bool HasTails(std::string_view table) const;
  // Ends every tail and refuses new ones (server shutdown).
  void Shutdown();
  std::string RenderMetrics() const;
  std::int64_t BufferedBytes() const { return buffered_bytes_.load(); }

 private:
  std::vector<std::shared_ptr<Subscriber>> SubscribersOf(const std::string& table) const;
  void Offer(const std::vector<std::shared_ptr<Subscriber>>& subscribers,
             const boost::json::object& fields, std::int64_t timestamp_micros,
             std::vector<bool>& wake);

  mutable std::mutex mutex_;
  std::map<std::string, std::vector<std::shared_ptr<Subscriber>>, std::less<>> by_table_;
  std::map<std::string, int, std::less<>> per_key_;
  int open_ = 0;
  bool stopping_ = false;
  std::atomic<int> open_count_{0};  // open_, readable without the lock
  std::atomic<std::uint64_t> delivered_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::uint64_t> refused_{0};
  std::atomic<std::int64_t> buffered_bytes_{0};
};

}  // namespace lqe::gateway::tail
