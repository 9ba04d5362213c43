#include "tail/remote_feed.h"

#include <spdlog/spdlog.h>

#include <boost/json/parse.hpp>
#include <charconv>
#include <pqxx/pqxx>

#include "lqe/gateway/ingest.h"

namespace lqe::gateway::tail {
namespace {

namespace json = boost::json;

bool PlainName(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::int64_t ToInt(std::string_view text) {
  std::int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// Collects the payloads await_notification delivers; they are handled after it returns, when
// the connection is free for the read-back query.
class Collector : public pqxx::notification_receiver {
 public:
  Collector(pqxx::connection_base& conn, const std::string& channel, std::vector<std::string>& out)
      : pqxx::notification_receiver(conn, channel), out_(out) {}
  void operator()(const std::string& payload, int /*backend_pid*/) override {
    out_.push_back(payload);
  }

 private:
  std::vector<std::string>& out_;
};

}  // namespace

RemoteFeed::RemoteFeed(std::string dsn, std::string sender, Hub& hub, int statement_timeout_ms)
    : dsn_(std::move(dsn)),
      sender_(std::move(sender)),
      hub_(hub),
      statement_timeout_ms_(statement_timeout_ms) {
  thread_ = std::thread([this] { Run(); });
}

RemoteFeed::~RemoteFeed() {
  {
    std::lock_guard lock(mutex_);
    stopping_.store(true);
  }
  stop_.notify_all();
  thread_.join();
}

bool RemoteFeed::WaitBeforeRetry() {
  std::unique_lock lock(mutex_);
  stop_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_.load(); });
  return !stopping_.load();
}

void RemoteFeed::Run() {
  bool failing = false;  // a database that stays down is reported once, not every second
  while (!stopping_.load()) {
    try {
      pqxx::connection conn(dsn_);
      failing = false;
      {
        pqxx::nontransaction setup(conn);
        setup.exec("SET statement_timeout = " + std::to_string(statement_timeout_ms_));
      }
      std::vector<std::string> payloads;
      Collector collector(conn, IngestService::kCommitChannel, payloads);
      while (!stopping_.load()) {
        conn.await_notification(0, 200000);  // wakes at least every 200 ms to see a stop
        for (const std::string& payload : payloads) Handle(conn, payload);
        payloads.clear();
      }
    } catch (const std::exception& e) {
      if (!failing) {
        spdlog::warn("live tail: the feed of other gateways' events failed ({}); reconnecting",
                     e.what());
      }
      failing = true;
      if (!WaitBeforeRetry()) return;
    }
  }
}

void RemoteFeed::Handle(pqxx::connection_base& conn, const std::string& payload) {
  std::error_code ec;
  json::value parsed = json::parse(payload, ec);
  if (ec || !parsed.is_object()) return;
  const json::object& notice = parsed.get_object();
  auto text = [&](const char* name) -> std::string_view {
    const json::value* v = notice.if_contains(name);
    return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
  };
  auto number = [&](const char* name) -> std::optional<std::int64_t> {
    const json::value* v = notice.if_contains(name);
    if (v == nullptr || !v->is_int64()) return std::nullopt;
    return v->get_int64();
  };
  const std::string_view table = text("t");
  const std::string_view xid = text("x");
  const auto low = number("lo");
  const auto high = number("hi");
  // Its own batches reached its tails in-process already.
  if (text("g") == sender_ || !PlainName(table) || xid.empty() || !low || !high) return;
  const std::string table_name(table);
  if (!hub_.HasTails(table_name)) return;
  pqxx::nontransaction tx(conn);
  // xmin holds the low 32 bits of the transaction id that wrote the row.
  const pqxx::result rows = tx.exec_params(
      "SELECT id, (extract(epoch FROM \"timestamp\") * 1000000)::bigint, event_message, "
      "project, metadata::text, extra::text FROM logs.\"" +
          table_name +
          "\" WHERE \"timestamp\" >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond' "
          "AND \"timestamp\" <= 'epoch'::timestamptz + $2::bigint * interval '1 microsecond' "
          "AND xmin = ($3::bigint % 4294967296)::text::xid ORDER BY \"timestamp\"",
      *low, *high, std::string(xid));
  std::vector<Hub::Fields> events;
  events.reserve(rows.size());
  for (const auto& row : rows) {
    Hub::Fields event;
    json::object& fields = event.fields;
    event.timestamp_micros = ToInt(row[1].c_str());
    fields["id"] = row[0].c_str();
    fields["timestamp"] = IsoMicros(event.timestamp_micros);
    fields["event_message"] = row[2].is_null() ? json::value(nullptr) : json::value(row[2].c_str());
    if (!row[3].is_null()) fields["project"] = row[3].c_str();
    json::value metadata = json::parse(row[4].c_str(), ec);
    fields["metadata"] = !ec && metadata.is_object() ? std::move(metadata) : json::object();
    ec.clear();
    json::value extra = json::parse(row[5].c_str(), ec);
    fields["extra"] = !ec && extra.is_object() ? std::move(extra) : json::object();
    events.push_back(std::move(event));
  }
  events_read_.fetch_add(events.size());
  hub_.PublishFields(table_name, events);
}

}  // namespace lqe::gateway::tail
