// Two gateways on one database: an event posted to gateway B appears on a tail opened on
// gateway A (B's commit announcement, read back by A), and a gateway's own events reach its
// tails once, not a second time through the announcement.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <chrono>
#include <pqxx/pqxx>
#include <thread>

#include "http_client.h"
#include "lqe/gateway/ingest.h"
#include "lqe/gateway/server.h"
#include "lqe/schema/migrate.h"
#include "server_fixture.h"
#include "support.h"
#include "support/test_database.h"
#include "tail_client.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only
namespace json = boost::json;

constexpr const char* kKey = "cross-key";

struct Gateway {
  std::unique_ptr<Server> server;
  std::thread thread;
  ~Gateway() {
    if (server) {
      server->Stop();
      thread.join();
    }
  }
};

class CrossGatewayTailTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pqxx::connection conn(db_.dsn());
    schema::MigrateOptions options;
    options.partition_days_back = 1;
    schema::Migrate(conn, options);
    const std::string config =
        "listen: 127.0.0.1:0\naccess_log: false\nio_threads: 2\n"
        "database:\n  dsn: " +
        db_.dsn() + "\n  pool_size: 2\ncatalogue_file: " +
        lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
        "\nsources:\n  - {name: cloudflare.logs.prod, table: edge}\n"
        "api_keys:\n  - {name: reader, sha256: " +
        Sha256Hex(kKey) + ", endpoints: ['*'], ingest: ['*']}\n" +
        "endpoints_dir: " + lqe::testing::SourcePath("sql") + "\n" + extra_config_;
    config_path_ = dir_.Write("gw.yaml", config);
    for (Gateway* g : {&a_, &b_}) {
      std::string error;
      auto state = BuildState(config_path_, metrics_.get(), &error);
      ASSERT_NE(state, nullptr) << error;
      g->server = std::make_unique<Server>(config_path_, state, std::make_shared<Metrics>());
      ASSERT_EQ(g->server->Bind(), "");
      g->thread = std::thread([g] { g->server->Run(false); });
    }
  }

  HttpResult Post(Gateway& g, const std::string& body) {
    return Fetch(g.server->port(), "/api/logs?source_name=cloudflare.logs.prod",
                 {{"x-api-key", kKey}, {"Content-Type", "application/json"}}, "POST", body);
  }

  std::unique_ptr<TailClient> Tail(Gateway& g, const std::string& query) {
    return std::make_unique<TailClient>(g.server->port(), "/api/logs/tail?" + query,
                                        std::string("X-API-Key: ") + kKey + "\r\n");
  }

  // The event_message of every event that arrives within `ms`.
  static std::vector<std::string> Drain(TailClient& tail, int ms) {
    std::vector<std::string> out;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            until - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0) break;
      auto m = tail.Next(static_cast<int>(left));
      if (!m) break;
      if (m->type == "event") {
        out.emplace_back(json::parse(m->data).at("event_message").as_string().c_str());
      }
    }
    return out;
  }

  lqe::testing::TestDatabase db_{"crosstail"};
  std::string extra_config_;
  TempDir dir_;
  std::string config_path_;
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
  Gateway a_, b_;
};

TEST_F(CrossGatewayTailTest, AnEventPostedToOneGatewayAppearsOnAnothersTail) {
  auto tail = Tail(a_, "source=cloudflare.logs.prod&lql=m.level:error");
  ASSERT_EQ(tail->Status(), 200) << tail->Rest();
  // The feeds LISTEN from a moment after the servers start: post until one event arrives.
  bool up = false;
  for (int i = 0; i < 50 && !up; ++i) {
    ASSERT_EQ(Post(b_, R"([{"message":"warm up","metadata":{"level":"error"}}])").status, 200);
    up = !Drain(*tail, 100).empty();
  }
  ASSERT_TRUE(up) << "no event of gateway B reached gateway A's tail";
  Drain(*tail, 300);  // late copies of the warm-up
  std::vector<double> ms;
  for (int i = 0; i < 20; ++i) {
    const std::string message = "from b " + std::to_string(i);
    const auto sent = std::chrono::steady_clock::now();
    ASSERT_EQ(Post(b_, R"([{"message":")" + message + R"(","metadata":{"level":"error"}},
                         {"message":"filtered out","metadata":{"level":"info"}}])")
                  .status,
              200);
    std::vector<std::string> got;
    while (got.empty() && std::chrono::steady_clock::now() - sent < std::chrono::seconds(2)) {
      got = Drain(*tail, 100);
    }
    ASSERT_EQ(got, std::vector<std::string>{message}) << "event " << i;
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("cross-gateway tail latency over %zu events: p50 %.1f ms, max %.1f ms\n", ms.size(),
              ms[ms.size() / 2], ms.back());
  EXPECT_LT(ms.back(), 2000);
}

TEST_F(CrossGatewayTailTest, EachGatewaysOwnEventsArriveOnce) {
  auto on_a = Tail(a_, "source=cloudflare.logs.prod");
  auto on_b = Tail(b_, "source=cloudflare.logs.prod");
  ASSERT_EQ(on_a->Status(), 200);
  ASSERT_EQ(on_b->Status(), 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // both feeds listening
  ASSERT_EQ(Post(a_, R"([{"message":"a1"},{"message":"a2"}])").status, 200);
  ASSERT_EQ(Post(b_, R"([{"message":"b1"}])").status, 200);
  std::vector<std::string> got_a = Drain(*on_a, 1500);
  std::vector<std::string> got_b = Drain(*on_b, 1500);
  std::sort(got_a.begin(), got_a.end());
  std::sort(got_b.begin(), got_b.end());
  const std::vector<std::string> all = {"a1", "a2", "b1"};
  EXPECT_EQ(got_a, all);
  EXPECT_EQ(got_b, all);
}

// tail.across_gateways: false: nothing is announced, and each gateway's tails show only its own
// ingest.
class SingleGatewayTailTest : public CrossGatewayTailTest {
 protected:
  void SetUp() override {
    extra_config_ = "tail:\n  across_gateways: false\n";
    CrossGatewayTailTest::SetUp();
  }
};

class Announcements : public pqxx::notification_receiver {
 public:
  explicit Announcements(pqxx::connection_base& conn)
      : pqxx::notification_receiver(conn, IngestService::kCommitChannel) {}
  void operator()(const std::string& /*payload*/, int /*backend_pid*/) override { ++count; }
  int count = 0;
};

TEST_F(SingleGatewayTailTest, NothingIsAnnouncedAndTailsShowTheirOwnGatewaysEvents) {
  pqxx::connection listener(db_.dsn());
  Announcements announcements(listener);
  auto on_a = Tail(a_, "source=cloudflare.logs.prod");
  auto on_b = Tail(b_, "source=cloudflare.logs.prod");
  ASSERT_EQ(on_a->Status(), 200);
  ASSERT_EQ(on_b->Status(), 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(Post(a_, R"([{"message":"a1"}])").status, 200);
  ASSERT_EQ(Post(b_, R"([{"message":"b1"}])").status, 200);
  EXPECT_EQ(Drain(*on_a, 1000), std::vector<std::string>{"a1"});
  EXPECT_EQ(Drain(*on_b, 300), std::vector<std::string>{"b1"});
  listener.await_notification(0, 300000);
  listener.get_notifs();
  EXPECT_EQ(announcements.count, 0);

  // The listener hears the channel: the silence above is the gateways'.
  pqxx::work tx(listener);
  tx.exec("SELECT pg_notify('" + std::string(IngestService::kCommitChannel) + "', 'x')");
  tx.commit();
  listener.await_notification(2, 0);
  EXPECT_EQ(announcements.count, 1);
}

}  // namespace
}  // namespace lqe::gateway
