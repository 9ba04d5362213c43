// What self-hosted Supabase's Vector http sink sends, replayed against `lqe serve`: one ~10 MB
// gzip-compressed JSON array of Kong access events (no ids, as Vector sends them) to
// `/api/logs?source_name=cloudflare.logs.prod` with `x-api-key`; every event must be stored
// once and be visible through logs.all as soon as the 200 arrives, with no type conflict. A
// batch, posted again (Vector retries on 429/5xx and timeouts) and twice at once, is stored once,
// with or without ids in its events.
#include <gtest/gtest.h>

#include <cstdio>
#include <future>
#include <pqxx/pqxx>

#include "http/gzip.h"
#include "ingest_server.h"

namespace lqe::ingest_clients {
namespace {

constexpr std::size_t kVectorBatchBytes = 10'000'000;  // Vector's batch.max_bytes

// A Kong access line as Vector's kong transform ships it; `i` makes path and time unique.
std::string KongEvent(int i, const std::string& id) {
  char stamp[64];
  std::snprintf(stamp, sizeof(stamp), "2026-01-15T11:00:%02d.%06d123Z", i / 1'000'000 % 60,
                i % 1'000'000);
  const std::string path = "/rest/v1/replay-" + std::to_string(i) + "?select=*";
  std::string event = "{";
  if (!id.empty()) event += R"("id":")" + id + R"(",)";
  event += R"("timestamp":")" + std::string(stamp) +
           R"(","event_message":"172.18.0.1 - - [15/Jan/2026:11:00:00 +0000] \"GET )" + path +
           R"( HTTP/1.1\" 200 53 \"http://localhost:3000/\" \"Mozilla/5.0 (X11; Linux x86_64) )"
           R"(AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36\"",)"
           R"("appname":"supabase-kong","project":"default","metadata":{"request":{)"
           R"("method":"GET","path":")" +
           path +
           R"(","protocol":"HTTP/1.1","headers":{"referer":"http://localhost:3000/",)"
           R"("user_agent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like )"
           R"(Gecko) Chrome/120.0 Safari/537.36","cf_connecting_ip":"172.18.0.1"}},)"
           R"("response":{"status_code":)" +
           std::to_string(i % 50 == 0 ? 500 : 200) + "}}}";
  return event;
}

// A JSON array of Kong events from `first` on, as large as fits in `max_bytes`.
std::string KongBatch(int first, std::size_t max_bytes, bool with_ids, int* events) {
  std::string body = "[";
  *events = 0;
  for (int i = first;; ++i) {
    const std::string event = KongEvent(i, with_ids ? "vector-" + std::to_string(i) : "");
    if (body.size() + event.size() + 2 > max_bytes) break;
    if (*events > 0) body += ",";
    body += event;
    ++*events;
  }
  return body + "]";
}

class VectorReplayTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(server_.Up()) << server_.Log(); }

  std::int64_t Scalar(const std::string& sql) {
    pqxx::connection conn(db_.dsn());
    pqxx::nontransaction tx(conn);
    return tx.exec1(sql)[0].as<std::int64_t>();
  }
  std::int64_t LogsAllCount(const std::string& where) {
    const boost::json::array rows = server_.LogsAll(
        "select count(*) as n, count(distinct request.path) as paths from edge_logs "
        "cross join unnest(metadata) as m cross join unnest(m.request) as request "
        "cross join unnest(m.response) as response where " +
        where);
    if (rows.size() != 1) return -1;
    const auto& row = rows[0].as_object();
    EXPECT_EQ(row.at("n"), row.at("paths")) << "an event is stored twice";
    return row.at("n").to_number<std::int64_t>();
  }
  HttpResult PostAsVector(const std::string& body) {
    return server_.Post("/api/logs?source_name=cloudflare.logs.prod", gateway::Gzip(body, 1),
                        {{"Content-Encoding", "gzip"}});
  }

  // Posts `body`, then posts it again as Vector retries a batch whose answer it did not see,
  // then twice at once; every post must be answered 200.
  void PostRetriedThenTwiceAtOnce(const std::string& body) {
    const HttpResult first = PostAsVector(body);
    ASSERT_EQ(first.status, 200) << first.body << first.error << "\n" << server_.Log();
    const HttpResult retry = PostAsVector(body);
    EXPECT_EQ(retry.status, 200) << retry.body << retry.error;
    auto a = std::async(std::launch::async, [&] { return PostAsVector(body); });
    auto b = std::async(std::launch::async, [&] { return PostAsVector(body); });
    const HttpResult ra = a.get();
    const HttpResult rb = b.get();
    EXPECT_EQ(ra.status, 200) << ra.body << ra.error;
    EXPECT_EQ(rb.status, 200) << rb.body << rb.error;
    EXPECT_EQ(rb.body, R"({"message":"Logged!"})");
  }

  lqe::testing::TestDatabase db_{"vector"};
  IngestServer server_{db_};
};

TEST_F(VectorReplayTest, TenMegabyteGzipBatchLandsWhole) {
  int events = 0;
  const std::string body = KongBatch(0, kVectorBatchBytes, false, &events);
  ASSERT_GT(body.size(), kVectorBatchBytes - 2'000);
  ASSERT_GT(events, 10'000);

  const HttpResult r = PostAsVector(body);
  ASSERT_EQ(r.status, 200) << r.body << r.error << "\n" << server_.Log();
  EXPECT_EQ(r.body, R"({"message":"Logged!"})");

  // Visible as soon as the 200 arrived: no wait before reading.
  EXPECT_EQ(LogsAllCount("starts_with(request.path, '/rest/v1/replay-')"), events);
  EXPECT_EQ(LogsAllCount("response.status_code >= 500"), (events + 49) / 50);
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), events);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT id) FROM logs.edge"), events);
  // 0 rejected for types: nothing disagreed with the catalogue.
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.catalogue_conflicts"), 0);
  // appname is kept (as a top-level key of the event) and catalogued.
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge WHERE extra->>'appname' = 'supabase-kong'"),
            events);
}

TEST_F(VectorReplayTest, RetriedAndConcurrentBatchesWithIdsAreStoredOnce) {
  int events = 0;
  const std::string body = KongBatch(0, 1'000'000, true, &events);
  ASSERT_GT(events, 1'000);
  ASSERT_NO_FATAL_FAILURE(PostRetriedThenTwiceAtOnce(body));

  EXPECT_EQ(LogsAllCount("true"), events);
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), events);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT id) FROM logs.edge"), events);
}

TEST_F(VectorReplayTest, RetriedAndConcurrentBatchesWithoutIdsAreStoredOnce) {
  int events = 0;
  const std::string body = KongBatch(0, 1'000'000, false, &events);
  ASSERT_GT(events, 1'000);
  ASSERT_NO_FATAL_FAILURE(PostRetriedThenTwiceAtOnce(body));
  EXPECT_EQ(LogsAllCount("true"), events);
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), events);

  // Another batch holding the same events is a new delivery: stored again, as sent.
  const std::string other =
      "[" + body.substr(1, body.size() - 2) + "," + body.substr(1, body.size() - 2) + "]";
  const HttpResult twice = PostAsVector(other);
  ASSERT_EQ(twice.status, 200) << twice.body << twice.error;
  EXPECT_EQ(Scalar("SELECT count(*) FROM logs.edge"), 3 * events);
}

}  // namespace
}  // namespace lqe::ingest_clients
