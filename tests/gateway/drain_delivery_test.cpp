// Log drains of real `lqe serve` processes on a real PostgreSQL, delivering to real HTTP
// receivers: every matching event arrives, in order per source, through a receiver outage and a
// gateway killed mid-delivery; each type's wire format (webhook, Loki, Datadog, OTLP protobuf);
// a receiver that refuses is marked failing and not hammered; secrets are masked.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <map>
#include <pqxx/pqxx>
#include <set>
#include <thread>

#include "drain_receiver.h"
#include "env_gateway.h"
#include "http_client.h"
#include "lqe/otlp/logs_service.pb.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using testing::DrainReceiver;
using testing::EnvGateway;
using testing::Fetch;
using testing::HttpResult;
using testing::Received;

constexpr const char* kPrivate = "private-token-for-drains";
constexpr const char* kPublic = "public-token-for-drains";

class DrainDeliveryTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> Vars() const {
    return testing::StackEnvironment(db_.dsn(), kPublic, kPrivate);
  }
  static HttpResult Api(const EnvGateway& g, const std::string& method, const std::string& target,
                        const std::string& body = "") {
    return Fetch(g.Port(), target,
                 {{"authorization", std::string("Bearer ") + kPrivate},
                  {"content-type", "application/json"}},
                 method, body);
  }
  // A backend of `type` with one rule per (source name, LQL); its JSON.
  static json::object Drain(const EnvGateway& g, const std::string& type, const std::string& config,
                            const std::vector<std::pair<std::string, std::string>>& rules) {
    auto r = Api(g, "POST", "/api/backends",
                 R"({"name":"drain","type":")" + type + R"(","config":)" + config +
                     R"(,"metadata":{"type":"log-drain"}})");
    EXPECT_EQ(r.status, 201) << r.body;
    json::object backend = json::parse(r.body).as_object();
    auto sources = json::parse(Api(g, "GET", "/api/sources").body).as_array();
    for (const auto& [source, lql] : rules) {
      for (const auto& s : sources) {
        if (s.at("name") != source.c_str()) continue;
        json::object rule{
            {"backend_id", backend.at("id")}, {"source_id", s.at("id")}, {"lql_string", lql}};
        auto made = Api(g, "POST", "/api/rules", json::serialize(rule));
        EXPECT_EQ(made.status, 201) << made.body;
      }
    }
    return backend;
  }
  // Events e<from>..e<to-1> of `source`, one POST, as a shipper sends them.
  static void Ingest(const EnvGateway& g, const std::string& source, int from, int to,
                     const std::string& level = "info") {
    json::array batch;
    for (int i = from; i < to; ++i) {
      batch.emplace_back(json::object{{"id", source.substr(0, 4) + "-" + std::to_string(1000 + i)},
                                      {"timestamp", 1767225600000000LL + i * 1000LL},
                                      {"event_message", "event " + std::to_string(i)},
                                      {"metadata", json::object{{"level", level}, {"n", i}}}});
    }
    auto r = Fetch(g.Port(), "/api/logs?source_name=" + source,
                   {{"x-api-key", kPublic}, {"content-type", "application/json"}}, "POST",
                   json::serialize(json::object{{"batch", batch}}));
    ASSERT_EQ(r.status, 200) << r.body;
  }
  static json::object Delivery(const EnvGateway& g, const json::object& backend) {
    auto r = Api(g, "GET", "/api/backends/" + std::string(backend.at("token").as_string()));
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body).at("delivery").as_object();
  }

  lqe::testing::TestDatabase db_{"drains"};
  testing::TempDir dir_;
};

// The ids a webhook receiver got, in arrival order, and the batch ids each came in.
struct WebhookLog {
  std::vector<std::string> ids;
  std::map<std::string, std::set<std::string>> batches_of;
};

WebhookLog ReadWebhook(const std::vector<Received>& requests) {
  WebhookLog log;
  for (const Received& r : requests) {
    std::error_code ec;
    json::value body = json::parse(r.body, ec);
    if (ec || !body.is_array()) continue;
    for (const auto& e : body.as_array()) {
      std::string id(e.at("id").as_string());
      log.batches_of[id].insert(r.headers.count("x-lqe-batch-id") ? r.headers.at("x-lqe-batch-id")
                                                                  : "");
      log.ids.push_back(std::move(id));
    }
  }
  return log;
}

std::size_t DistinctIds(const std::vector<Received>& requests) {
  return ReadWebhook(requests).batches_of.size();
}

TEST_F(DrainDeliveryTest, WebhookGetsEveryMatchingEventInOrderThroughAnOutage) {
  EnvGateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  DrainReceiver receiver;
  const json::object backend =
      Drain(g, "webhook",
            R"({"url":")" + receiver.Url() +
                R"(","gzip":true,"headers":{"Authorization":"Bearer receiver-secret"}})",
            {{"cloudflare.logs.prod", R"(~".*?")"}, {"postgres.logs", "m.level:error"}});

  Ingest(g, "cloudflare.logs.prod", 0, 10);
  Ingest(g, "postgres.logs", 0, 2, "info");
  Ingest(g, "cloudflare.logs.prod", 10, 20);
  Ingest(g, "postgres.logs", 2, 4, "error");
  ASSERT_TRUE(receiver.WaitFor([](const auto& r) { return DistinctIds(r) >= 22; }, 30s))
      << DistinctIds(receiver.Requests()) << " of 22\n"
      << g.Log();

  // The receiver goes away; what is written meanwhile waits, retried, and nothing is lost.
  receiver.Stop();
  Ingest(g, "cloudflare.logs.prod", 20, 30);
  json::object state;
  for (int i = 0; i < 200; ++i) {  // the first failed attempt, however loaded the machine
    state = Delivery(g, backend);
    if (state.at("status") == "retrying") break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(state.at("status"), "retrying") << json::serialize(state);
  EXPECT_GE(state.at("failed_batches").as_int64(), 1);
  EXPECT_FALSE(state.at("last_error").is_null());
  receiver.Start();
  ASSERT_TRUE(receiver.WaitFor([](const auto& r) { return DistinctIds(r) >= 32; }, 60s))
      << DistinctIds(receiver.Requests()) << " of 32\n"
      << g.Log();

  const WebhookLog log = ReadWebhook(receiver.Requests());
  std::vector<std::string> edge;
  std::vector<std::string> postgres;
  for (const std::string& id : log.ids) {
    if (std::find(edge.begin(), edge.end(), id) != edge.end() ||
        std::find(postgres.begin(), postgres.end(), id) != postgres.end()) {
      continue;
    }
    (id.rfind("clou", 0) == 0 ? edge : postgres).push_back(id);
  }
  ASSERT_EQ(edge.size(), 30U);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(edge[i], "clou-" + std::to_string(1000 + i));
  // Only the rule's matches: the two error events.
  EXPECT_EQ(postgres, (std::vector<std::string>{"post-1002", "post-1003"}));
  // An event sent twice came again in the same batch (a retry), never in another.
  for (const auto& [id, batches] : log.batches_of) EXPECT_EQ(batches.size(), 1U) << id;

  const Received first = receiver.Requests().front();
  EXPECT_EQ(first.headers.at("authorization"), "Bearer receiver-secret");
  EXPECT_EQ(first.headers.at("content-encoding"), "gzip");
  const json::value event = json::parse(first.body).at(0);
  EXPECT_EQ(event.at("event_message"), "event 0");
  EXPECT_EQ(event.at("timestamp"), 1767225600000000LL);
  EXPECT_EQ(event.at("metadata").at("level"), "info");

  // The API shows the drain's state and masks the receiver's credential.
  // The cursor is saved just after the receiver answers: wait for it, not only for the requests.
  ASSERT_TRUE(receiver.WaitFor(
      [&](const auto& got) {
        const json::object now = Delivery(g, backend);
        return now.at("status") == "idle" &&
               now.at("delivered").as_int64() ==
                   static_cast<std::int64_t>(ReadWebhook(got).ids.size());
      },
      10s));
  state = Delivery(g, backend);
  EXPECT_EQ(state.at("delivered").as_int64(), static_cast<std::int64_t>(log.ids.size()));
  EXPECT_EQ(state.at("lag_seconds").to_number<double>(), 0.0);
  auto shown = json::parse(
      Api(g, "GET", "/api/backends/" + std::string(backend.at("token").as_string())).body);
  EXPECT_EQ(shown.at("config").at("headers").at("Authorization"), "REDACTED");
}

// A source created through the API drains like a declared one, and Studio's rule ~".*?" takes
// events that carry no message.
TEST_F(DrainDeliveryTest, ACreatedSourceDrainsEveryEventWithStudiosRule) {
  EnvGateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  ASSERT_EQ(Api(g, "POST", "/api/sources", R"({"name":"my.app"})").status, 201);
  DrainReceiver receiver;
  Drain(g, "webhook", R"({"url":")" + receiver.Url() + R"("})", {{"my.app", R"(~".*?")"}});
  const std::string batch =
      R"({"batch":[{"id":"app-1","event_message":"with a message"},)"
      R"({"id":"app-2","metadata":{"level":"info"}},{"id":"app-3","event_message":""}]})";
  HttpResult r;
  for (int i = 0; i < 50; ++i) {  // until the gateway lists the new source
    r = Fetch(g.Port(), "/api/logs?source_name=my.app",
              {{"x-api-key", kPublic}, {"content-type", "application/json"}}, "POST", batch);
    if (r.status == 200) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_TRUE(receiver.WaitFor([](const auto& got) { return DistinctIds(got) >= 3; }, 30s))
      << DistinctIds(receiver.Requests()) << " of 3\n"
      << g.Log();
  const WebhookLog log = ReadWebhook(receiver.Requests());
  EXPECT_EQ(log.ids, (std::vector<std::string>{"app-1", "app-2", "app-3"}));
}

TEST_F(DrainDeliveryTest, AGatewayKilledMidDeliveryResumesFromItsCursor) {
  DrainReceiver receiver;
  receiver.Delay(4s);  // the first delivery is still unanswered when the gateway dies
  json::object backend;
  {
    EnvGateway g(dir_, Vars(), true);
    ASSERT_TRUE(g.Up()) << g.Log();
    backend = Drain(g, "webhook", R"({"url":")" + receiver.Url() + R"(","gzip":false})",
                    {{"cloudflare.logs.prod", R"(~".*?")"}});
    Ingest(g, "cloudflare.logs.prod", 0, 5);
    ASSERT_TRUE(receiver.WaitFor([](const auto& r) { return !r.empty(); }, 30s)) << g.Log();
    g.Kill();
  }
  receiver.Delay(0ms);
  EnvGateway again(dir_, Vars(), false);
  ASSERT_TRUE(again.Up()) << again.Log();
  Ingest(again, "cloudflare.logs.prod", 5, 8);
  ASSERT_TRUE(receiver.WaitFor([](const auto& r) { return DistinctIds(r) >= 8; }, 30s))
      << again.Log();
  const auto requests = receiver.Requests();
  // The batch in flight at the kill came again, whole and under the same batch id.
  ASSERT_GE(requests.size(), 2U);
  EXPECT_EQ(requests[0].headers.at("x-lqe-batch-id"), requests[1].headers.at("x-lqe-batch-id"));
  EXPECT_EQ(requests[0].body, requests[1].body);
  const WebhookLog log = ReadWebhook(requests);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(log.batches_of.count("clou-" + std::to_string(1000 + i)), 1U);
  }
}

TEST_F(DrainDeliveryTest, LokiDatadogAndOtlpReceiversGetTheirWireFormats) {
  EnvGateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  DrainReceiver receiver;
  const std::vector<std::pair<std::string, std::string>> all = {
      {"cloudflare.logs.prod", R"(~".*?")"}};
  Drain(g, "loki",
        R"({"url":")" + receiver.Url("/loki/api/v1/push") + R"(","username":"u","password":"p"})",
        all);
  Drain(
      g, "datadog",
      R"({"api_key":"dd-key","region":"EU","endpoint":")" + receiver.Url("/api/v2/logs") + R"("})",
      all);
  Drain(g, "otlp",
        R"({"endpoint":")" + receiver.Url("") + R"(","protocol":"http/protobuf","gzip":true})",
        all);
  Ingest(g, "cloudflare.logs.prod", 0, 3, "error");
  auto by_path = [&](const std::string& path) {
    for (const Received& r : receiver.Requests()) {
      if (r.target == path) return r;
    }
    return Received{};
  };
  ASSERT_TRUE(receiver.WaitFor([](const auto& r) { return r.size() >= 3; }, 30s)) << g.Log();

  const Received loki = by_path("/loki/api/v1/push");
  EXPECT_EQ(loki.headers.at("authorization"), "Basic dTpw");  // u:p
  const json::value push = json::parse(loki.body);
  const json::value& stream = push.at("streams").at(0);
  EXPECT_EQ(stream.at("stream").at("source"), "cloudflare.logs.prod");
  ASSERT_EQ(stream.at("values").as_array().size(), 3U);
  EXPECT_EQ(stream.at("values").at(0).at(0), "1767225600000000000");
  EXPECT_EQ(json::parse(stream.at("values").at(0).at(1).as_string()).at("id"), "clou-1000");

  const Received datadog = by_path("/api/v2/logs");
  EXPECT_EQ(datadog.headers.at("dd-api-key"), "dd-key");
  const json::value logs = json::parse(datadog.body);
  ASSERT_EQ(logs.as_array().size(), 3U);
  EXPECT_EQ(logs.at(1).at("ddsource"), "Supabase");
  EXPECT_EQ(logs.at(1).at("service"), "cloudflare.logs.prod");
  EXPECT_EQ(logs.at(1).at("message"), "2026-01-01T00:00:00.001000Z event 1");
  EXPECT_EQ(logs.at(1).at("data").at("id"), "clou-1001");

  const Received otlp = by_path("/v1/logs");
  EXPECT_EQ(otlp.headers.at("content-type"), "application/x-protobuf");
  opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest request;
  ASSERT_TRUE(request.ParseFromString(otlp.body));
  ASSERT_EQ(request.resource_logs_size(), 1);
  const auto& resource = request.resource_logs(0);
  EXPECT_EQ(resource.resource().attributes(0).key(), "service.name");
  EXPECT_EQ(resource.resource().attributes(0).value().string_value(), "cloudflare.logs.prod");
  const auto& records = resource.scope_logs(0).log_records();
  ASSERT_EQ(records.size(), 3);
  EXPECT_EQ(records[2].body().string_value(), "event 2");
  EXPECT_EQ(records[2].time_unix_nano(), 1767225600002000000ULL);
  EXPECT_EQ(records[2].severity_text(), "error");
  EXPECT_EQ(records[2].severity_number(), opentelemetry::proto::logs::v1::SEVERITY_NUMBER_ERROR);
}

TEST_F(DrainDeliveryTest, AReceiverThatRefusesIsMarkedFailingAndNotHammered) {
  EnvGateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  DrainReceiver receiver;
  receiver.Answer(400);
  const json::object backend = Drain(g, "webhook", R"({"url":")" + receiver.Url() + R"("})",
                                     {{"cloudflare.logs.prod", R"(~".*?")"}});
  Ingest(g, "cloudflare.logs.prod", 0, 2);
  ASSERT_TRUE(receiver.WaitFor([](const auto& r) { return !r.empty(); }, 30s)) << g.Log();
  std::this_thread::sleep_for(3s);
  EXPECT_EQ(receiver.Requests().size(), 1U);
  const json::object state = Delivery(g, backend);
  EXPECT_EQ(state.at("status"), "failing");
  EXPECT_EQ(state.at("delivered").as_int64(), 0);
  EXPECT_NE(std::string(state.at("last_error").as_string()).find("HTTP 400"), std::string::npos);
  EXPECT_GT(state.at("lag_seconds").to_number<double>(), 0.0);
}

TEST_F(DrainDeliveryTest, SecretsAreMaskedAndAnUpdateThatSendsThemBackKeepsThem) {
  EnvGateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  const json::object backend = Drain(g, "datadog", R"({"api_key":"dd-secret","region":"US1"})", {});
  EXPECT_EQ(backend.at("config").at("api_key"), "REDACTED");
  const std::string path = "/api/backends/" + std::string(backend.at("token").as_string());
  auto r = Api(g, "PUT", path, R"({"config":{"api_key":"REDACTED","region":"EU"}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("config").at("region"), "EU");
  pqxx::connection conn(db_.dsn());
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(tx.exec1("SELECT config->>'api_key' FROM lqe_admin.backends")[0].as<std::string>(),
            "dd-secret");
  r = Api(g, "POST", "/api/backends",
          R"({"name":"x","type":"datadog","config":{"api_key":"k","region":"MARS"}})");
  EXPECT_EQ(r.status, 400) << r.body;
}

TEST_F(DrainDeliveryTest, TestConnectionSendsAProbeAndSaysWhetherTheReceiverTookIt) {
  EnvGateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  DrainReceiver receiver;
  const json::object up = Drain(g, "webhook", R"({"url":")" + receiver.Url() + R"("})", {});
  const std::string path = "/api/backends/" + std::string(up.at("token").as_string()) + "/test";
  auto r = Api(g, "POST", path);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("connected?"), true);
  ASSERT_EQ(receiver.Requests().size(), 1U);
  EXPECT_EQ(json::parse(receiver.Requests()[0].body).at(0).at("id"), "lqe-connection-test");

  receiver.Answer(401);
  r = Api(g, "POST", path);
  EXPECT_EQ(json::parse(r.body).at("connected?"), false);
  EXPECT_EQ(json::parse(r.body).at("reason"), "HTTP 401");
  receiver.Stop();
  r = Api(g, "POST", path);
  EXPECT_EQ(json::parse(r.body).at("connected?"), false);
  EXPECT_FALSE(json::parse(r.body).at("reason").as_string().empty());

  EXPECT_EQ(Api(g, "GET", path).status, 405);
  EXPECT_EQ(Api(g, "POST", "/api/backends/9999/test").status, 404);
  // A probe never reaches the drains' outbox: nothing was stored.
  EXPECT_EQ(Delivery(g, up).at("delivered").as_int64(), 0);
}

}  // namespace
}  // namespace lqe::gateway
