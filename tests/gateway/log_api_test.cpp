// /api/logs/events, /api/logs/hits, /api/logs/facets and /api/endpoints/openapi.json through
// real sockets and real PostgreSQL: the shapes, LQL filters giving the same events as the live
// tail's filter, the histogram's buckets against count(*) in SQL, the facets against GROUP BY,
// the cache, and the 4xx answers.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <pqxx/pqxx>
#include <regex>
#include <set>
#include <thread>

#include "http_client.h"
#include "lqe/gateway/server.h"
#include "lqe/schema/migrate.h"
#include "server_fixture.h"
#include "support.h"
#include "support/test_database.h"
#include "tail/event_match.h"
#include "tail/tail_hub.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only
namespace json = boost::json;

constexpr const char* kKey = "logs-key";
constexpr const char* kNarrowKey = "logs-narrow";
constexpr const char* kAdminKey = "logs-admin";

std::string Encode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof(hex), "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

// One stored event, as the tail sees it.
struct Row {
  json::object fields;
  std::int64_t micros = 0;
};

class LogApiTest : public ::testing::Test {
 protected:
  static constexpr std::int64_t kMinute = 60LL * 1000000;

  void SetUp() override {
    pqxx::connection conn(db_.dsn());
    schema::MigrateOptions options;
    options.partition_days_back = 2;
    schema::Migrate(conn, options);
    now_ = std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count();
    // Whole minutes: the range [start, end) is exactly 60 one-minute buckets.
    end_ = now_ / kMinute * kMinute;
    start_ = end_ - 60 * kMinute;
  }

  void Start() {
    std::string config =
        "listen: 127.0.0.1:0\naccess_log: false\nio_threads: 2\n"
        "database:\n  dsn: " +
        db_.dsn() + "\n  pool_size: 2\ncatalogue_file: " +
        lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
        "\nsources:\n"
        "  - {name: cloudflare.logs.prod, table: edge, id: 0b8a7bd4-1d3a-4f05-9f6e-aa5fd0c8d3a1}\n"
        "  - {name: gotrue.logs.prod, table: auth}\n"
        "api_keys:\n"
        "  - {name: reader, sha256: " +
        Sha256Hex(kKey) +
        ", endpoints: ['*'], ingest: ['*']}\n"
        "  - {name: narrow, sha256: " +
        Sha256Hex(kNarrowKey) + ", endpoints: ['logs.all'], ingest: ['*']}\n" +
        "  - {name: admin, sha256: " + Sha256Hex(kAdminKey) +
        ", scopes: [query, ingest, private]}\n" +
        "endpoints_dir: " + lqe::testing::SourcePath("sql") + "\n";
    config_path_ = dir_.Write("gw.yaml", config);
    std::string error;
    auto state = BuildState(config_path_, metrics_.get(), &error);
    ASSERT_NE(state, nullptr) << error;
    server_ = std::make_unique<Server>(config_path_, state, metrics_);
    ASSERT_EQ(server_->Bind(), "");
    thread_ = std::thread([this] { server_->Run(false); });
  }

  void TearDown() override {
    if (server_) {
      server_->Stop();
      thread_.join();
      server_.reset();
    }
  }

  // Stores `count` varied events in logs.edge spread over [start_, end_) (and a few outside).
  void Fill(int count) {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    const char* levels[] = {"info", "error", "warning", "debug", "info"};
    for (int i = 0; i < count; ++i) {
      Row row;
      // Uneven: more events late in the hour, and some minutes left empty.
      std::int64_t offset = (static_cast<std::int64_t>(i) * i * 7919) % (60 * kMinute);
      if (offset / kMinute % 7 == 3) offset += kMinute;  // minutes 3, 10, ... stay empty
      if (offset >= 60 * kMinute) offset -= 2 * kMinute;
      row.micros = start_ + offset;
      json::object metadata;
      metadata["level"] = levels[i % 5];
      if (i % 4 != 0) metadata["status"] = 200 + (i % 5) * 100;
      if (i % 6 == 0) metadata["user"] = json::object{{"name", "ann"}};
      if (i % 3 == 0) metadata["tags"] = json::array{"a", i % 2 == 0 ? "b" : "c"};
      metadata["request"] = json::array{json::object{{"path", i % 2 == 0 ? "/users" : "/items"}}};
      if (i % 5 == 1) metadata["ok"] = true;
      std::string message = (i % 3 == 0 ? "GET /users " : "POST /items ") + std::to_string(i);
      if (i % 7 == 0) message += " error";
      row.fields["id"] = "ev-" + std::to_string(i);
      row.fields["timestamp"] = tail::IsoMicros(row.micros);
      row.fields["event_message"] = message;
      row.fields["project"] = i % 2 == 0 ? "p1" : "p2";
      row.fields["metadata"] = metadata;
      row.fields["extra"] = json::object{{"host", "h" + std::to_string(i % 3)}};
      tx.exec_params(
          "INSERT INTO logs.edge (id, \"timestamp\", event_message, project, metadata, extra) "
          "VALUES ($1, 'epoch'::timestamptz + $2::bigint * interval '1 microsecond', $3, $4, "
          "$5::jsonb, $6::jsonb)",
          std::string(row.fields["id"].as_string()), row.micros, message,
          std::string(row.fields["project"].as_string()), json::serialize(metadata),
          json::serialize(row.fields["extra"]));
      rows_.push_back(std::move(row));
    }
    // Outside the range on both sides: never counted.
    tx.exec_params(
        "INSERT INTO logs.edge (id, \"timestamp\", event_message, metadata, extra) VALUES "
        "('before', 'epoch'::timestamptz + $1::bigint * interval '1 microsecond', 'GET /users x', "
        "'{\"level\":\"error\"}', '{}'), "
        "('at-end', 'epoch'::timestamptz + $2::bigint * interval '1 microsecond', 'GET /users y', "
        "'{\"level\":\"error\"}', '{}')",
        start_ - 1, end_);
    tx.commit();
  }

  std::string Range() const {
    return "&start=" + tail::IsoMicros(start_) + "&end=" + tail::IsoMicros(end_);
  }

  HttpResult Get(const std::string& target, const std::string& key = kKey) {
    std::map<std::string, std::string> headers;
    if (!key.empty()) headers["X-API-Key"] = key;
    return Fetch(server_->port(), target, headers);
  }

  json::object GetJson(const std::string& target) {
    HttpResult r = Get(target);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    if (r.status != 200) return {};
    return json::parse(r.body).as_object();
  }

  std::int64_t SqlCount(const std::string& where) {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    return tx
        .exec_params1(
            "SELECT count(*) FROM logs.edge e WHERE e.\"timestamp\" >= "
            "'epoch'::timestamptz + $1::bigint * interval '1 microsecond' AND "
            "e.\"timestamp\" < 'epoch'::timestamptz + $2::bigint * interval "
            "'1 microsecond' AND " +
                where,
            start_, end_)[0]
        .as<std::int64_t>();
  }

  lqe::testing::TestDatabase db_{"logapi"};
  TempDir dir_;
  std::string config_path_;
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
  std::unique_ptr<Server> server_;
  std::thread thread_;
  std::int64_t now_ = 0, start_ = 0, end_ = 0;
  std::vector<Row> rows_;
};

TEST_F(LogApiTest, EventsComeNewestFirstWithTheirColumns) {
  Fill(40);
  Start();
  json::object body = GetJson("/api/logs/events?source=cloudflare.logs.prod&limit=10" + Range());
  const json::array& events = body.at("events").as_array();
  ASSERT_EQ(events.size(), 10U);
  const std::regex iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)");
  std::string previous = "9999";
  for (const json::value& v : events) {
    const json::object& e = v.as_object();
    for (const char* key : {"id", "timestamp", "event_message", "project", "metadata", "extra"}) {
      EXPECT_TRUE(e.contains(key)) << key << " in " << json::serialize(e);
    }
    const std::string ts(e.at("timestamp").as_string());
    EXPECT_TRUE(std::regex_match(ts, iso)) << ts;
    EXPECT_LE(ts, previous);
    previous = ts;
    EXPECT_TRUE(e.at("metadata").is_object());
    EXPECT_TRUE(e.at("extra").at("host").is_string());
  }
  // The newest stored event in the range comes first, with its stored fields.
  const Row* newest = &rows_.front();
  for (const Row& r : rows_) {
    if (r.micros > newest->micros) newest = &r;
  }
  EXPECT_EQ(events.front().at("timestamp"), newest->fields.at("timestamp"));
  // The default limit is 100; the source's UUID names it too.
  json::object all =
      GetJson("/api/logs/events?source=0b8a7bd4-1d3a-4f05-9f6e-aa5fd0c8d3a1" + Range());
  EXPECT_EQ(all.at("events").as_array().size(), 40U);
  // Without start and end: the last hour.
  json::object recent = GetJson("/api/logs/events?source=cloudflare.logs.prod&limit=1000");
  EXPECT_GE(recent.at("events").as_array().size(), 1U);
}

TEST_F(LogApiTest, LqlFiltersSelectTheEventsTheTailsFilterSelects) {
  Fill(120);
  Start();
  const auto now = std::chrono::system_clock::now();
  for (const std::string& lql : std::vector<std::string>{"error",
                                                         "-error",
                                                         "m.level:error",
                                                         "-m.level:error",
                                                         "m.status:>=400",
                                                         "m.status:<300",
                                                         "m.status:300..400",
                                                         "m.level:info..error",
                                                         "~^GET",
                                                         "m.tags:@>b",
                                                         "m.tags:b",
                                                         "m.user.name:NULL",
                                                         "-m.user.name:NULL",
                                                         "m.user.name:ann",
                                                         "m.ok:true",
                                                         "m.request.path:~users",
                                                         "m.request.path:/items",
                                                         "project:p1 m.level:info",
                                                         "event_message:\"GET /users 3\"",
                                                         "m.tags:@>~^c$",
                                                         "t:>2020-01-01",
                                                         "m.nothing:x",
                                                         "-m.nothing:NULL",
                                                         "metadata.level:debug m.status:500"}) {
    auto compiled = tail::EventMatch::Compile(lql, now);
    ASSERT_TRUE(std::holds_alternative<tail::EventMatch>(compiled)) << lql;
    const auto& match = std::get<tail::EventMatch>(compiled);
    std::set<std::string> expected;
    for (const Row& r : rows_) {
      if (match.Matches(tail::EventView{&r.fields, r.micros})) {
        expected.insert(std::string(r.fields.at("id").as_string()));
      }
    }
    json::object body = GetJson(
        "/api/logs/events?source=cloudflare.logs.prod&limit=1000&lql=" + Encode(lql) + Range());
    std::set<std::string> got;
    for (const json::value& e : body.at("events").as_array()) {
      got.insert(std::string(e.at("id").as_string()));
    }
    EXPECT_EQ(got, expected) << lql;
    if (lql != "m.nothing:x" && lql != "-m.nothing:NULL") {
      EXPECT_FALSE(expected.empty()) << "no test data for " << lql;
    }
  }
}

TEST_F(LogApiTest, HitsHaveEveryBucketAndCountWhatSqlCounts) {
  Fill(300);
  Start();
  json::object body = GetJson("/api/logs/hits?source=cloudflare.logs.prod&buckets=60" + Range());
  EXPECT_EQ(body.at("bucket_seconds").as_int64(), 60);
  EXPECT_EQ(body.at("start").as_string(), tail::IsoMicros(start_));
  EXPECT_EQ(body.at("end").as_string(), tail::IsoMicros(end_));
  const json::array& hits = body.at("hits").as_array();
  ASSERT_EQ(hits.size(), 60U);
  std::int64_t sum = 0;
  int zeros = 0;
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const std::int64_t bucket = start_ + static_cast<std::int64_t>(i) * kMinute;
    EXPECT_EQ(hits[i].at("timestamp").as_string(), tail::IsoMicros(bucket));
    const std::int64_t count = hits[i].at("count").as_int64();
    const auto sql = tx.exec_params1(
        "SELECT count(*) FROM logs.edge WHERE \"timestamp\" >= 'epoch'::timestamptz + $1::bigint "
        "* interval '1 microsecond' AND \"timestamp\" < 'epoch'::timestamptz + $2::bigint * "
        "interval '1 microsecond'",
        bucket, bucket + kMinute)[0];
    EXPECT_EQ(count, sql.as<std::int64_t>()) << "bucket " << i;
    sum += count;
    zeros += count == 0 ? 1 : 0;
  }
  EXPECT_GT(zeros, 0);  // empty minutes are there, with 0
  EXPECT_EQ(body.at("total").as_int64(), sum);
  EXPECT_EQ(sum, SqlCount("TRUE"));
  EXPECT_EQ(sum, 300);

  json::object errors = GetJson(
      "/api/logs/hits?source=cloudflare.logs.prod&lql=" + Encode("m.level:error") + Range());
  EXPECT_EQ(errors.at("total").as_int64(), SqlCount("e.metadata->>'level' = 'error'"));
  EXPECT_EQ(errors.at("hits").as_array().size(), 60U);  // default buckets: 60

  // The bucket follows the range: a day in at most 60 buckets is 30 minutes (48 buckets), seven
  // days 3 hours; a misaligned start adds the bucket it falls in.
  json::object day = GetJson(
      "/api/logs/hits?source=cloudflare.logs.prod&start=" + tail::IsoMicros(end_ - 1440 * kMinute) +
      "&end=" + tail::IsoMicros(end_));
  EXPECT_EQ(day.at("bucket_seconds").as_int64(), 1800);
  EXPECT_EQ(day.at("total").as_int64(), 301);  // with `before`; the one at `end` is outside
  json::object week =
      GetJson("/api/logs/hits?source=cloudflare.logs.prod&buckets=100&start=" +
              Encode("2026-01-01T00:00:00Z") + "&end=" + Encode("2026-01-08T00:00:00Z"));
  EXPECT_EQ(week.at("bucket_seconds").as_int64(), 10800);
  EXPECT_EQ(week.at("hits").as_array().size(), 56U);
  json::object odd =
      GetJson("/api/logs/hits?source=cloudflare.logs.prod&buckets=10&start=" +
              Encode("2026-01-01T00:00:07Z") + "&end=" + Encode("2026-01-01T00:01:07Z"));
  EXPECT_EQ(odd.at("bucket_seconds").as_int64(), 10);
  EXPECT_EQ(odd.at("hits").as_array().size(), 7U);
  EXPECT_EQ(odd.at("hits").as_array().front().at("timestamp").as_string(),
            "2026-01-01T00:00:00.000000Z");
}

// Without a filter the histogram reads the writers' minute counts for the whole minutes and the
// table for the partial minutes at both ends; deletes, updates that move events and folds keep it
// exact, and a table without counts is counted from its rows.
TEST_F(LogApiTest, UnfilteredHitsComeFromTheMinuteCountsAndStayExact) {
  Fill(300);
  Start();
  pqxx::connection conn(db_.dsn());
  // Each call a new range (not a cached answer): the ends fall inside minutes.
  std::int64_t shift = 0;
  // `extra` more events than the table holds in the minute `extra_at`.
  auto check = [&](const std::string& when, const std::string& extra_at = "",
                   std::int64_t extra = 0) -> std::int64_t {
    ++shift;
    constexpr std::int64_t kSecond = 1000000;
    const std::int64_t start = start_ + 17 * kSecond + shift;
    const std::int64_t end = end_ - 23 * kSecond + shift;
    json::object body =
        GetJson("/api/logs/hits?source=cloudflare.logs.prod&buckets=60&start=" +
                Encode(tail::IsoMicros(start)) + "&end=" + Encode(tail::IsoMicros(end)));
    if (body.empty()) return -1;
    EXPECT_EQ(body.at("bucket_seconds").as_int64(), 60) << when;
    const json::array& hits = body.at("hits").as_array();
    pqxx::work tx(conn);
    std::int64_t total = 0;
    for (const auto& hit : hits) {
      const std::string bucket(hit.at("timestamp").as_string());
      const std::int64_t expected =
          tx.exec_params1(
                "SELECT count(*) FROM logs.edge WHERE \"timestamp\" >= greatest($1::timestamptz, "
                "'epoch'::timestamptz + $2::bigint * interval '1 microsecond') AND \"timestamp\" < "
                "least($1::timestamptz + interval '1 minute', 'epoch'::timestamptz + $3::bigint * "
                "interval '1 microsecond')",
                bucket, start, end)[0]
              .as<std::int64_t>();
      EXPECT_EQ(hit.at("count").as_int64(), expected + (bucket == extra_at ? extra : 0))
          << when << ", bucket " << bucket;
      total += hit.at("count").as_int64();
    }
    EXPECT_EQ(body.at("total").as_int64(), total) << when;
    return total;
  };
  auto exec = [&](const std::string& sql) {
    pqxx::work tx(conn);
    tx.exec(sql);
    tx.commit();
  };
  EXPECT_GT(check("as stored"), 250);
  exec("DELETE FROM logs.edge WHERE id IN ('ev-5', 'ev-6', 'ev-7', 'ev-100')");
  exec(
      "UPDATE logs.edge SET \"timestamp\" = \"timestamp\" + interval '7 minutes' WHERE id LIKE "
      "'ev-1_'");
  exec("UPDATE logs.edge SET \"timestamp\" = \"timestamp\" - interval '1 day' WHERE id = 'ev-20'");
  check("after a delete and updates");
  exec("SELECT logs.compact_source_minute_counts()");
  check("after a fold");

  // The counts are what it reads: a count that no event backs shows.
  const std::string minute = tail::IsoMicros(start_ + 30 * kMinute);
  exec("INSERT INTO logs.source_minute_counts_delta VALUES ('edge', '" + minute + "', 1000)");
  const std::int64_t with_extra = check("with a count of its own", minute, 1000);
  // Not covered (its triggers gone): counted from the rows, exact again.
  exec("SELECT logs.stop_minute_counts('edge')");
  exec("INSERT INTO logs.source_minute_counts_delta VALUES ('edge', '" + minute + "', 1000)");
  EXPECT_EQ(check("not covered"), with_extra - 1000);
  // Counting again starts from the rows.
  exec("SELECT logs.rebuild_minute_counts('edge')");
  exec("INSERT INTO logs.edge (id, \"timestamp\", event_message) VALUES ('late', '" + minute +
       "', 'late')");
  EXPECT_EQ(check("rebuilt"), with_extra - 1000 + 1);
}

TEST_F(LogApiTest, FacetsCountTopValuesAsSqlGroupsThem) {
  Fill(200);
  Start();
  json::object body =
      GetJson("/api/logs/facets?source=cloudflare.logs.prod&field=m.level&limit=2" + Range());
  EXPECT_EQ(body.at("field").as_string(), "m.level");
  const json::array& values = body.at("values").as_array();
  ASSERT_EQ(values.size(), 2U);
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  const pqxx::result groups = tx.exec_params(
      "SELECT metadata->>'level', count(*) FROM logs.edge WHERE \"timestamp\" >= "
      "'epoch'::timestamptz + $1::bigint * interval '1 microsecond' AND \"timestamp\" < "
      "'epoch'::timestamptz + $2::bigint * interval '1 microsecond' GROUP BY 1 ORDER BY 2 DESC, 1",
      start_, end_);
  std::int64_t shown = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(values[i].at("value").as_string(), groups[static_cast<int>(i)][0].c_str());
    EXPECT_EQ(values[i].at("count").as_int64(), groups[static_cast<int>(i)][1].as<std::int64_t>());
    shown += values[i].at("count").as_int64();
  }
  EXPECT_EQ(body.at("other").as_int64(), 200 - shown);

  // Numbers stay numbers; events without the field count under null.
  json::object status = GetJson(
      "/api/logs/facets?source=cloudflare.logs.prod&field=metadata.status&limit=100" + Range());
  std::int64_t total = 0;
  bool saw_null = false;
  for (const json::value& v : status.at("values").as_array()) {
    total += v.at("count").as_int64();
    if (v.at("value").is_null()) {
      saw_null = true;
      EXPECT_EQ(v.at("count").as_int64(), SqlCount("NOT e.metadata ? 'status'"));
    } else {
      EXPECT_TRUE(v.at("value").is_number());
      EXPECT_EQ(v.at("count").as_int64(),
                SqlCount("e.metadata->'status' = '" + json::serialize(v.at("value")) + "'::jsonb"));
    }
  }
  EXPECT_TRUE(saw_null);
  EXPECT_EQ(total, 200);
  EXPECT_EQ(status.at("other").as_int64(), 0);
  // With a filter, over a column.
  json::object projects = GetJson(
      "/api/logs/facets?source=cloudflare.logs.prod&field=project&lql=" + Encode("m.level:error") +
      Range());
  std::int64_t filtered = 0;
  for (const json::value& v : projects.at("values").as_array()) {
    filtered += v.at("count").as_int64();
  }
  EXPECT_EQ(filtered, SqlCount("e.metadata->>'level' = 'error'"));
}

TEST_F(LogApiTest, RepeatedRangesAreAnsweredFromTheCache) {
  Fill(10);
  Start();
  const std::string target = "/api/logs/hits?source=cloudflare.logs.prod" + Range();
  HttpResult first = Get(target);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.Header("x-cache"), "MISS");
  HttpResult second = Get(target);
  EXPECT_EQ(second.Header("x-cache"), "HIT");
  EXPECT_EQ(second.body, first.body);
  // The key is the request: another filter is another entry, and a default range is never cached.
  EXPECT_EQ(Get(target + "&lql=error").Header("x-cache"), "MISS");
  EXPECT_EQ(Get("/api/logs/hits?source=cloudflare.logs.prod").Header("x-cache"), "BYPASS");
}

TEST_F(LogApiTest, BadRequestsGetClearFourHundreds) {
  Start();
  struct Case {
    std::string target, key;
    int status;
    std::string fragment;
  };
  const std::string events = "/api/logs/events?source=cloudflare.logs.prod";
  const std::vector<Case> cases = {
      {events, "", 401, "missing API key"},
      {events, "wrong", 401, "invalid API key"},
      {events, kNarrowKey, 403, "endpoints: ['*']"},
      {"/api/logs/hits?source=cloudflare.logs.prod", kNarrowKey, 403, "endpoints: ['*']"},
      {"/api/logs/events?source=nope", kKey, 404, "no source named nope"},
      {"/api/logs/events", kKey, 400, "missing parameter source"},
      {events + "&since=1h", kKey, 400, "unknown parameter since"},
      {events + "&buckets=10", kKey, 400, "unknown parameter buckets"},
      {"/api/logs/hits?source=cloudflare.logs.prod&limit=3", kKey, 400, "unknown parameter limit"},
      {events + "&limit=0", kKey, 400, "limit must be an integer from 1 to 1000"},
      {events + "&limit=1001", kKey, 400, "limit must be"},
      {events + "&limit=ten", kKey, 400, "limit must be"},
      {"/api/logs/hits?source=cloudflare.logs.prod&buckets=9", kKey, 400, "from 10 to 500"},
      {events + "&start=yesterday", kKey, 400, "ISO 8601"},
      {events + "&start=2026-01-02T00:00:00Z&end=2026-01-01T00:00:00Z", kKey, 400,
       "end must be after start"},
      {events + "&start=2026-01-01T00:00:00Z&end=2026-01-01T00:00:00Z", kKey, 400,
       "end must be after start"},
      {events + "&start=2026-01-01T00:00:00Z&end=2026-02-02T00:00:00Z", kKey, 400, "31 days"},
      {events + "&lql=m.a:%3E", kKey, 400, "missing value"},
      {events + "&lql=s:id", kKey, 400, "only filters apply"},
      {events + "&lql=%7E%22(%22", kKey, 400, "invalid regular expression"},
      {"/api/logs/facets?source=cloudflare.logs.prod", kKey, 400, "missing parameter field"},
      {"/api/logs/facets?source=cloudflare.logs.prod&field=m..x", kKey, 400, "field must be"},
      {"/api/logs/facets?source=cloudflare.logs.prod&field=timestamp", kKey, 400, "field must be"},
      {"/api/logs/facets?source=cloudflare.logs.prod&field=m.level&limit=101", kKey, 400,
       "from 1 to 100"},
  };
  for (const Case& c : cases) {
    HttpResult r = Get(c.target, c.key);
    EXPECT_EQ(r.status, c.status) << c.target << ": " << r.body;
    EXPECT_NE(r.body.find(c.fragment), std::string::npos) << c.target << ": " << r.body;
    json::object error = json::parse(r.body).as_object();
    EXPECT_TRUE(error.contains("error")) << r.body;
  }
  // An LQL error names its place.
  HttpResult r = Get(events + "&lql=" + Encode("level:error m.a:>"));
  ASSERT_EQ(r.status, 400);
  json::object error = json::parse(r.body).at("error").as_object();
  EXPECT_EQ(error.at("parameter").as_string(), "lql");
  EXPECT_EQ(error.at("line").as_int64(), 1);
  EXPECT_GT(error.at("column").as_int64(), 1);
  // Only GET.
  EXPECT_EQ(Fetch(server_->port(), events, {{"X-API-Key", kKey}}, "POST", "{}").status, 405);
}

TEST_F(LogApiTest, OpenApiJsonDescribesTheEndpointsOfTheKey) {
  Start();
  HttpResult all = Get("/api/endpoints/openapi.json");
  ASSERT_EQ(all.status, 200) << all.body;
  json::object doc = json::parse(all.body).as_object();
  EXPECT_EQ(doc.at("openapi").as_string(), "3.1.0");
  const json::object& paths = doc.at("paths").as_object();
  EXPECT_TRUE(paths.contains("/api/endpoints/query/logs.all"));
  EXPECT_TRUE(paths.contains("/api/endpoints/query/usage.api-counts"));
  EXPECT_FALSE(paths.contains("/api/sources"));  // endpoints only
  for (const auto& [path, item] : paths) {
    EXPECT_TRUE(path.starts_with("/api/endpoints/query/")) << path;
    EXPECT_TRUE(item.at("get").as_object().contains("parameters")) << path;
    EXPECT_FALSE(item.at("get").as_object().contains("x-lqe-postgres-sql")) << path;
  }
  // A key with the private scope also reads each stored query as PostgreSQL runs it.
  HttpResult admin = Get("/api/endpoints/openapi.json", kAdminKey);
  ASSERT_EQ(admin.status, 200) << admin.body;
  const json::value admin_doc = json::parse(admin.body);
  const json::value& logs_all = admin_doc.at("paths").at("/api/endpoints/query/logs.all").at("get");
  EXPECT_NE(std::string(logs_all.at("x-lqe-postgres-sql").as_string()).find("logs.edge"),
            std::string::npos)
      << logs_all;
  HttpResult narrow = Get("/api/endpoints/openapi.json", kNarrowKey);
  ASSERT_EQ(narrow.status, 200) << narrow.body;
  const json::object narrow_paths = json::parse(narrow.body).at("paths").as_object();
  ASSERT_EQ(narrow_paths.size(), 1U) << narrow.body;
  EXPECT_TRUE(narrow_paths.contains("/api/endpoints/query/logs.all"));
  EXPECT_EQ(Get("/api/endpoints/openapi.json", "").status, 401);
  EXPECT_EQ(Get("/api/endpoints/openapi.json", "wrong").status, 401);
}

}  // namespace
}  // namespace lqe::gateway
