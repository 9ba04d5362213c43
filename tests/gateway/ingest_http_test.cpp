// HTTP ingest through a real socket into real PostgreSQL: the three routes, every way of naming
// the source, the 401s, each body shape and encoding, the limits, 406 for partly refused
// batches, 429 when the queue is full, idempotent retries (also concurrent), and the events read
// back through the logs.all endpoint.
#include <gtest/gtest.h>
#include <libdeflate.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <future>
#include <thread>

#include "config_server.h"
#include "server_fixture.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

constexpr const char* kAuthUuid = "3f1f0c33-8a4b-4c1d-9e2f-0a1b2c3d4e5f";
constexpr const char* kIngestKey = "ingest-key";
constexpr const char* kEdgeOnlyKey = "edge-only-key";
constexpr const char* kQueryOnlyKey = "query-only-key";

std::string NowIso(int offset_seconds = 0) {
  return IsoSeconds(std::chrono::system_clock::now() + std::chrono::seconds(offset_seconds));
}

enum class Wrap : std::uint8_t { kGzip, kZlib, kRaw };

std::string Compress(const std::string& data, Wrap wrap) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string out(libdeflate_gzip_compress_bound(c, data.size()) + 64, '\0');
  std::size_t n = 0;
  switch (wrap) {
    case Wrap::kGzip:
      n = libdeflate_gzip_compress(c, data.data(), data.size(), out.data(), out.size());
      break;
    case Wrap::kZlib:
      n = libdeflate_zlib_compress(c, data.data(), data.size(), out.data(), out.size());
      break;
    case Wrap::kRaw:
      n = libdeflate_deflate_compress(c, data.data(), data.size(), out.data(), out.size());
      break;
  }
  libdeflate_free_compressor(c);
  out.resize(n);
  return out;
}

class IngestHttpTest : public ConfigServerTest {
 protected:
  IngestHttpTest() : ConfigServerTest("ingest_http", kIngestKey) {}

  // ingest_yaml: extra lines of the ingest section.
  void Start(const std::string& ingest_yaml = "", const std::string& ingest_role = "") {
    Serve(ServerYaml(QueryDsn()) + CatalogueYaml() +
          "ingest:\n  dsn: " + (ingest_role.empty() ? WriterDsn() : DsnAs(ingest_role)) +
          "\n  max_body_bytes: 65536\n  max_decompressed_bytes: 1048576\n" + ingest_yaml +
          IngestSourcesYaml(kAuthUuid) + "api_keys:\n" +
          ApiKeyYaml("shipper", kIngestKey, "['*']", "['*']") +
          ApiKeyYaml("edge-only", kEdgeOnlyKey, "[]", "[cloudflare.logs.prod]") +
          ApiKeyYaml("reader", kQueryOnlyKey, "['*']") + ShippedEndpointsYaml());
  }

  HttpResult Post(const std::string& target, const std::string& body,
                  std::map<std::string, std::string> headers = {}) {
    if (!headers.contains("x-api-key") && !headers.contains("Authorization")) {
      headers["x-api-key"] = kIngestKey;
    }
    if (!headers.contains("Content-Type")) headers["Content-Type"] = "application/json";
    return Fetch(Port(), target, headers, "POST", body);
  }
};

const std::string kLogged = R"({"message":"Logged!"})";
const std::string kUnauthorized = R"({"error":"Unauthorized"})";

TEST_F(IngestHttpTest, EveryRouteAndSourceSelectorStoresWithTheWritersRole) {
  Start();
  auto r = Post("/api/logs?source_name=gotrue.logs.prod",
                R"([{"event_message":"a1","id":"a1","timestamp":")" + NowIso() +
                    R"(","metadata":{"status":200,"duration":1500},"appname":"supabase-auth"}])");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, kLogged);
  EXPECT_EQ(r.Header("content-type"), "application/json; charset=utf-8");
  r = Post(std::string("/logs?source=") + kAuthUuid, R"({"batch":[{"message":"a2","id":"a2"}]})");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, kLogged);
  r = Post("/api/events", R"([{"message":"a3","id":"a3"}])",
           {{"x-source", "3F1F0C33-8A4B-4C1D-9E2F-0A1B2C3D4E5F"}});
  EXPECT_EQ(r.status, 200) << r.body;
  r = Post("/api/logs?collection_name=gotrue.logs.prod", R"([{"message":"a4","id":"a4"}])");
  EXPECT_EQ(r.status, 200) << r.body;
  // A single object names its source itself; its own timestamp and id are not used (Logflare).
  r = Post(
      "/api/logs",
      R"({"source_name":"gotrue.logs.prod","message":"a5","id":"a5","timestamp":"2020-01-01T00:00:00Z"})");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count("auth"), 5);
  EXPECT_EQ(One("SELECT metadata::text FROM logs.auth WHERE id = 'a1'"),
            R"({"status": 200, "duration": 1500})");
  EXPECT_EQ(One("SELECT extra::text FROM logs.auth WHERE id = 'a1'"),
            R"({"appname": "supabase-auth"})");
  EXPECT_EQ(Count("auth", "event_message = 'a5' AND id <> 'a5'"), 1);
  EXPECT_EQ(Count("auth", "event_message = 'a5' AND timestamp > now() - interval '1 hour'"), 1);
  EXPECT_EQ(One("SELECT extra->>'source_name' FROM logs.auth WHERE event_message = 'a5'"),
            "gotrue.logs.prod");
}

TEST_F(IngestHttpTest, KeysAndSourcesAreCheckedLikeLogflare) {
  Start();
  const std::string body = R"([{"message":"x"}])";
  auto expect_401 = [&](const HttpResult& r, const std::string& what) {
    EXPECT_EQ(r.status, 401) << what << ": " << r.body;
    EXPECT_EQ(r.body, kUnauthorized) << what;
  };
  expect_401(Post("/api/logs?source_name=gotrue.logs.prod", body, {{"x-api-key", "wrong"}}),
             "unknown key");
  expect_401(Fetch(Port(), "/api/logs?source_name=gotrue.logs.prod",
                   {{"Content-Type", "application/json"}}, "POST", body),
             "no key");
  expect_401(Post("/api/logs?source_name=nope", body), "unknown source");
  expect_401(Post("/api/logs?source_name=GOTRUE.logs.prod", body), "name is case-sensitive");
  expect_401(Post("/api/logs?source=not-a-uuid", body), "non-UUID source");
  expect_401(Post("/api/logs?source=11111111-2222-3333-4444-555555555555", body), "unknown id");
  expect_401(Post("/api/logs", body), "no source at all");
  expect_401(Post("/api/logs?source_name=gotrue.logs.prod", body, {{"x-api-key", kEdgeOnlyKey}}),
             "key without this source");
  expect_401(Post("/api/logs?source_name=gotrue.logs.prod", body, {{"x-api-key", kQueryOnlyKey}}),
             "key without ingest permission");
  EXPECT_EQ(Count("auth"), 0);
  // The other places a key may come in.
  auto r = Post("/api/logs?source_name=cloudflare.logs.prod", body, {{"x-api-key", kEdgeOnlyKey}});
  EXPECT_EQ(r.status, 200) << r.body;
  r = Fetch(Port(), std::string("/api/logs?source_name=gotrue.logs.prod&api_key=") + kIngestKey,
            {{"Content-Type", "application/json"}}, "POST", body);
  EXPECT_EQ(r.status, 200) << r.body;
  r = Post("/api/logs?source_name=gotrue.logs.prod", body,
           {{"Authorization", std::string("Bearer ") + kIngestKey}});
  EXPECT_EQ(r.status, 200) << r.body;
  // The same bytes to the same source twice are a retry: the events (sent without ids) get ids
  // from the body and their position, so the second post finds them stored.
  EXPECT_EQ(Count("auth"), 1);
  EXPECT_EQ(Count("edge"), 1);
}

TEST_F(IngestHttpTest, PreflightIsAuthenticatedAndGetIsRefused) {
  Start();
  auto r = Fetch(Port(), "/api/logs", {}, "OPTIONS");
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.body, kUnauthorized);
  r = Fetch(Port(), "/logs", {{"x-api-key", kIngestKey}}, "OPTIONS");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(r.Header("access-control-allow-methods"), "POST, OPTIONS");
  EXPECT_EQ(r.Header("access-control-allow-origin"), "*");
  r = Fetch(Port(), "/api/logs?source_name=gotrue.logs.prod", {{"x-api-key", kIngestKey}});
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.Header("allow"), "POST, OPTIONS");
  EXPECT_EQ(ErrorMessage(r), "method GET is not allowed here (POST)");
}

TEST_F(IngestHttpTest, BodyShapesAndEncodings) {
  Start();
  const std::string target = "/api/logs?source_name=postgres.logs";
  auto r = Post(target, "[]");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, kLogged);
  r = Post(target, R"({"batch":[]})");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(Count("postgres"), 0);
  r = Post(target, "", {});
  EXPECT_EQ(r.status, 200) << "an empty body is one empty event, as in Logflare";
  EXPECT_EQ(Count("postgres", "event_message IS NULL"), 1);

  const std::string events = R"([{"message":"gz","id":"gz1"},{"message":"gz","id":"gz2"}])";
  r = Post(target, Compress(events, Wrap::kGzip), {{"Content-Encoding", "gzip"}});
  EXPECT_EQ(r.status, 200) << r.body;
  r = Post(target, Compress(R"([{"message":"zl"}])", Wrap::kZlib),
           {{"Content-Encoding", "deflate"}});
  EXPECT_EQ(r.status, 200) << r.body;
  r = Post(target, Compress(R"([{"message":"raw"}])", Wrap::kRaw),
           {{"Content-Encoding", "deflate"}});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count("postgres", "event_message = 'gz'"), 2);
  EXPECT_EQ(Count("postgres", "event_message IN ('zl', 'raw')"), 2);
  r = Post(target, R"({"vendor+json":1})",
           {{"Content-Type", "application/vnd.x+json; charset=utf-8"}});
  EXPECT_EQ(r.status, 200) << r.body;

  r = Post(target, R"([{"message":)");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorReason(r), "bad_json");
  EXPECT_EQ(ErrorMessage(r).rfind("malformed JSON at byte 13: ", 0), 0u) << r.body;
  r = Post(target, "\"text\"");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorMessage(r), "the body must be a JSON object or array");
  r = Post(target, "[\"\xff\"]");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorReason(r), "bad_json");
  r = Post(target, events, {{"Content-Type", "text/plain"}});
  EXPECT_EQ(r.status, 415);
  EXPECT_EQ(ErrorMessage(r), "unsupported Content-Type text/plain (send application/json)");
  r = Post(target, events, {{"Content-Encoding", "br"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorMessage(r), "unsupported Content-Encoding br (gzip, deflate or none)");
  r = Post(target, "not gzip at all", {{"Content-Encoding", "gzip"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(ErrorMessage(r), "the body is not valid gzip data");
  EXPECT_EQ(Count("postgres"), 6);
}

TEST_F(IngestHttpTest, BodyLimitAndZipBomb) {
  Start();
  const std::string target = "/api/logs?source_name=postgres.logs";
  // ingest.max_body_bytes is 64 KiB here; the query routes keep http.max_body_bytes (1 MiB).
  std::string big = R"([{"message":")" + std::string(70000, 'x') + R"("}])";
  auto r = Post(target, big);
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(ErrorMessage(r), "the request body is too large");
  // 8 MiB of spaces compress to a few KiB; max_decompressed_bytes is 1 MiB.
  std::string bomb = Compress("[" + std::string(8u << 20, ' ') + "]", Wrap::kGzip);
  ASSERT_LT(bomb.size(), 65536u);
  r = Post(target, bomb, {{"Content-Encoding", "gzip"}});
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(ErrorMessage(r), "the decompressed body is larger than 1048576 bytes");
  r = Post(target, Compress("[" + std::string(8u << 20, ' ') + "]", Wrap::kZlib),
           {{"Content-Encoding", "deflate"}});
  EXPECT_EQ(r.status, 413);
  // Under the limit it is fine.
  r = Post(target, Compress(R"([{"message":"ok")" + std::string(500000, ' ') + "}]", Wrap::kGzip),
           {{"Content-Encoding", "gzip"}});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count("postgres"), 1);
}

TEST_F(IngestHttpTest, PartlyRefusedBatchStoresTheRestAndAnswers406) {
  Start();
  std::string nul = R"({"message":"bad\u0000nul"})";
  auto r = Post("/api/logs?source_name=gotrue.logs.prod",
                R"([{"message":"good","id":"g1"},{"message":"future","timestamp":")" +
                    NowIso(7200) + R"("},5,)" + nul + "]");
  EXPECT_EQ(r.status, 406) << r.body;
  auto body = boost::json::parse(r.body).as_object();
  const auto& reasons = body.at("message").as_array();
  ASSERT_EQ(reasons.size(), 3u) << r.body;
  std::string future(reasons[0].as_string());
  EXPECT_EQ(future.rfind("event 1: timestamp ", 0), 0u) << future;
  EXPECT_NE(future.find(" is more than 1 hour after the ingest time "), std::string::npos)
      << future;
  EXPECT_EQ(reasons[1].as_string(), "event 2: not a JSON object");
  EXPECT_EQ(reasons[2].as_string(),
            "event 3: a string contains a NUL character (\\u0000), which PostgreSQL cannot store");
  EXPECT_EQ(Count("auth"), 1);
  EXPECT_EQ(Count("auth", "id = 'g1'"), 1);
  // Every event refused: nothing to write, still 406.
  r = Post("/api/logs?source_name=gotrue.logs.prod", "[1,2]");
  EXPECT_EQ(r.status, 406);
  EXPECT_EQ(r.body, R"({"message":["event 0: not a JSON object","event 1: not a JSON object"]})");
  EXPECT_NE(MetricsText().find("lqe_ingest_events_rejected_total 5\n"), std::string::npos);
}

TEST_F(IngestHttpTest, RetriedAndConcurrentBatchesWithIdsAreStoredOnce) {
  Start();
  std::string batch = "[";
  for (int i = 0; i < 50; ++i) {
    batch += std::string(i ? "," : "") + R"({"message":"r","id":"r)" + std::to_string(i) +
             R"(","timestamp":")" + NowIso(-i) + R"("})";
  }
  batch += "]";
  const std::string target = "/api/logs?source_name=cloudflare.logs.prod";
  EXPECT_EQ(Post(target, batch).status, 200);
  EXPECT_EQ(Post(target, batch).status, 200);
  EXPECT_EQ(Count("edge"), 50);
  std::string other = batch;
  for (std::size_t p = other.find("\"r"); p != std::string::npos; p = other.find("\"r", p + 2)) {
    other.replace(p, 2, "\"c");
  }
  std::vector<std::future<int>> posts;
  posts.reserve(8);
  for (int t = 0; t < 8; ++t) {
    posts.push_back(std::async(std::launch::async, [&] { return Post(target, other).status; }));
  }
  for (auto& p : posts) EXPECT_EQ(p.get(), 200);
  EXPECT_EQ(Count("edge"), 100);
  EXPECT_EQ(Count("edge", "id LIKE 'c%'"), 50);
  std::string metrics = MetricsText();
  EXPECT_NE(metrics.find("lqe_ingest_events_accepted_total 100\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("lqe_ingest_events_duplicate_total 400\n"), std::string::npos) << metrics;
}

// Two writers of one table take the same batch at once: both check for stored ids before either
// commits, so the unique index on (id, timestamp) must make the later one write again without
// the events the first committed.
TEST_F(IngestHttpTest, TwoWritersOfOneTableStoreTheSameIdsOnce) {
  Start("  writers_per_table: 2\n");
  std::string batch = "[";
  for (int i = 0; i < 40; ++i) {
    batch += std::string(i ? "," : "") + R"({"message":"w","id":"w)" + std::to_string(i) +
             R"(","timestamp":")" + NowIso(-i) + R"("})";
  }
  batch += "]";
  const std::string target = "/api/logs?source_name=cloudflare.logs.prod";
  // Hold the table until both writers wait on it, each with one copy of the batch (the second
  // is sent once the first waits, so the two cannot be grouped into one commit).
  pqxx::connection blocker(db_.dsn());
  pqxx::work lock(blocker);
  lock.exec("LOCK TABLE logs.edge IN ACCESS EXCLUSIVE MODE");
  const std::string waiting = "SELECT count(*) FROM pg_stat_activity WHERE usename = 'lqe_ingest_" +
                              db_.name() + "' AND wait_event_type = 'Lock'";
  std::vector<std::future<HttpResult>> posts;
  for (const char* writers_waiting : {"1", "2"}) {
    posts.push_back(std::async(std::launch::async, [&] { return Post(target, batch); }));
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (One(waiting) != writers_waiting) {
      if (std::chrono::steady_clock::now() > give_up) {
        lock.abort();  // lets the posts finish before the test ends
        FAIL() << "never saw " << writers_waiting << " writers wait on the table";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  lock.abort();
  for (auto& p : posts) {
    const HttpResult r = p.get();
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, kLogged);
  }
  EXPECT_EQ(Count("edge", "id LIKE 'w%'"), 40);
  const std::string metrics = MetricsText();
  EXPECT_NE(metrics.find("lqe_ingest_events_accepted_total 40\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("lqe_ingest_events_duplicate_total 40\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("lqe_ingest_batches_total 2\n"), std::string::npos) << metrics;
}

TEST_F(IngestHttpTest, FullQueueAnswers429WithRetryAfter) {
  Start("  queue_max_events: 2\n");
  // Hold the auth table so the first batch waits in the writer, counted in the queue.
  pqxx::connection blocker(db_.dsn());
  pqxx::work lock(blocker);
  lock.exec("LOCK TABLE logs.auth IN ACCESS EXCLUSIVE MODE");
  auto first = std::async(std::launch::async, [&] {
    return Post("/api/logs?source_name=gotrue.logs.prod", R"([{"message":"1"},{"message":"2"}])");
  });
  while (MetricsText().find("lqe_ingest_queue_events 2\n") == std::string::npos) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto r = Post("/api/logs?source_name=cloudflare.logs.prod", R"([{"message":"3"}])");
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.body, R"({"error":"Buffer Full: Too Many Requests"})");
  EXPECT_EQ(r.Header("retry-after"), "3");
  lock.abort();
  auto done = first.get();
  EXPECT_EQ(done.status, 200) << done.body;
  EXPECT_EQ(Count("auth"), 2);
  EXPECT_EQ(Count("edge"), 0);
  r = Post("/api/logs?source_name=cloudflare.logs.prod", R"([{"message":"3"}])");
  EXPECT_EQ(r.status, 200) << "the queue drained";
  EXPECT_NE(MetricsText().find("lqe_ingest_queue_full_total 1\n"), std::string::npos);
}

TEST_F(IngestHttpTest, DatabaseFailureIsRetryable503) {
  Start("", "no_such_role");
  auto r = Post("/api/logs?source_name=gotrue.logs.prod", R"([{"message":"x"}])");
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_EQ(r.Header("retry-after"), "1");
  EXPECT_EQ(ErrorReason(r), "unavailable");
  EXPECT_EQ(ErrorMessage(r).rfind("events not stored, try again: ", 0), 0u) << r.body;
  EXPECT_EQ(Count("auth"), 0);
}

TEST_F(IngestHttpTest, DataPostgresRefusesIsA400NotAnEndlessRetry) {
  Start();
  // 1e400 parses as infinity, which jsonb cannot hold: sending it again would fail again, so
  // the answer is not retryable (Vector drops it instead of retrying forever).
  auto r = Post("/api/logs?source_name=gotrue.logs.prod",
                R"([{"message":"inf","metadata":{"big":1e400}}])");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(ErrorReason(r), "refused_by_database");
  EXPECT_EQ(ErrorMessage(r).rfind("PostgreSQL refused these events (sending them again fails "
                                  "again): ",
                                  0),
            0u)
      << r.body;
  r = Post("/api/logs?source_name=gotrue.logs.prod", R"([{"message":"fine"}])");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count("auth"), 1);
}

TEST_F(IngestHttpTest, StoredEventsAreReadThroughLogsAll) {
  Start();
  auto r = Post(
      "/api/logs?source_name=cloudflare.logs.prod",
      R"([{"event_message":"GET /rest/v1/x 200","project":"default","id":"e1","timestamp":")" +
          NowIso(-5) +
          R"(","metadata":{"request":{"method":"GET","path":"/rest/v1/x"},"response":{"status_code":200}}}])");
  ASSERT_EQ(r.status, 200) << r.body;
  auto q = Fetch(Port(),
                 "/api/endpoints/query/logs.all?project=default&sql=" +
                     UrlEncode("select id, event_message from edge_logs"),
                 {{"x-api-key", kIngestKey}});
  ASSERT_EQ(q.status, 200) << q.body;
  EXPECT_EQ(q.body, R"({"result":[{"event_message":"GET /rest/v1/x 200","id":"e1"}]})");
}

// "2026-11-27T12:14:32.123456": Python's datetime.utcnow().isoformat(), no zone.
std::string NowIsoWithoutZone(int offset_seconds) {
  const std::string with_zone = NowIso(offset_seconds);
  return with_zone.substr(0, with_zone.size() - 1) + ".123456";
}

TEST_F(IngestHttpTest, ATimestampWithoutAZoneIsStoredAsUtc) {
  Start();
  const std::string sent = NowIsoWithoutZone(-3 * 3600);
  auto r = Post("/api/logs?source_name=gotrue.logs.prod",
                R"([{"message":"utc","id":"u1","timestamp":")" + sent +
                    R"("},)"
                    R"({"message":"space","id":"u2","timestamp":"2026-01-02 03:04:05.149 UTC"}])");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, kLogged);
  EXPECT_EQ(r.Header("x-lqe-timestamps-inferred"), "<absent>");
  // Stored at the instant sent (read as UTC), not at the ingest time, and not marked.
  EXPECT_EQ(One("SELECT to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US') "
                "FROM logs.auth WHERE id = 'u1'"),
            sent);
  EXPECT_EQ(One("SELECT timestamp = '2026-01-02 03:04:05.149+00' FROM logs.auth WHERE id = 'u2'"),
            "t");
  EXPECT_EQ(One("SELECT extra::text FROM logs.auth WHERE id = 'u1'"), "{}");
  // The edge rollup counts the event in the minute it happened.
  r = Post("/api/logs?source_name=cloudflare.logs.prod",
           R"([{"event_message":"GET","id":"e1","timestamp":"2026-01-02T03:04:05","metadata":)"
           R"({"request":{"url":"https://p.supabase.co/rest/v1/t","path":"/rest/v1/t"}}}])");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(One("SELECT sum(requests)::text || ' ' || min(timestamp)::text FROM "
                "(SELECT timestamp, requests FROM logs.edge_api_minute_delta UNION ALL "
                "SELECT timestamp, requests FROM logs.edge_api_minute) m"),
            "1 2026-01-02 03:04:00+00");
}

TEST_F(IngestHttpTest, AnUnreadableTimestampIsKeptMarkedCountedAndAnnounced) {
  Start();
  const std::string before = NowIso(-1);
  auto r = Post("/api/logs?source_name=gotrue.logs.prod",
                R"([{"message":"a","id":"i1","timestamp":"yesterday at noon","level":"info"},)"
                R"({"message":"b","id":"i2","timestamp":-5},)"
                R"({"message":"c","id":"i3","timestamp":")" +
                    NowIso() + R"("}])");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, kLogged);  // unchanged for clients that compare it
  EXPECT_EQ(r.Header("x-lqe-timestamps-inferred"), "2");
  EXPECT_EQ(
      One("SELECT extra::text FROM logs.auth WHERE id = 'i1'"),
      R"({"level": "info", "timestamp_inferred": true, "timestamp_original": "yesterday at noon"})");
  EXPECT_EQ(One("SELECT extra::text FROM logs.auth WHERE id = 'i2'"),
            R"({"timestamp_inferred": true, "timestamp_original": -5})");
  EXPECT_EQ(One("SELECT extra::text FROM logs.auth WHERE id = 'i3'"), "{}");
  EXPECT_EQ(Count("auth", "id IN ('i1', 'i2') AND timestamp >= '" + before +
                              "' AND timestamp <= now() + interval '1 second'"),
            2);
  // An edge event with an unreadable timestamp is stored and counted by the rollup at the ingest
  // minute, like one sent without a timestamp.
  r = Post("/api/logs?source_name=cloudflare.logs.prod",
           R"([{"event_message":"GET","id":"e2","timestamp":"not a time","metadata":)"
           R"({"request":{"url":"https://p.supabase.co/rest/v1/t","path":"/rest/v1/t"}}}])");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("x-lqe-timestamps-inferred"), "1");
  EXPECT_EQ(One("SELECT sum(rest_requests)::text FROM (SELECT rest_requests FROM "
                "logs.edge_api_minute_delta UNION ALL SELECT rest_requests FROM "
                "logs.edge_api_minute) m"),
            "1");
  EXPECT_EQ(Count("edge", "id = 'e2' AND extra->>'timestamp_original' = 'not a time'"), 1);
  // A partly refused batch keeps the header for the events it stored.
  r = Post("/api/logs?source_name=gotrue.logs.prod",
           R"([{"message":"d","timestamp":"soon"},{"message":"e","timestamp":")" + NowIso(7200) +
               R"("}])");
  EXPECT_EQ(r.status, 406) << r.body;
  EXPECT_EQ(r.Header("x-lqe-timestamps-inferred"), "1");
  const std::string metrics = MetricsText();
  EXPECT_NE(metrics.find("lqe_ingest_timestamps_inferred_total{source=\"gotrue.logs.prod\"} 3\n"),
            std::string::npos)
      << metrics;
  EXPECT_NE(
      metrics.find("lqe_ingest_timestamps_inferred_total{source=\"cloudflare.logs.prod\"} 1\n"),
      std::string::npos)
      << metrics;
}

// The edge rollup's delta (005_edge_rollup.sql) is folded into logs.edge_api_minute by the gateway:
// here only the event count can wake the compactor (its interval is an hour), and the chart
// read through the gateway counts every event before and after.
TEST_F(IngestHttpTest, CompactorFoldsTheEdgeRollupDeltaAfterEnoughEvents) {
  Start("  compact_interval_ms: 3600000\n  compact_after_events: 30\n");
  auto post = [&](const std::string& tag) {
    std::string batch = "[";
    for (int i = 0; i < 20; ++i) {
      batch +=
          std::string(i ? "," : "") + R"({"event_message":"GET","id":")" + tag + std::to_string(i) +
          R"(","timestamp":")" + NowIso(-120 - i) +
          R"(","metadata":{"request":{"url":"https://proj1.supabase.co/auth/v1/x","path":"/auth/v1/x"}}})";
    }
    const HttpResult r = Post("/api/logs?source_name=cloudflare.logs.prod", batch + "]");
    EXPECT_EQ(r.status, 200) << r.body;
  };
  // The chart's auth requests over its buckets (each interval once: answers are cached).
  auto chart_auth = [&](const std::string& interval) {
    const HttpResult q =
        Fetch(Port(), "/api/endpoints/query/usage.api-counts?project=proj1&interval=" + interval,
              {{"x-api-key", kIngestKey}});
    EXPECT_EQ(q.status, 200) << q.body;
    std::int64_t sum = 0;
    const boost::json::value body = boost::json::parse(q.body);
    for (const auto& row : body.at("result").as_array()) {
      const auto& value = row.at("total_auth_requests");
      sum += value.is_string() ? std::stoll(std::string(value.as_string()))
                               : value.to_number<std::int64_t>();
    }
    return sum;
  };
  post("a");  // 20 events: below compact_after_events
  EXPECT_EQ(Count("edge_api_minute"), 0);
  EXPECT_GT(Count("edge_api_minute_delta"), 0);
  EXPECT_EQ(chart_auth("1day"), 20);
  post("b");  // 40: the compactor wakes
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (Count("edge_api_minute_delta") > 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(Count("edge_api_minute_delta"), 0);
  EXPECT_EQ(One("SELECT sum(requests) FROM logs.edge_api_minute"), "40");
  EXPECT_EQ(chart_auth("7day"), 40);
  const std::string metrics = MetricsText();
  EXPECT_NE(metrics.find("lqe_rollup_compactions_total 1\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("lqe_rollup_compaction_failures_total 0\n"), std::string::npos) << metrics;
  EXPECT_EQ(metrics.find("lqe_rollup_delta_rows_compacted_total 0\n"), std::string::npos)
      << metrics;
}

}  // namespace
}  // namespace lqe::gateway
