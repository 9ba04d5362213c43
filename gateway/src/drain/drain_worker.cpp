#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <charconv>
#include <pqxx/pqxx>

#include "drain/drain_request.h"
#include "drain/http_post.h"
#include "lqe/gateway/drains.h"
#include "tail/event_match.h"

namespace lqe::gateway {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;
using drain::DrainEvent;

constexpr std::chrono::seconds kRetryCap{30};     // receiver down, 5xx or 429
constexpr std::chrono::seconds kFailingWait{60};  // any other 4xx: the request is wrong
constexpr std::chrono::seconds kQuietAfterError{5};
constexpr std::chrono::seconds kPruneEvery{5};
constexpr std::chrono::seconds kPublishEvery{1};
constexpr int kOutboxRowsPerRead = 64;

// A row of the outbox and where the cursor stands: rows before (xid, seq) are passed, and of the
// row at it, its first `pos` events.
struct Position {
  std::string xid;
  std::int64_t seq = 0;
  std::int64_t pos = 0;
};

// What follows the cursor, in commit-safe order (021_drain_delivery.sql).
constexpr const char* kAfterCursor =
    "(o.xid, o.seq) >= ($1::xid8, $2::bigint) AND "
    "NOT (o.xid = $1::xid8 AND o.seq = $2::bigint AND cardinality(o.ids) <= $3::int)";

struct Rule {
  tail::EventMatch match;
  std::string source;  // its source's name
};

struct Backend {
  std::int64_t id = 0;
  std::string token;
  std::string type;
  json::object config;
  Position cursor;
  std::map<std::string, std::vector<Rule>, std::less<>> rules;  // by log table
};

std::int64_t Int(const pqxx::field& f) {
  return f.is_null() ? 0 : f.as<std::int64_t>();
}

// The backends with their cursors and rules. A rule whose source lqe does not ingest, or whose
// LQL no longer compiles, matches nothing (the API refuses both when it is written).
std::vector<Backend> LoadBackends(pqxx::connection& conn, const Config& config) {
  pqxx::nontransaction tx(conn);
  auto rows = tx.exec(
      "SELECT b.id, b.token::text, b.type, b.config::text, s.cursor_xid::text, s.cursor_seq, "
      "s.cursor_pos, coalesce((SELECT json_agg(json_build_object('source', src.name, 'table', "
      "src.log_table, 'lql', r.lql_string) ORDER BY r.id) FROM lqe_admin.rules r JOIN "
      "lqe_admin.sources src "
      "ON src.id = r.source_id WHERE r.backend_id = b.id), '[]')::text "
      "FROM lqe_admin.backends b JOIN lqe_admin.drain_state s ON s.backend_id = b.id "
      "ORDER BY b.id");
  std::vector<Backend> backends;
  const auto now = std::chrono::system_clock::now();
  for (const auto& row : rows) {
    Backend b;
    b.id = row[0].as<std::int64_t>();
    b.token = row[1].as<std::string>();
    b.type = row[2].as<std::string>();
    std::error_code ec;
    json::value parsed = json::parse(row[3].as<std::string>(), ec);
    if (!ec && parsed.is_object()) b.config = std::move(parsed.as_object());
    b.cursor = Position{row[4].as<std::string>(), Int(row[5]), Int(row[6])};
    json::value rules = json::parse(row[7].as<std::string>(), ec);
    if (!ec && rules.is_array()) {
      for (const json::value& r : rules.as_array()) {
        const json::object& rule = r.as_object();
        const std::string source(rule.at("source").as_string());
        // A created source names its table in the database (this snapshot may predate it).
        std::string table;
        if (const json::value* t = rule.if_contains("table"); t != nullptr && t->is_string()) {
          table = t->as_string();
        } else {
          auto known = std::find_if(config.sources.begin(), config.sources.end(),
                                    [&](const IngestSource& s) { return s.name == source; });
          if (known == config.sources.end()) continue;
          table = known->table;
        }
        auto match = tail::EventMatch::Compile(rule.at("lql").as_string(), now);
        if (auto* m = std::get_if<tail::EventMatch>(&match)) {
          b.rules[table].push_back(Rule{std::move(*m), source});
        }
      }
    }
    backends.push_back(std::move(b));
  }
  return backends;
}

// The stored event's fields in the live tail's shape (tail_request.cpp's replay reads the same).
DrainEvent EventOf(const pqxx::row& row, std::string source) {
  DrainEvent event;
  event.source = std::move(source);
  event.micros = Int(row[2]);
  json::object& f = event.fields;
  f["id"] = row[1].as<std::string>();
  f["timestamp"] = row[3].as<std::string>();
  f["event_message"] = row[4].is_null() ? json::value(nullptr) : json::value(row[4].c_str());
  if (!row[5].is_null()) f["project"] = row[5].c_str();
  std::error_code ec;
  json::value metadata = json::parse(row[6].c_str(), ec);
  f["metadata"] = ec ? json::object() : std::move(metadata);
  ec.clear();
  json::value extra = json::parse(row[7].c_str(), ec);
  f["extra"] = ec ? json::object() : std::move(extra);
  return event;
}

// A batch gathered for one backend, and the cursor once it is delivered.
struct Gathered {
  std::vector<DrainEvent> events;
  Position next;
  bool more = false;  // the batch is full: more may follow at once
};

Gathered Gather(pqxx::connection& conn, const Backend& b, const DrainLimits& limits) {
  Gathered g;
  g.next = b.cursor;
  pqxx::nontransaction tx(conn);
  auto rows = tx.exec_params(
      std::string("SELECT o.xid::text, o.seq, o.source, cardinality(o.ids) "
                  "FROM lqe_admin.drain_outbox o WHERE ") +
          kAfterCursor +
          " AND o.xid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY o.xid, o.seq LIMIT " +
          std::to_string(kOutboxRowsPerRead),
      b.cursor.xid, b.cursor.seq, b.cursor.pos);
  std::size_t bytes = 0;
  for (const auto& row : rows) {
    const Position at{row[0].as<std::string>(), row[1].as<std::int64_t>(), 0};
    const std::string source = row[2].as<std::string>();
    const std::int64_t size = row[3].as<std::int64_t>();
    const std::int64_t from = (at.xid == b.cursor.xid && at.seq == b.cursor.seq) ? b.cursor.pos : 0;
    auto rules = b.rules.find(source);
    if (rules == b.rules.end()) {  // nothing of this table goes to this backend
      g.next = Position{at.xid, at.seq, size};
      continue;
    }
    // The table name is the config's (checked to [a-z0-9_]) or a created source's (source_<id>).
    const std::size_t room = limits.max_events - g.events.size();
    auto events = tx.exec_params(
        "SELECT u.n, t.id, (extract(epoch FROM t.\"timestamp\") * 1000000)::bigint, "
        "to_char(t.\"timestamp\" AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'), "
        "t.event_message, t.project, t.metadata::text, t.extra::text "
        "FROM lqe_admin.drain_outbox o, unnest(o.ids, o.stamps) WITH ORDINALITY AS u(id, ts, n) "
        "JOIN logs." +
            source +
            " t ON t.id = u.id AND t.\"timestamp\" = u.ts "
            "WHERE o.seq = $1 AND u.n > $2 ORDER BY u.n LIMIT $3",
        at.seq, from, room);
    std::int64_t last = from;
    for (const auto& e : events) {
      DrainEvent event = EventOf(e, "");
      const tail::EventView view{&event.fields, event.micros};
      const Rule* hit = nullptr;
      for (const Rule& r : rules->second) {
        if (r.match.Matches(view)) {
          hit = &r;
          break;
        }
      }
      last = e[0].as<std::int64_t>();
      if (hit == nullptr) continue;
      event.source = hit->source;
      bytes += json::serialize(event.fields).size();
      g.events.push_back(std::move(event));
      if (bytes >= limits.max_bytes) break;
    }
    // Rows read but not returned (deleted by retention before delivery) are passed with the rest.
    const bool whole = events.size() < room && bytes < limits.max_bytes;
    g.next = Position{at.xid, at.seq, whole ? size : last};
    if (!whole || g.events.size() >= limits.max_events) {
      g.more = true;
      return g;
    }
  }
  g.more = rows.size() == static_cast<std::size_t>(kOutboxRowsPerRead);
  return g;
}

void SaveCursor(pqxx::connection& conn, const Backend& b, const Gathered& g) {
  pqxx::work tx(conn);
  const bool sent = !g.events.empty();
  tx.exec_params(
      "UPDATE lqe_admin.drain_state SET cursor_xid = $2::xid8, cursor_seq = $3, cursor_pos = $4, "
      "delivered = delivered + $5, batches = batches + $6, status = $7, "
      "last_delivered_at = CASE WHEN $6 > 0 THEN now() ELSE last_delivered_at END "
      "WHERE backend_id = $1",
      b.id, g.next.xid, g.next.seq, g.next.pos, static_cast<std::int64_t>(g.events.size()),
      sent ? 1 : 0, g.more ? "delivering" : "idle");
  tx.commit();
}

void SaveFailure(pqxx::connection& conn, const Backend& b, const std::string& status,
                 const std::string& error) {
  pqxx::work tx(conn);
  tx.exec_params(
      "UPDATE lqe_admin.drain_state SET failed_batches = failed_batches + 1, status = $2, "
      "last_error = $3, last_error_at = now() WHERE backend_id = $1",
      b.id, status, error.substr(0, 1000));
  tx.commit();
}

// A receiver's answer as the drain's last error: the status and the start of the body, on one
// line and valid UTF-8 enough for the API to show.
std::string Describe(const drain::PostResult& r) {
  if (r.status == 0) return r.error;
  std::string text = "HTTP " + std::to_string(r.status);
  if (!r.answer.empty()) text += ": ";
  for (char c : r.answer.substr(0, 300)) text += (c >= 0x20 && c < 0x7f) ? c : ' ';
  return text;
}

}  // namespace

DrainWorker::DrainWorker(std::function<std::shared_ptr<const Config>()> config,
                         OperationsMetrics* metrics, DrainLimits limits)
    : config_(std::move(config)), metrics_(metrics), limits_(limits) {}

DrainWorker::~DrainWorker() {
  Stop();
}

void DrainWorker::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void DrainWorker::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DrainWorker::Loop() {
  bool warned = false;
  for (;;) {
    auto config = config_();
    bool busy = false;
    if (!config->dsn.empty() && Clock::now() >= quiet_until_) {
      try {
        if (!conn_) {
          conn_ = std::make_unique<pqxx::connection>(config->dsn);
          pqxx::nontransaction(*conn_).exec(
              "SET default_transaction_read_only = off; SET statement_timeout = 30000; "
              "SET TIME ZONE 'UTC'; SET application_name = 'lqe drains'");
          leader_ = false;
        }
        if (!leader_) {
          pqxx::nontransaction tx(*conn_);
          leader_ = tx.exec("SELECT pg_try_advisory_lock(hashtext('lqe.drains'))")[0][0].as<bool>();
        }
        if (leader_) busy = Round(*config);
        if (Clock::now() - last_publish_ >= kPublishEvery) {
          Publish(*conn_);
          last_publish_ = Clock::now();
        }
        warned = false;
      } catch (const std::exception& e) {
        // A database without lqe_admin (not migrated) or a gateway role that may not read it: said
        // once, then tried again every few seconds.
        if (!warned) spdlog::warn("drains: {}", e.what());
        warned = true;
        conn_.reset();
        leader_ = false;
        quiet_until_ = Clock::now() + kQuietAfterError;
      }
    }
    std::unique_lock lock(mutex_);
    const auto wait = busy ? std::chrono::milliseconds(0) : limits_.poll;
    if (wake_.wait_for(lock, wait, [this] { return stopping_; })) return;
  }
}

bool DrainWorker::Round(const Config& config) {
  bool more = false;
  const auto now = Clock::now();
  for (Backend& b : LoadBackends(*conn_, config)) {
    Backoff& wait = backoff_[b.id];
    if (now < wait.next) continue;
    Gathered g = Gather(*conn_, b, limits_);
    if (g.events.empty()) {
      if (g.next.xid != b.cursor.xid || g.next.seq != b.cursor.seq || g.next.pos != b.cursor.pos) {
        SaveCursor(*conn_, b, g);
      }
      more = more || g.more;
      continue;
    }
    auto request = drain::BuildRequest(b.type, b.config, g.events);
    if (auto* why = std::get_if<std::string>(&request)) {
      SaveFailure(*conn_, b, "unsupported", *why);
      wait.next = now + kFailingWait;
      continue;
    }
    drain::PostRequest& post = std::get<drain::PostRequest>(request);
    post.timeout_ms = limits_.timeout_ms;
    // Where the batch starts: a batch sent again after a failure or a restart carries the same id,
    // so a receiver can drop what it already has.
    post.headers.emplace_back("X-Lqe-Batch-Id", b.token + ":" + b.cursor.xid + "." +
                                                    std::to_string(b.cursor.seq) + "." +
                                                    std::to_string(b.cursor.pos));
    const drain::PostResult result = drain::Post(post);
    if (result.status >= 200 && result.status < 300) {
      SaveCursor(*conn_, b, g);
      wait = Backoff{};
      more = more || g.more;
      continue;
    }
    // Nothing is dropped: the cursor stays, and the same events go again after the wait.
    const bool request_wrong =
        result.status >= 400 && result.status < 500 && result.status != 408 && result.status != 429;
    ++wait.failures;
    const auto backoff =
        request_wrong
            ? std::chrono::duration_cast<Clock::duration>(kFailingWait)
            : std::min<Clock::duration>(
                  std::chrono::milliseconds(500) * (1 << std::min(wait.failures, 8)), kRetryCap);
    wait.next = Clock::now() + backoff;
    const std::string error = Describe(result);
    spdlog::warn("drains: backend {} ({}): {} events not delivered: {}", b.token, b.type,
                 g.events.size(), error);
    SaveFailure(*conn_, b, request_wrong ? "failing" : "retrying", error);
  }
  if (now - last_prune_ >= kPruneEvery) {
    Prune(*conn_);
    last_prune_ = now;
  }
  return more;
}

// Outbox rows every drain has passed, and those no drain will read.
void DrainWorker::Prune(pqxx::connection& conn) {
  pqxx::work tx(conn);
  tx.exec(
      "DELETE FROM lqe_admin.drain_outbox o "
      "WHERE o.xid < pg_snapshot_xmin(pg_current_snapshot()) AND NOT EXISTS ("
      "SELECT 1 FROM lqe_admin.drain_state s WHERE lqe_admin.drain_pending(o, s))");
  tx.commit();
}

void DrainWorker::Publish(pqxx::connection& conn) {
  pqxx::nontransaction tx(conn);
  auto rows = tx.exec(
      "SELECT b.token::text, b.name, b.type, s.status, s.delivered, s.batches, s.failed_batches, "
      "lqe_admin.drain_lag_seconds(b.id) "
      "FROM lqe_admin.backends b JOIN lqe_admin.drain_state s ON s.backend_id = b.id "
      "ORDER BY b.id");
  std::vector<DrainUsage> drains;
  for (const auto& row : rows) {
    drains.push_back(DrainUsage{row[0].as<std::string>(), row[1].as<std::string>(),
                                row[2].as<std::string>(), row[3].as<std::string>(), Int(row[4]),
                                Int(row[5]), Int(row[6]), row[7].as<double>()});
  }
  metrics_->SetDrains(std::move(drains));
}

}  // namespace lqe::gateway
