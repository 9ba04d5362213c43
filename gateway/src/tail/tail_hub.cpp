#include "tail/tail_hub.h"

#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace lqe::gateway::tail {

namespace json = boost::json;

std::string IsoMicros(std::int64_t micros) {
  using namespace std::chrono;
  const sys_time<microseconds> t{microseconds{micros}};
  const sys_days day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<microseconds> time{t - day};
  char text[40];
  std::snprintf(text, sizeof(text), "%04d-%02u-%02uT%02d:%02d:%02d.%06lldZ",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<int>(time.hours().count()),
                static_cast<int>(time.minutes().count()), static_cast<int>(time.seconds().count()),
                static_cast<long long>(time.subseconds().count()));
  return text;
}

json::object EventObject(const schema::FormedEvent& event) {
  json::object object;
  object["id"] = event.id;
  object["timestamp"] = IsoMicros(event.timestamp_micros);
  object["event_message"] =
      event.event_message ? json::value(*event.event_message) : json::value(nullptr);
  if (event.project) object["project"] = *event.project;
  object["metadata"] = json::object(event.metadata);
  object["extra"] = json::object(event.extra);
  return object;
}

Subscriber::Batch Subscriber::Take() {
  Batch batch;
  std::lock_guard lock(mutex_);
  batch.events.assign(events_.begin(), events_.end());
  events_.clear();
  if (buffered_bytes_ != nullptr) buffered_bytes_->fetch_sub(static_cast<std::int64_t>(bytes_));
  bytes_ = 0;
  batch.dropped = dropped_;
  dropped_ = 0;
  batch.closed = closed_;
  return batch;
}

void Subscriber::SetWaker(std::function<void()> waker) {
  std::lock_guard lock(mutex_);
  waker_ = std::move(waker);
}

bool Subscriber::Offer(const std::shared_ptr<const std::string>& event,
                       std::atomic<std::uint64_t>& dropped,
                       std::atomic<std::int64_t>& buffered_bytes) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  if (events_.size() >= max_events_ || bytes_ + event->size() > max_bytes_) {
    ++dropped_;
    dropped.fetch_add(1);
    return dropped_ == 1;  // the first loss is news; the client learns the count on its next read
  }
  events_.push_back(event);
  bytes_ += event->size();
  buffered_bytes.fetch_add(static_cast<std::int64_t>(event->size()));
  return events_.size() == 1;  // a buffer that already held events has a wake-up pending
}

void Subscriber::Close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

void Subscriber::Wake() {
  std::function<void()> waker;
  {
    std::lock_guard lock(mutex_);
    waker = waker_;
  }
  if (waker) waker();
}

std::variant<std::shared_ptr<Subscriber>, Hub::Refusal> Hub::Open(const TailConfig& config,
                                                                  const std::string& table,
                                                                  const std::string& key,
                                                                  EventMatch match) {
  std::lock_guard lock(mutex_);
  if (stopping_) return Refusal{503, "the server is stopping", "stopping"};
  if (open_ >= config.max_open) {
    refused_.fetch_add(1);
    return Refusal{429,
                   "too many live tails are open on this server (" +
                       std::to_string(config.max_open) + "); close one or retry later",
                   "too_many_tails"};
  }
  int& for_key = per_key_[key];
  if (for_key >= config.max_per_key) {
    refused_.fetch_add(1);
    return Refusal{429,
                   "this API key has " + std::to_string(for_key) + " live tails open (at most " +
                       std::to_string(config.max_per_key) + "); close one or retry later",
                   "too_many_tails_for_key"};
  }
  ++for_key;
  ++open_;
  open_count_.store(open_);
  auto subscriber = std::make_shared<Subscriber>(table, key, std::move(match), config.buffer_events,
                                                 config.buffer_bytes);
  subscriber->buffered_bytes_ = &buffered_bytes_;
  by_table_[table].push_back(subscriber);
  return subscriber;
}

void Hub::CloseTail(const std::shared_ptr<Subscriber>& subscriber) {
  {
    std::lock_guard lock(mutex_);
    auto it = by_table_.find(subscriber->table());
    if (it == by_table_.end()) return;
    auto& list = it->second;
    auto found = std::find(list.begin(), list.end(), subscriber);
    if (found == list.end()) return;
    list.erase(found);
    if (list.empty()) by_table_.erase(it);
    if (--per_key_[subscriber->key()] == 0) per_key_.erase(subscriber->key());
    --open_;
    open_count_.store(open_);
  }
  subscriber->SetWaker(nullptr);
  subscriber->Take();  // gives its buffered bytes back to the gauge
}

std::vector<std::shared_ptr<Subscriber>> Hub::SubscribersOf(const std::string& table) const {
  if (open_count_.load(std::memory_order_relaxed) == 0) return {};
  std::lock_guard lock(mutex_);
  auto it = by_table_.find(table);
  if (it == by_table_.end()) return {};
  return it->second;
}

bool Hub::HasTails(std::string_view table) const {
  if (open_count_.load(std::memory_order_relaxed) == 0) return false;
  std::lock_guard lock(mutex_);
  return by_table_.find(table) != by_table_.end();
}

void Hub::Offer(const std::vector<std::shared_ptr<Subscriber>>& subscribers,
                const json::object& fields, std::int64_t timestamp_micros,
                std::vector<bool>& wake) {
  const EventView view{&fields, timestamp_micros};
  std::shared_ptr<const std::string> text;  // serialised once, for the first match
  for (std::size_t i = 0; i < subscribers.size(); ++i) {
    if (!subscribers[i]->match().Matches(view)) continue;
    if (!text) text = std::make_shared<const std::string>(json::serialize(fields));
    if (subscribers[i]->Offer(text, dropped_, buffered_bytes_)) wake[i] = true;
    delivered_.fetch_add(1);
  }
}

void Hub::Publish(const std::string& table, const std::vector<schema::FormedEvent>& events) {
  const auto subscribers = SubscribersOf(table);
  if (subscribers.empty()) return;
  std::vector<bool> wake(subscribers.size(), false);
  for (const schema::FormedEvent& event : events) {
    Offer(subscribers, EventObject(event), event.timestamp_micros, wake);
  }
  for (std::size_t i = 0; i < subscribers.size(); ++i) {
    if (wake[i]) subscribers[i]->Wake();
  }
}

void Hub::PublishFields(const std::string& table, const std::vector<Fields>& events) {
  const auto subscribers = SubscribersOf(table);
  if (subscribers.empty()) return;
  std::vector<bool> wake(subscribers.size(), false);
  for (const Fields& event : events) Offer(subscribers, event.fields, event.timestamp_micros, wake);
  for (std::size_t i = 0; i < subscribers.size(); ++i) {
    if (wake[i]) subscribers[i]->Wake();
  }
}

void Hub::Shutdown() {
  std::vector<std::shared_ptr<Subscriber>> all;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (const auto& [table, list] : by_table_) all.insert(all.end(), list.begin(), list.end());
  }
  for (const auto& subscriber : all) {
    subscriber->Close();
    subscriber->Wake();
  }
}

std::string Hub::RenderMetrics() const {
  std::ostringstream out;
  out << "# HELP lqe_tail_open Live tails open.\n# TYPE lqe_tail_open gauge\nlqe_tail_open "
      << open_count_.load() << "\n"
      << "# HELP lqe_tail_buffered_bytes Bytes of events waiting in live tails' buffers.\n"
      << "# TYPE lqe_tail_buffered_bytes gauge\nlqe_tail_buffered_bytes " << buffered_bytes_.load()
      << "\n"
      << "# HELP lqe_tail_events_matched_total Events that matched an open tail's filter.\n"
      << "# TYPE lqe_tail_events_matched_total counter\nlqe_tail_events_matched_total "
      << delivered_.load() << "\n"
      << "# HELP lqe_tail_events_dropped_total Matching events a tail's full buffer could not "
         "take (its client was told the count).\n"
      << "# TYPE lqe_tail_events_dropped_total counter\nlqe_tail_events_dropped_total "
      << dropped_.load() << "\n"
      << "# HELP lqe_tail_refused_total Tails refused by the open-tail caps (429).\n"
      << "# TYPE lqe_tail_refused_total counter\nlqe_tail_refused_total " << refused_.load()
      << "\n";
  return out.str();
}

}  // namespace lqe::gateway::tail
