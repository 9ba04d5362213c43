// LQL through the gateway: GET /api/endpoints/query/logs.all?project=p1&lql=... over a real
// socket, with the real translator, the real config loader and the rows of lql_pg_fixture.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "config_server.h"
#include "lql_pg_fixture.h"

namespace lqe::lql {
namespace {

using gateway::testing::Fetch;
using gateway::testing::HttpResult;
using testing::lql::EdgeRow;
using testing::lql::LqlDatabase;

class LqlHttpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_db = new LqlDatabase();
    shared_dir = new gateway::testing::TempDir();
    namespace gw = gateway::testing;
    const std::string config =
        gw::ServerYaml(gw::DsnAsRole(shared_db->dsn(), "lqe_gateway")) + gw::CatalogueYaml() +
        "api_keys:\n" + gw::ApiKeyYaml("t", gw::kTestKey, "['*']") + gw::ShippedEndpointsYaml();
    shared_server = new gw::ConfigServer();
    ASSERT_EQ(shared_server->Start(shared_dir->Write("gw.yaml", config)), "");
  }

  static void TearDownTestSuite() {
    delete shared_server;
    delete shared_dir;
    delete shared_db;
  }

  static boost::json::value Get(const std::string& lql, int status = 200,
                                const std::string& extra = "") {
    const std::string target =
        "/api/endpoints/query/logs.all?project=p1&lql=" + gateway::testing::UrlEncode(lql) + extra;
    const HttpResult r =
        Fetch(shared_server->port(), target, {{"X-API-KEY", gateway::testing::kTestKey}});
    EXPECT_EQ(r.status, status) << lql << "\n" << r.body;
    return boost::json::parse(r.body);
  }

  static std::vector<std::string> Ids(const boost::json::value& body) {
    std::vector<std::string> ids;
    if (!body.is_object() || !body.as_object().contains("result")) {
      return ids;
    }
    for (const auto& row : body.at("result").as_array()) {
      ids.emplace_back(row.at("id").as_string());
    }
    return ids;
  }

  static std::vector<std::string> ExpectedEdge(const std::function<bool(const EdgeRow&)>& keep) {
    std::vector<const EdgeRow*> kept;
    for (const auto& r : shared_db->edge) {
      if (r.project == "p1" && keep(r)) {
        kept.push_back(&r);
      }
    }
    std::sort(kept.begin(), kept.end(),
              [](const EdgeRow* a, const EdgeRow* b) { return a->micros > b->micros; });
    std::vector<std::string> ids;
    ids.reserve(kept.size());
    for (const EdgeRow* r : kept) {
      ids.push_back(r->id);
    }
    return ids;
  }

  static LqlDatabase* shared_db;
  static gateway::testing::TempDir* shared_dir;
  static gateway::testing::ConfigServer* shared_server;
};

LqlDatabase* LqlHttpTest::shared_db = nullptr;
gateway::testing::TempDir* LqlHttpTest::shared_dir = nullptr;
gateway::testing::ConfigServer* LqlHttpTest::shared_server = nullptr;

TEST_F(LqlHttpTest, FiltersSelectRows) {
  EXPECT_EQ(Ids(Get("f:edge_logs m.response.status_code:>=500")),
            ExpectedEdge([](const EdgeRow& r) { return r.status && *r.status >= 500; }));
  EXPECT_EQ(Ids(Get("f:edge_logs -m.request.cf.botManagement.verifiedBot:true \"staging error\"")),
            ExpectedEdge([](const EdgeRow& r) {
              return r.verified != true && r.message.find("staging error") != std::string::npos;
            }));
  EXPECT_EQ(Ids(Get("f:edge_logs m.request.path:\"/rest/v1/it's\" ~^GET")),
            ExpectedEdge(
                [](const EdgeRow& r) { return r.path == "/rest/v1/it's" && r.method == "GET"; }));
}

TEST_F(LqlHttpTest, RowsCarryTheDefaultAndSelectedColumns) {
  const auto body = Get("f:edge_logs s:m.request.path@p m.request.method:POST");
  const auto& rows = body.at("result").as_array();
  ASSERT_FALSE(rows.empty());
  const auto& first = rows.at(0).as_object();
  EXPECT_EQ(first.size(), 4u);
  for (const char* key : {"timestamp", "id", "event_message", "p"}) {
    EXPECT_TRUE(first.contains(key)) << key;
  }
  const std::string id(first.at("id").as_string());
  for (const auto& r : shared_db->edge) {
    if (r.id == id) {
      EXPECT_EQ(first.at("p").as_string(), r.path);
    }
  }
}

TEST_F(LqlHttpTest, TimeFilterAndEndpointTimeParametersBothApply) {
  constexpr std::int64_t kMinute = 60'000'000;
  const std::int64_t base = testing::lql::kBaseMicros;
  EXPECT_EQ(Ids(Get("f:edge_logs t:>=2025-01-15T10:10:00Z", 200,
                    "&iso_timestamp_end=" + gateway::testing::UrlEncode("2025-01-15T10:20:00Z"))),
            ExpectedEdge([&](const EdgeRow& r) {
              return r.micros >= base + 10 * kMinute && r.micros <= base + 20 * kMinute;
            }));
}

TEST_F(LqlHttpTest, ChartBuckets) {
  const auto body = Get("f:edge_logs c:count(*) c:group_by(t::hour)");
  const auto& rows = body.at("result").as_array();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.at(0).at("count").as_int64(),
            static_cast<std::int64_t>(ExpectedEdge([](const EdgeRow&) { return true; }).size()));
  EXPECT_TRUE(rows.at(0).as_object().contains("timestamp"));
}

TEST_F(LqlHttpTest, MalformedAndIllTypedLqlGet400WithPosition) {
  struct Case {
    std::string lql, message, reason;
    int column;
  };
  const Case cases[] = {
      {"f:edge_logs m.x:\"open", "lql parse error: unterminated quoted string at 1:17",
       "syntax_error", 17},
      {"f:edge_logs m.response.status_code:abc",
       "expected INT64 for metadata.response.status_code, got \"abc\" at 1:36", "type_error", 36},
      {"f:edge_logs m.nope:1", "field \"metadata.nope\" not found in edge_logs at 1:13",
       "unknown_name", 13},
  };
  for (const auto& c : cases) {
    const auto body = Get(c.lql, 400);
    const auto& error = body.at("error");
    EXPECT_EQ(error.at("message").as_string(), c.message);
    EXPECT_EQ(error.at("source").as_string(), "lql");
    EXPECT_EQ(error.at("reason").as_string(), c.reason);
    EXPECT_EQ(error.at("column").as_int64(), c.column);
  }
}

// The size caps through the gateway, with consumer SQL: a constant over a cap is a positioned 400
// from the translator; a value known only when the query runs makes bq.generate_array raise
// 22023, which is a 400 as well, never a 500.
TEST_F(LqlHttpTest, SizeCapsAre400sAtTranslationAndAtRunTime) {
  const auto refused = Get(
      "", 400,
      "&sql=" +
          gateway::testing::UrlEncode("select repeat(event_message, 2000000) as r from edge_logs"));
  const auto& error = refused.at("error");
  EXPECT_EQ(error.at("message").as_string(),
            "REPEAT result would exceed the limit of 1048576 bytes at 1:30");
  EXPECT_EQ(error.at("source").as_string(), "sql");
  EXPECT_EQ(error.at("column").as_int64(), 30);

  const auto failed =
      Get("", 400,
          "&sql=" + gateway::testing::UrlEncode("select generate_array(1, length(event_message) * "
                                                "1000000) as a from edge_logs"));
  EXPECT_EQ(failed.at("error").at("message").as_string(),
            "the query failed: GENERATE_ARRAY would produce more than 1000000 elements");
  EXPECT_EQ(failed.at("error").at("reason").as_string(), "query_error");
  EXPECT_EQ(failed.at("error").at("sqlstate").as_string(), "22023");
}

}  // namespace
}  // namespace lqe::lql
