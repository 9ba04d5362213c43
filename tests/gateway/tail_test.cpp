// The live tail through real sockets and real PostgreSQL: events posted over HTTP appear on a
// tail (latency measured), LQL filters hold, the open-tail caps answer 429, a slow reader gets
// `dropped` counts while the buffered bytes stay under the cap, heartbeats, the replay of
// `since`, NDJSON, and shutdown ending the stream with its last chunk.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <chrono>
#include <regex>
#include <thread>

#include "config_server.h"
#include "server_fixture.h"
#include "tail_client.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only
namespace json = boost::json;

constexpr const char* kKey = "tail-key";
constexpr const char* kOtherKey = "tail-key-2";
constexpr const char* kIngestOnlyKey = "ingest-only";

class TailTest : public ConfigServerTest {
 protected:
  TailTest() : ConfigServerTest("tail", kKey) {}

  void Start(const std::string& tail_yaml = "") {
    Serve(ServerYaml(db_.dsn()) + "io_threads: 2\n" + CatalogueYaml() +
          "ingest:\n  max_body_bytes: 8388608\n" + tail_yaml +
          "sources:\n"
          "  - {name: cloudflare.logs.prod, table: edge}\n"
          "  - {name: gotrue.logs.prod, table: auth}\n"
          "api_keys:\n" +
          ApiKeyYaml("reader", kKey, "['*']", "['*']") +
          ApiKeyYaml("reader2", kOtherKey, "['*']", "['*']") +
          ApiKeyYaml("shipper", kIngestOnlyKey, "[]", "['*']") + ShippedEndpointsYaml());
  }

  HttpResult Post(const std::string& body, const std::string& source = "cloudflare.logs.prod") {
    return PostEvents(source, body);
  }

  std::unique_ptr<TailClient> Tail(const std::string& query, const std::string& key = kKey,
                                   const std::string& extra_headers = "", int rcvbuf = 0) {
    return std::make_unique<TailClient>(Port(), "/api/logs/tail?" + query,
                                        "X-API-Key: " + key + "\r\n" + extra_headers, rcvbuf);
  }

  // The value of a metric line "name value" in /metrics.
  double Metric(const std::string& name) {
    std::string text = MetricsText();
    std::smatch m;
    if (!std::regex_search(text, m, std::regex("\n" + name + " ([0-9.e+-]+)\n"))) return -1;
    return std::stod(m[1]);
  }

  // The event_message of each event message until `count` events (or a timeout).
  std::vector<std::string> Messages(TailClient& tail, std::size_t count, int timeout_ms = 5000) {
    std::vector<std::string> out;
    while (out.size() < count) {
      auto m = tail.Next(timeout_ms);
      if (!m) break;
      if (m->type != "event") continue;
      out.emplace_back(json::parse(m->data).at("event_message").as_string().c_str());
    }
    return out;
  }
};

TEST_F(TailTest, AnEventPostedOverHttpAppearsOnTheTailWithinASecond) {
  Start();
  auto tail = Tail("source=cloudflare.logs.prod");
  ASSERT_EQ(tail->Status(), 200) << tail->Rest();
  EXPECT_NE(tail->head().find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_NE(tail->head().find("Transfer-Encoding: chunked"), std::string::npos);
  std::vector<double> ms;
  for (int i = 0; i < 200; ++i) {
    auto sent = std::chrono::steady_clock::now();
    std::string message = "latency " + std::to_string(i);
    auto r =
        Post(R"([{"message":")" + message + R"(","metadata":{"i":)" + std::to_string(i) + "}}]");
    ASSERT_EQ(r.status, 200) << r.body;
    auto got = Messages(*tail, 1);
    ASSERT_EQ(got, std::vector<std::string>{message});
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count());
  }
  std::sort(ms.begin(), ms.end());
  double p50 = ms[ms.size() / 2], p99 = ms[ms.size() * 99 / 100];
  std::printf("tail latency over %zu events (POST sent to event read): p50 %.2f ms, p99 %.2f ms\n",
              ms.size(), p50, p99);
  EXPECT_LT(p99, 1000);
}

TEST_F(TailTest, LqlFiltersHoldOnTheTail) {
  Start();
  auto tail = Tail("source=cloudflare.logs.prod&lql=" +
                   std::string("m.level:error%20m.status:%3E%3D500%20-%22noise%22"));
  ASSERT_EQ(tail->Status(), 200) << tail->Rest();
  auto auth_tail = Tail("source=gotrue.logs.prod&lql=%7Elogin");
  ASSERT_EQ(auth_tail->Status(), 200) << auth_tail->Rest();
  auto r = Post(R"([
    {"message":"keep 1","metadata":{"level":"error","status":503}},
    {"message":"wrong level","metadata":{"level":"info","status":503}},
    {"message":"low status","metadata":{"level":"error","status":404}},
    {"message":"noise here","metadata":{"level":"error","status":500}},
    {"message":"no status","metadata":{"level":"error"}},
    {"message":"keep 2","metadata":{"level":"error","status":500}}])");
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(
      Post(R"([{"message":"user login ok"},{"message":"logout"}])", "gotrue.logs.prod").status,
      200);
  EXPECT_EQ(Messages(*tail, 2), (std::vector<std::string>{"keep 1", "keep 2"}));
  EXPECT_EQ(Messages(*auth_tail, 1), std::vector<std::string>{"user login ok"});
  // Nothing else matched: the next message is a heartbeat or nothing, never an event.
  auto next = tail->Next(300);
  EXPECT_TRUE(!next || next->type != "event") << next->data;
  // A repeated record (an array of objects) matches when one element does; timestamps filter.
  auto nested = Tail("source=cloudflare.logs.prod&lql=m.request.method:POST%20t:%3E2020-01-01");
  ASSERT_EQ(nested->Status(), 200);
  ASSERT_EQ(Post(R"([{"message":"get","metadata":{"request":[{"method":"GET"}]}},
                     {"message":"post","metadata":{"request":[{"method":"GET"},{"method":"POST"}]}}])")
                .status,
            200);
  EXPECT_EQ(Messages(*nested, 1), std::vector<std::string>{"post"});
}

TEST_F(TailTest, NdjsonWhenAskedAndReplayOfSinceWithoutDuplicates) {
  Start();
  ASSERT_EQ(Post(R"([{"message":"before 1","metadata":{"level":"error"}},
                     {"message":"before 2","metadata":{"level":"info"}}])")
                .status,
            200);
  auto tail = Tail("source=cloudflare.logs.prod&since=15m&lql=m.level:error", kKey,
                   "Accept: application/x-ndjson\r\n");
  ASSERT_EQ(tail->Status(), 200) << tail->Rest();
  EXPECT_NE(tail->head().find("Content-Type: application/x-ndjson"), std::string::npos);
  ASSERT_EQ(Post(R"([{"message":"after","metadata":{"level":"error"}}])").status, 200);
  EXPECT_EQ(Messages(*tail, 2), (std::vector<std::string>{"before 1", "after"}));
  auto next = tail->Next(300);
  EXPECT_TRUE(!next || next->type != "event") << next->data;
}

TEST_F(TailTest, BadRequestsAreRefusedWithClearErrors) {
  Start();
  struct Case {
    std::string query, key;
    int status;
    std::string fragment;
  };
  std::vector<Case> cases = {
      {"source=cloudflare.logs.prod", "", 401, "missing API key"},
      {"source=cloudflare.logs.prod", "wrong", 401, "invalid API key"},
      {"source=cloudflare.logs.prod", kIngestOnlyKey, 403, "may not read log events"},
      {"lql=x", kKey, 400, "missing parameter source"},
      {"source=nope", kKey, 404, "no source named nope"},
      {"source=cloudflare.logs.prod&since=5x", kKey, 400, "since must be a duration"},
      {"source=cloudflare.logs.prod&limit=3", kKey, 400, "unknown parameter limit"},
      {"source=cloudflare.logs.prod&lql=s:id", kKey, 400, "only filters apply"},
      {"source=cloudflare.logs.prod&lql=m.a:%3E", kKey, 400, "missing value"},
      {"source=cloudflare.logs.prod&lql=%7E%22(%22", kKey, 400, "invalid regular expression"},
      {"source=cloudflare.logs.prod&lql=t:%3Eyesterday", kKey, 400, "cannot be compared"},
  };
  for (const auto& c : cases) {
    std::map<std::string, std::string> headers;
    if (!c.key.empty()) headers["x-api-key"] = c.key;
    auto r = Fetch(Port(), "/api/logs/tail?" + c.query, headers);
    EXPECT_EQ(r.status, c.status) << c.query << ": " << r.body;
    EXPECT_NE(ErrorMessage(r).find(c.fragment), std::string::npos) << c.query << ": " << r.body;
  }
  auto r = Fetch(Port(), "/api/logs/tail?source=cloudflare.logs.prod&lql=m.a:%3E",
                 {{"x-api-key", kKey}});
  EXPECT_NE(r.body.find("\"parameter\":\"lql\""), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("\"column\""), std::string::npos) << r.body;
}

TEST_F(TailTest, CapsOnOpenTailsAnswer429) {
  Start("tail:\n  max_open: 3\n  max_per_key: 2\n");
  auto a1 = Tail("source=cloudflare.logs.prod");
  auto a2 = Tail("source=gotrue.logs.prod");
  ASSERT_EQ(a1->Status(), 200);
  ASSERT_EQ(a2->Status(), 200);
  auto a3 = Tail("source=cloudflare.logs.prod");
  EXPECT_EQ(a3->Status(), 429);
  EXPECT_NE(a3->Rest().find("too_many_tails_for_key"), std::string::npos);
  auto b1 = Tail("source=cloudflare.logs.prod", kOtherKey);
  EXPECT_EQ(b1->Status(), 200);
  auto b2 = Tail("source=cloudflare.logs.prod", kOtherKey);
  EXPECT_EQ(b2->Status(), 429);
  EXPECT_NE(b2->head().find("Retry-After"), std::string::npos);
  EXPECT_NE(b2->Rest().find("\"too_many_tails\""), std::string::npos);
  EXPECT_EQ(Metric("lqe_tail_open"), 3);
  // A client that leaves gives its slot back at once.
  a1->Close();
  int status = 0;
  for (int i = 0; i < 50 && status != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto again = Tail("source=cloudflare.logs.prod");
    status = again->Status();
    if (status == 200) a1 = std::move(again);
  }
  EXPECT_EQ(status, 200);
  EXPECT_GE(Metric("lqe_tail_refused_total"), 2);
}

TEST_F(TailTest, ASlowReaderGetsDroppedCountsAndTheBufferStaysBounded) {
  // The client reads nothing until every batch is posted: a write may wait that long.
  Start("tail:\n  buffer_events: 50\n  buffer_bytes: 1048576\nhttp:\n  write_timeout_ms: 300000\n");
  auto slow = Tail("source=cloudflare.logs.prod", kKey, "", 4096);
  ASSERT_EQ(slow->Status(), 200);
  const std::string padding(1000, 'x');
  const int batches = 40, per_batch = 500;
  double max_buffered = 0;
  for (int b = 0; b < batches; ++b) {
    std::string body = "[";
    for (int i = 0; i < per_batch; ++i) {
      if (i > 0) body += ",";
      body += R"({"message":"slow )" + std::to_string(b * per_batch + i) + " " + padding + "\"}";
    }
    body += "]";
    ASSERT_EQ(Post(body).status, 200);
    max_buffered = std::max(max_buffered, Metric("lqe_tail_buffered_bytes"));
  }
  // 50 events of about 1.1 KB at most wait in the gateway, whatever the client does.
  EXPECT_LE(max_buffered, 50 * 1200);
  std::uint64_t events = 0, dropped = 0;
  const auto posted = static_cast<std::uint64_t>(batches) * static_cast<std::uint64_t>(per_batch);
  while (events + dropped < posted) {
    auto m = slow->Next(5000);
    if (!m) break;
    if (m->type == "event") ++events;
    if (m->type == "dropped") dropped += json::parse(m->data).at("dropped").as_int64();
  }
  std::printf("slow reader: %llu events delivered, %llu dropped (reported), max buffered %.0f B\n",
              static_cast<unsigned long long>(events), static_cast<unsigned long long>(dropped),
              max_buffered);
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(events + dropped, posted);
  EXPECT_EQ(Metric("lqe_tail_events_dropped_total"), static_cast<double>(dropped));
}

TEST_F(TailTest, HeartbeatsWhileIdleAndShutdownEndsTheStream) {
  Start("tail:\n  heartbeat_ms: 100\n");
  auto tail = Tail("source=cloudflare.logs.prod");
  ASSERT_EQ(tail->Status(), 200);
  auto beat = tail->Next(2000);
  ASSERT_TRUE(beat.has_value());
  EXPECT_EQ(beat->type, "heartbeat");
  auto ndjson = Tail("source=cloudflare.logs.prod", kKey, "Accept: application/x-ndjson\r\n");
  ASSERT_EQ(ndjson->Status(), 200);
  auto started = std::chrono::steady_clock::now();
  std::thread stopper([this] { Stop(); });
  std::optional<TailMessage> last;
  while (auto m = tail->Next(5000)) last = m;
  stopper.join();
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->type, "end");
  EXPECT_EQ(last->data, R"({"reason":"shutdown"})");
  EXPECT_TRUE(tail->LastChunkSeen());
  std::optional<TailMessage> ndjson_last;
  while (auto m = ndjson->Next(5000)) ndjson_last = m;
  ASSERT_TRUE(ndjson_last.has_value());
  EXPECT_EQ(ndjson_last->type, "end");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
}

}  // namespace
}  // namespace lqe::gateway
