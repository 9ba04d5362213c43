// The management API (/api/backends, /api/sources, /api/rules) of real `lqe serve` processes on
// a real PostgreSQL: Studio's Log Drains calls replayed over HTTP, the private scope, untrusted
// bodies, state that survives a restart and that a second gateway sees at once.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <map>
#include <pqxx/pqxx>
#include <thread>

#include "env_gateway.h"
#include "http_client.h"
#include "lqe_child.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

namespace json = boost::json;
using testing::Fetch;
using testing::HttpResult;
using testing::TempDir;

using Gateway = testing::EnvGateway;

constexpr const char* kPrivate = "private-token-for-tests";
constexpr const char* kPublic = "public-token-for-tests";

class ManagementApiTest : public ::testing::Test {
 protected:
  std::map<std::string, std::string> Vars() const {
    return testing::StackEnvironment(db_.dsn(), kPublic, kPrivate);
  }
  // Studio's headers: the private token as a bearer, JSON both ways.
  static std::map<std::string, std::string> Studio(const std::string& token = kPrivate) {
    return {{"authorization", "Bearer " + token},
            {"content-type", "application/json"},
            {"accept", "application/json"}};
  }
  static HttpResult Call(const Gateway& g, const std::string& method, const std::string& target,
                         const std::string& body = "",
                         const std::map<std::string, std::string>& headers = Studio()) {
    return Fetch(g.Port(), target, headers, method, body);
  }
  int Count(const std::string& sql) const {
    pqxx::connection conn(db_.dsn());
    pqxx::nontransaction tx(conn);
    return tx.exec1(sql)[0].as<int>();
  }

  lqe::testing::TestDatabase db_{"mgmt"};
  TempDir dir_;
};

const char* const kSupabaseSources[] = {
    "cloudflare.logs.prod", "deno-relay-logs",     "deno-subhosting-events",
    "gotrue.logs.prod",     "pgbouncer.logs.prod", "postgrest.logs.prod",
    "postgres.logs",        "realtime.logs.prod",  "storage.logs.prod.2"};

TEST_F(ManagementApiTest, StudioLogDrainsCallSequence) {
  Gateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();

  // The page opens: the drains, an array.
  auto r = Call(g, "GET", "/api/backends?metadata%5Btype%5D=log-drain");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, "[]");

  // Create: the backend with Studio's metadata ...
  r = Call(g, "POST", "/api/backends",
           R"({"name":"my drain","description":"to the webhook","type":"webhook",)"
           R"("config":{"url":"https://example.com/hook","http":"http2","gzip":true,)"
           R"("headers":{"x-secret":"s"}},"metadata":{"type":"log-drain"}})");
  ASSERT_EQ(r.status, 201) << r.body;
  json::object backend = json::parse(r.body).as_object();
  const std::int64_t backend_id = backend.at("id").as_int64();
  const std::string token(backend.at("token").as_string());
  EXPECT_EQ(backend.at("name"), "my drain");
  EXPECT_EQ(backend.at("type"), "webhook");
  EXPECT_EQ(backend.at("config").at("url"), "https://example.com/hook");
  EXPECT_EQ(backend.at("metadata").at("type"), "log-drain");
  EXPECT_EQ(token.size(), 36U);

  // ... the sources, kept by Studio's name filter ...
  r = Call(g, "GET", "/api/sources");
  ASSERT_EQ(r.status, 200) << r.body;
  std::vector<std::int64_t> source_ids;
  const json::value sources = json::parse(r.body);
  for (const auto& s : sources.as_array()) {
    std::string name(s.at("name").as_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::find(std::begin(kSupabaseSources), std::end(kSupabaseSources), name) !=
        std::end(kSupabaseSources)) {
      source_ids.push_back(s.at("id").as_int64());
    }
  }
  ASSERT_EQ(source_ids.size(), 9U) << r.body;

  // ... and one rule per source, all at once as Promise.all sends them.
  std::vector<std::thread> posts;
  std::vector<int> statuses(source_ids.size());
  for (std::size_t i = 0; i < source_ids.size(); ++i) {
    posts.emplace_back([&, i] {
      json::object rule{
          {"backend_id", backend_id}, {"lql_string", "~\".*?\""}, {"source_id", source_ids[i]}};
      statuses[i] = Call(g, "POST", "/api/rules", json::serialize(rule)).status;
    });
  }
  for (auto& t : posts) t.join();
  for (int status : statuses) EXPECT_EQ(status, 201);
  r = Call(g, "GET", "/api/rules?backend_id=" + std::to_string(backend_id));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).as_array().size(), 9U);

  // The list shows it; another metadata type does not.
  r = Call(g, "GET", "/api/backends?metadata%5Btype%5D=log-drain");
  ASSERT_EQ(json::parse(r.body).as_array().size(), 1U) << r.body;
  r = Call(g, "GET", "/api/backends?metadata%5Btype%5D=other");
  EXPECT_EQ(json::parse(r.body).as_array().size(), 0U) << r.body;

  // Get, update without metadata (as Studio sends it), get again.
  r = Call(g, "GET", "/api/backends/" + token);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("id").as_int64(), backend_id);
  r = Call(g, "PUT", "/api/backends/" + token,
           R"({"name":"renamed","description":"d","type":"webhook",)"
           R"("config":{"url":"http://127.0.0.1:9/hook"}})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("name"), "renamed");
  EXPECT_EQ(json::parse(r.body).at("metadata").at("type"), "log-drain");  // kept
  r = Call(g, "GET", "/api/backends/" + token);
  EXPECT_EQ(json::parse(r.body).at("config").at("url"), "http://127.0.0.1:9/hook");

  // Delete: 204, then gone with its rules.
  r = Call(g, "DELETE", "/api/backends/" + token);
  EXPECT_EQ(r.status, 204) << r.body;
  EXPECT_EQ(Call(g, "GET", "/api/backends/" + token).status, 404);
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.rules"), 0);

  // Every change is in the audit log, with who made it.
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.audit_log WHERE key_name = 'logflare-private'"),
            1 + 9 + 1 + 1);
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.audit_log WHERE object_type = 'backend' AND "
                  "action = 'delete' AND length(key_fingerprint) = 16"),
            1);
  // A backend's config values (secrets) are not copied into it.
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.audit_log WHERE detail::text LIKE '%x-secret%'"),
            0);
}

TEST_F(ManagementApiTest, OnlyThePrivateScopeMayCallIt) {
  Gateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  EXPECT_EQ(Fetch(g.Port(), "/api/backends").status, 401);
  EXPECT_EQ(Call(g, "GET", "/api/backends", "", Studio("wrong")).status, 401);
  auto r = Call(g, "GET", "/api/sources", "", Studio(kPublic));
  EXPECT_EQ(r.status, 403) << r.body;
  EXPECT_NE(r.body.find("private scope"), std::string::npos) << r.body;
  EXPECT_EQ(Call(g, "POST", "/api/sources", R"({"name":"x"})", Studio(kPublic)).status, 403);
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.sources WHERE name = 'x'"), 0);
  // The private token in each of the three places a token may come.
  EXPECT_EQ(Fetch(g.Port(), "/api/sources", {{"x-api-key", kPrivate}}).status, 200);
  EXPECT_EQ(Fetch(g.Port(), std::string("/api/sources?api_key=") + kPrivate).status, 200);
  EXPECT_EQ(Call(g, "GET", "/api/sources").status, 200);
  // The public token still ingests and queries.
  r = Fetch(g.Port(),
            "/api/endpoints/query/logs.all?project=default&sql=select%201%20as%20one%20from%20"
            "auth_logs",
            {{"x-api-key", kPublic}});
  EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(ManagementApiTest, UntrustedBodiesGetAClear4xx) {
  Gateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  auto expect = [&](const std::string& method, const std::string& target, const std::string& body,
                    int status, const std::string& says) {
    auto r = Call(g, method, target, body);
    EXPECT_EQ(r.status, status) << method << " " << target << " " << body << ": " << r.body;
    EXPECT_NE(r.body.find(says), std::string::npos) << r.body;
  };
  expect("POST", "/api/backends", "{not json", 400, "not valid JSON");
  expect("POST", "/api/backends", "", 400, "no JSON body");
  expect("POST", "/api/backends", "[1,2]", 400, "must be a JSON object");
  expect("POST", "/api/backends", std::string(100, '[') + std::string(100, ']'), 400,
         "not valid JSON");
  expect("POST", "/api/backends", R"({"name":5,"type":"webhook","config":{}})", 400,
         "name must be a string");
  expect("POST", "/api/backends", R"({"name":"a","type":"webhook"})", 400, "config is required");
  expect("POST", "/api/backends", R"({"name":"a","type":"s3","config":{}})", 400,
         "backend type s3 is not supported");
  expect("POST", "/api/backends", R"({"name":"a","type":"carrier-pigeon","config":{}})", 400,
         "unknown backend type carrier-pigeon");
  expect("POST", "/api/backends", R"({"name":"a","type":"webhook","config":{"url":"ftp://x/y"}})",
         400, "config.url must be an http or https URL");
  expect("POST", "/api/backends", R"({"name":"a","type":"webhook","config":{"url":7}})", 400,
         "config.url must be a string");
  expect("POST", "/api/backends", R"({"name":"a","type":"otlp","config":{"endpoint":"x"}})", 400,
         "config.endpoint is not an absolute URL");
  expect("POST", "/api/backends", R"({"name":"a","type":"datadog","config":{"region":"US1"}})", 400,
         "config.api_key is required");
  expect("POST", "/api/backends",
         R"({"name":"a","type":"loki","config":{"url":"http://l/","headers":{"a":1}}})", 400,
         "config.headers.a must be a string");
  expect("POST", "/api/backends",
         R"({"name":"a\u0000b","type":"loki","config":{"url":"http://l"}})", 400,
         "cannot be stored");
  expect("POST", "/api/sources", R"({"name":"postgres.logs"})", 422, "already been taken");
  expect("PUT", "/api/sources/2", R"({"description":"x"})", 403, "read-only");
  expect("DELETE", "/api/sources/2", "", 403, "read-only");
  expect("GET", "/api/backends/not-an-id", "", 404, "Not Found");
  expect("GET", "/api/backends/00000000-0000-0000-0000-000000000000", "", 404, "Not Found");
  expect("PUT", "/api/rules/1", "{}", 405, "not allowed");
  // A 2 MiB body is refused before it is read whole.
  auto big = Call(g, "POST", "/api/sources", R"({"name":")" + std::string(2 << 20, 'x') + "\"}");
  EXPECT_EQ(big.status, 413) << big.body.substr(0, 200);

  // Rules: the LQL is parsed, a bad one named by its position; ids must exist.
  auto created = Call(g, "POST", "/api/backends",
                      R"({"name":"d","type":"datadog","config":{"api_key":"k","region":"EU",)"
                      R"("endpoint":"http://127.0.0.1:9/intake"}})");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = std::to_string(json::parse(created.body).at("id").as_int64());
  expect("POST", "/api/rules", R"({"backend_id":)" + id + R"(,"source_id":1,"lql_string":"m.a:>"})",
         400, "lql_string");
  auto r = Call(g, "POST", "/api/rules",
                R"({"backend_id":)" + id + R"(,"source_id":1,"lql_string":"m.a:>"})");
  EXPECT_NE(r.body.find(" at 1:"), std::string::npos) << r.body;
  expect("POST", "/api/rules", R"({"backend_id":)" + id + R"(,"source_id":999,"lql_string":"a"})",
         404, "source_id");
  expect("POST", "/api/rules", R"({"backend_id":"x","source_id":1,"lql_string":"a"})", 400,
         "backend_id must be a positive integer id");
  // A batch: the good rule is created, the bad one reported.
  r = Call(g, "POST", "/api/rules",
           R"([{"backend_id":)" + id + R"(,"source_id":1,"lql_string":"error"},)" +
               R"({"backend_id":)" + id + R"(,"source_id":1,"lql_string":"m.a:>"}])");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(json::parse(r.body).at("results").as_array().size(), 1U) << r.body;
  EXPECT_EQ(json::parse(r.body).at("errors").as_array().size(), 1U) << r.body;
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.rules"), 1);
  // Nothing of the refused requests reached the audit log: one backend, one rule.
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.audit_log"), 2);
  // The gateway is still up.
  EXPECT_EQ(Fetch(g.Port(), "/health").status, 200);
}

TEST_F(ManagementApiTest, StateSurvivesARestartAndASecondGatewaySeesChangesAtOnce) {
  std::string token;
  {
    Gateway first(dir_, Vars(), true);
    ASSERT_TRUE(first.Up()) << first.Log();
    auto r = Call(first, "POST", "/api/backends",
                  R"({"name":"kept","type":"loki","config":{"url":"http://127.0.0.1:9/push"},)"
                  R"("metadata":{"type":"log-drain"}})");
    ASSERT_EQ(r.status, 201) << r.body;
    token = std::string(json::parse(r.body).at("token").as_string());
    first.Kill();  // kill -9: nothing is flushed on the way out
  }
  Gateway a(dir_, Vars(), false);
  Gateway b(dir_, Vars(), false);
  ASSERT_TRUE(a.Up()) << a.Log();
  ASSERT_TRUE(b.Up()) << b.Log();
  auto r = Call(a, "GET", "/api/backends/" + token);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("name"), "kept");

  // A change through one gateway is what the other answers within a second.
  ASSERT_EQ(Call(a, "PUT", "/api/backends/" + token, R"({"name":"changed"})").status, 200);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  std::string seen;
  while (std::chrono::steady_clock::now() < deadline && seen != "changed") {
    seen = std::string(
        json::parse(Call(b, "GET", "/api/backends/" + token).body).at("name").as_string());
  }
  EXPECT_EQ(seen, "changed");
  ASSERT_EQ(Call(b, "DELETE", "/api/backends/" + token).status, 204);
  EXPECT_EQ(Call(a, "GET", "/api/backends/" + token).status, 404);
  r = Call(a, "POST", "/api/sources", R"({"name":"my.app","description":"mine"})");
  ASSERT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(json::parse(Call(b, "GET", "/api/sources").body).as_array().size(), 10U);
}

TEST_F(ManagementApiTest, ASourceSchemaListsItsFieldsWithTheirTypes) {
  Gateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  auto r = Call(g, "GET", "/api/sources/1/schema");  // cloudflare.logs.prod
  ASSERT_EQ(r.status, 200) << r.body;
  const json::object schema = json::parse(r.body).as_object();
  EXPECT_EQ(schema.at("timestamp"), "TIMESTAMP");
  EXPECT_EQ(schema.at("metadata.request.cf.asOrganization"), "STRING");
  EXPECT_EQ(schema.at("metadata.request.cf.botManagement.detectionIds"), "ARRAY<INT64>");
  // A source of the API's own has no fields yet; an unknown one is not found.
  r = Call(g, "POST", "/api/sources", R"({"name":"my.app"})");
  ASSERT_EQ(r.status, 201) << r.body;
  const std::string token(json::parse(r.body).at("token").as_string());
  r = Call(g, "GET", "/api/sources/" + token + "/schema");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "{}");
  EXPECT_EQ(Call(g, "GET", "/api/sources/9999/schema").status, 404);
  EXPECT_EQ(Call(g, "POST", "/api/sources/1/schema", "{}").status, 405);
  EXPECT_EQ(Call(g, "GET", "/api/sources/1/fields").status, 404);
}

// A source created through the API gets a log table of its own: every gateway takes its logs
// (by name and by UUID) within a second, its schema lists what was sent, and deleting it drops
// its events and its name.
TEST_F(ManagementApiTest, ACreatedSourceTakesLogsUntilItIsDeleted) {
  Gateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  auto r = Call(g, "POST", "/api/sources", R"({"name":"my.app"})");
  ASSERT_EQ(r.status, 201) << r.body;
  const json::object source = json::parse(r.body).as_object();
  const std::string token(source.at("token").as_string());
  const std::string table = "source_" + std::to_string(source.at("id").as_int64());
  const std::map<std::string, std::string> shipper = {{"x-api-key", kPublic},
                                                      {"content-type", "application/json"}};
  auto send = [&](const std::string& target, const std::string& body, int want) {
    HttpResult sent;
    for (int i = 0; i < 50; ++i) {
      sent = Fetch(g.Port(), target, shipper, "POST", body);
      if (sent.status == want) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return sent;
  };
  r = send("/api/logs?source_name=my.app",
           R"({"message":"hello","metadata":{"level":"info","attempt":1}})", 200);
  ASSERT_EQ(r.status, 200) << r.body << g.Log();
  r = send("/api/logs?source=" + token, R"([{"event_message":"by uuid"}])", 200);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count("SELECT count(*) FROM logs." + table), 2);
  EXPECT_EQ(Count("SELECT count(*) FROM logs." + table +
                  " WHERE event_message = 'hello' AND metadata->>'level' = 'info'"),
            1);
  r = Call(g, "GET", "/api/sources/" + token + "/schema");
  ASSERT_EQ(r.status, 200) << r.body;
  const json::object fields = json::parse(r.body).as_object();
  EXPECT_EQ(fields.at("metadata.level"), "STRING") << r.body;
  EXPECT_EQ(fields.at("metadata.attempt"), "INT64") << r.body;
  // The declared sources keep no table of the API's.
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.sources WHERE read_only AND log_table IS NOT "
                  "NULL"),
            0);

  EXPECT_EQ(Call(g, "DELETE", "/api/sources/" + token).status, 204);
  EXPECT_EQ(Count("SELECT count(*) FROM pg_class WHERE relname = '" + table + "'"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM logs.field_catalogue WHERE source = '" + table + "'"), 0);
  r = send("/api/logs?source_name=my.app", R"({"message":"gone"})", 401);
  EXPECT_EQ(r.status, 401) << r.body;
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.audit_log WHERE object_type = 'source'"), 2);
}

// The number of created sources is capped (lqe.max_created_sources): one more is a 422.
TEST_F(ManagementApiTest, CreatedSourcesAreCapped) {
  {
    pqxx::connection conn(db_.dsn());
    pqxx::nontransaction tx(conn);
    tx.exec("ALTER DATABASE " + tx.quote_name(db_.name()) + " SET lqe.max_created_sources = 1");
  }
  Gateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  EXPECT_EQ(Call(g, "POST", "/api/sources", R"({"name":"first"})").status, 201);
  auto r = Call(g, "POST", "/api/sources", R"({"name":"second"})");
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_NE(r.body.find("at most 1 sources may be created"), std::string::npos) << r.body;
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.sources WHERE NOT read_only"), 1);
}

TEST_F(ManagementApiTest, EndpointsAreCheckedStoredAndServedByEveryGateway) {
  Gateway a(dir_, Vars(), true);
  ASSERT_TRUE(a.Up()) << a.Log();
  Gateway b(dir_, Vars(), false);
  ASSERT_TRUE(b.Up()) << b.Log();

  // The operator's endpoints are listed read-only, with their typed parameters.
  auto r = Call(a, "GET", "/api/endpoints");
  ASSERT_EQ(r.status, 200) << r.body;
  bool listed = false;
  const json::value list = json::parse(r.body);
  for (const auto& e : list.as_array()) {
    if (e.at("name") != "usage.api-counts") continue;
    listed = true;
    EXPECT_EQ(e.at("read_only"), true);
    EXPECT_EQ(e.at("language"), "bq_sql");
    EXPECT_EQ(e.at("parameters").at(0).at("name"), "interval");
    EXPECT_EQ(e.at("parameters").at(0).at("type"), "enum");
  }
  EXPECT_TRUE(listed) << r.body;
  EXPECT_EQ(Call(a, "PUT", "/api/endpoints/usage.api-counts", R"({"max_limit":5})").status, 403);
  EXPECT_EQ(Call(a, "DELETE", "/api/endpoints/logs.all").status, 403);

  // A query that does not translate is refused with the translator's positioned message.
  r = Call(a, "POST", "/api/endpoints",
           R"({"name":"bad","query":"SELECT no_such_column FROM `logs.edge`"})");
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("no_such_column"), std::string::npos) << r.body;
  EXPECT_EQ(
      Call(a, "POST", "/api/endpoints", R"({"name":"x","query":"SELECT 1","engine":"v8"})").status,
      400);
  EXPECT_EQ(Call(a, "POST", "/api/endpoints", R"({"name":"x","query":"SELECT 1","language":"lql"})")
                .status,
            400);

  r = Call(a, "POST", "/api/endpoints",
           R"({"name":"edge.count","description":"events since","language":"bq_sql",)"
           R"("query":"SELECT count(*) AS n FROM `logs.edge` WHERE timestamp > @since",)"
           R"("max_limit":10,"cache_duration_seconds":0,)"
           R"("params":{"since":{"type":"timestamp","required":true}}})");
  ASSERT_EQ(r.status, 201) << r.body;
  const json::object created = json::parse(r.body).as_object();
  EXPECT_EQ(created.at("read_only"), false);
  EXPECT_EQ(created.at("max_limit"), 10);
  EXPECT_EQ(created.at("description"), "events since");
  EXPECT_EQ(Count("SELECT count(*) FROM lqe_admin.audit_log WHERE object_type = 'endpoint'"), 1);
  EXPECT_EQ(Call(a, "POST", "/api/endpoints", R"({"name":"edge.count","query":"SELECT 1"})").status,
            422);

  // Both gateways serve it within a few seconds (each reloads when the table changes).
  const std::string query =
      "/api/endpoints/query/edge.count?since=2020-01-01T00:00:00Z&api_key=" + std::string(kPublic);
  for (const Gateway* g : {&a, &b}) {
    int status = 0;
    for (int i = 0; i < 50 && status != 200; ++i) {
      status = Fetch(g->Port(), query).status;
      if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(status, 200) << g->Log();
  }
  auto rows = json::parse(Fetch(b.Port(), query).body);
  EXPECT_EQ(rows.at("result").at(0).at("n"), 0);
  // Its typed parameter is checked like a file endpoint's.
  EXPECT_EQ(Fetch(b.Port(),
                  "/api/endpoints/query/edge.count?since=yesterday&api_key=" + std::string(kPublic))
                .status,
            400);

  // Changed, then deleted: the gateways follow.
  const std::string item = "/api/endpoints/" + std::string(created.at("token").as_string());
  r = Call(a, "PUT", item, R"({"max_limit":3})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("max_limit"), 3);
  EXPECT_EQ(json::parse(r.body).at("query"),
            "SELECT count(*) AS n FROM `logs.edge` WHERE timestamp > @since");
  EXPECT_EQ(Call(a, "PUT", item, R"({"query":"SELECT nope FROM `logs.edge`"})").status, 400);
  EXPECT_EQ(Call(a, "DELETE", item).status, 204);
  int status = 200;
  for (int i = 0; i < 50 && status == 200; ++i) {
    status = Fetch(b.Port(), query).status;
    if (status == 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(status, 404);
  EXPECT_EQ(Call(a, "GET", item).status, 404);
}

TEST_F(ManagementApiTest, OpenApiDescribesEveryEndpointsParametersAndColumns) {
  Gateway g(dir_, Vars(), true);
  ASSERT_TRUE(g.Up()) << g.Log();
  EXPECT_EQ(Fetch(g.Port(), "/api/openapi").status, 401);
  EXPECT_EQ(Call(g, "POST", "/api/openapi", "{}").status, 405);
  // Any valid key may read it, the public one too.
  auto r = Fetch(g.Port(), "/api/openapi", {{"x-api-key", kPublic}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value doc = json::parse(r.body);
  EXPECT_EQ(doc.at("openapi"), "3.1.0");
  const json::object& paths = doc.at("paths").as_object();
  const json::value& counts = paths.at("/api/endpoints/query/usage.api-counts").at("get");
  const json::value& interval = counts.at("parameters").at(0);
  EXPECT_EQ(interval.at("name"), "interval");
  EXPECT_EQ(interval.at("required"), true);
  EXPECT_EQ(interval.at("schema").at("enum").at(0), "minutely");
  const json::value& row = counts.at("responses")
                               .at("200")
                               .at("content")
                               .at("application/json")
                               .at("schema")
                               .at("properties")
                               .at("result")
                               .at("items");
  EXPECT_EQ(row.at("properties").at("timestamp").at("type"), "string");
  EXPECT_EQ(row.at("properties").at("total_rest_requests").at("type"), "integer");
  EXPECT_TRUE(paths.contains("/api/endpoints/query/logs.all"));
  EXPECT_TRUE(paths.contains("/api/backends/{id}/test"));
  EXPECT_TRUE(paths.contains("/api/sources/{id}/schema"));
  EXPECT_TRUE(paths.at("/api/rules/{id}").as_object().contains("delete"));
}

}  // namespace
}  // namespace lqe::gateway
