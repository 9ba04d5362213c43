// `lqe serve` as a process configured by the environment alone, the way self-hosted Supabase's
// compose stack starts its analytics service: DB_* or POSTGRES_BACKEND_URL, Logflare's tokens,
// LQE_LISTEN, and --migrate / LQE_MIGRATE=1 on an empty database. Then `lqe health`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <ctime>
#include <map>
#include <pqxx/pqxx>
#include <thread>

#include "cli_run.h"
#include "http_client.h"
#include "lqe_child.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using testing::Fetch;
using testing::FreePort;
using testing::TempDir;

std::string NowIso() {
  std::time_t seconds = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::array<char, 64> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf.data();
}

// `lqe <args>` with the process environment plus `vars`; output goes to a log file in `dir`.
class EnvServe {
 public:
  EnvServe(const TempDir& dir, const std::map<std::string, std::string>& vars,
           std::vector<std::string> args, unsigned short port)
      : port_(port), child_({std::move(args), vars, (dir.path() / "serve.log").string()}) {
    up_ = child_.WaitHealthy(port_);
  }

  bool Up() const { return up_; }
  unsigned short Port() const { return port_; }
  // Waits for the process to end by itself; its exit status (-1: did not end in 30 s).
  int Wait() { return child_.Wait(); }
  std::string Log() const { return child_.Log(); }

 private:
  unsigned short port_;
  testing::LqeChild child_;
  bool up_ = false;
};

class EnvServeTest : public ::testing::Test {
 protected:
  // The analytics service's variables for the test database (its DSN split into DB_* parts).
  std::map<std::string, std::string> StackVars(int port) const {
    // The DSN may be a URI or key=value pairs: libpq says what it connected to either way.
    pqxx::connection conn(db_.dsn());
    return {{"DB_HOSTNAME", conn.hostname()},
            {"DB_PORT", conn.port()},
            {"DB_USERNAME", conn.username()},
            {"DB_DATABASE", conn.dbname()},
            {"DB_SCHEMA", "_analytics"},
            {"LOGFLARE_PUBLIC_ACCESS_TOKEN", "pub-" + std::to_string(getpid())},
            {"LOGFLARE_PRIVATE_ACCESS_TOKEN", "priv-" + std::to_string(getpid())},
            {"LOGFLARE_SINGLE_TENANT", "true"},
            {"LQE_LISTEN", "127.0.0.1:" + std::to_string(port)},
            {"LQE_ENDPOINTS_DIR", lqe::testing::SourcePath("sql")},
            {"LQE_CATALOGUE_FILE", lqe::testing::SourcePath("schema/catalogue_seed.tsv")},
            {"LQE_CONFIG", ""},
            {"LQE_MIGRATE", ""}};
  }

  int Count(const std::string& sql) const {
    pqxx::connection conn(db_.dsn());
    pqxx::nontransaction tx(conn);
    return tx.exec1(sql)[0].as<int>();
  }

  lqe::testing::TestDatabase db_{"envserve"};
  TempDir dir_;
};

std::string Query(const std::string& sql) {
  return "/api/endpoints/query/logs.all?project=default&sql=" +
         boost::urls::encode(sql, boost::urls::unreserved_chars);
}

TEST_F(EnvServeTest, MigratesServesIngestAndQueriesWithTheStackVariablesAlone) {
  const unsigned short port = FreePort();
  auto vars = StackVars(port);
  EnvServe serve(dir_, vars, {"serve", "--migrate"}, port);
  ASSERT_TRUE(serve.Up()) << serve.Log();
  EXPECT_GT(Count("SELECT count(*) FROM logs.schema_migrations"), 0);

  // Vector's batch: the public token in the query string.
  const std::string batch = R"([{"event_message":"env-1","id":"e1","timestamp":")" + NowIso() +
                            R"(","project":"default","metadata":{"status":200}},)" +
                            R"({"event_message":"env-2","id":"e2","timestamp":")" + NowIso() +
                            R"(","project":"default","metadata":{"status":500}}])";
  const std::string ingest = "/api/logs?source_name=gotrue.logs.prod&api_key=";
  auto r = Fetch(serve.Port(), ingest + vars["LOGFLARE_PUBLIC_ACCESS_TOKEN"],
                 {{"content-type", "application/json"}}, "POST", batch);
  EXPECT_EQ(r.status, 200) << r.body;
  r = Fetch(serve.Port(), ingest + "not-a-token", {{"content-type", "application/json"}}, "POST",
            batch);
  EXPECT_EQ(r.status, 401) << r.body;

  // Studio's query with the private token; the public one may query too.
  for (const char* token : {"LOGFLARE_PRIVATE_ACCESS_TOKEN", "LOGFLARE_PUBLIC_ACCESS_TOKEN"}) {
    int n = -1;
    for (int i = 0; i < 100 && n != 2; ++i) {
      auto q = Fetch(serve.Port(), Query("select count(*) as n from auth_logs"),
                     {{"authorization", "Bearer " + vars[token]}});
      ASSERT_EQ(q.status, 200) << q.body;
      n = static_cast<int>(boost::json::parse(q.body).at("result").at(0).at("n").as_int64());
      if (n != 2) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_EQ(n, 2) << token;
  }
  EXPECT_EQ(Fetch(serve.Port(), Query("select 1 as one from auth_logs"),
                  {{"authorization", "Bearer wrong"}})
                .status,
            401);
  // The second stored endpoint is served too.
  EXPECT_EQ(
      Fetch(serve.Port(), "/api/endpoints/query/usage.api-counts?project=default&interval=hourly",
            {{"x-api-key", vars["LOGFLARE_PUBLIC_ACCESS_TOKEN"]}})
          .status,
      200);

  // `lqe health` finds the service from LQE_LISTEN alone, or from --url.
  setenv("LQE_LISTEN", vars["LQE_LISTEN"].c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
  auto health = testing::RunLqeCommand("health");
  unsetenv("LQE_LISTEN");  // NOLINT(concurrency-mt-unsafe)
  EXPECT_EQ(health.status, 0) << health.err;
  health =
      testing::RunLqeCommand("health --url http://127.0.0.1:" + std::to_string(port) + "/health");
  EXPECT_EQ(health.status, 0) << health.err;
}

TEST_F(EnvServeTest, MigrateVariableAndBackendUrlWinOverTheFile) {
  const unsigned short port = FreePort();
  auto vars = StackVars(port);
  for (const char* part : {"DB_HOSTNAME", "DB_PORT", "DB_USERNAME", "DB_DATABASE"}) {
    vars.erase(part);
  }
  vars["POSTGRES_BACKEND_URL"] = db_.dsn();
  vars["LQE_MIGRATE"] = "1";
  vars.erase("LQE_ENDPOINTS_DIR");
  // The file names another port and database and no keys; the variables win.
  const std::string config =
      dir_.Write("gw.yaml",
                 "listen: 127.0.0.1:1\ndatabase:\n  dsn: postgresql://nobody@127.0.0.1:1/none\n"
                 "endpoints_dir: " +
                     lqe::testing::SourcePath("sql") + "\n");
  vars["LQE_CONFIG"] = config;
  EnvServe serve(dir_, vars, {"serve"}, port);
  ASSERT_TRUE(serve.Up()) << serve.Log();
  EXPECT_GT(Count("SELECT count(*) FROM logs.schema_migrations"), 0);
  auto q = Fetch(serve.Port(), Query("select count(*) as n from edge_logs"),
                 {{"authorization", "Bearer " + vars["LOGFLARE_PRIVATE_ACCESS_TOKEN"]}});
  EXPECT_EQ(q.status, 200) << q.body;
}

TEST_F(EnvServeTest, WithoutDatabaseItRefusesToStartAndSaysWhy) {
  const unsigned short port = FreePort();
  std::map<std::string, std::string> vars = {{"LQE_LISTEN", "127.0.0.1:" + std::to_string(port)},
                                             {"LQE_ENDPOINTS_DIR", lqe::testing::SourcePath("sql")},
                                             {"LQE_CONFIG", ""},
                                             {"LQE_DATABASE_URL", ""},
                                             {"POSTGRES_BACKEND_URL", ""},
                                             {"DB_HOSTNAME", ""}};
  EnvServe serve(dir_, vars, {"serve", "--migrate"}, port);
  EXPECT_FALSE(serve.Up());
  EXPECT_EQ(serve.Wait(), 1);
  EXPECT_NE(serve.Log().find("no database: give --config, or set LQE_DATABASE_URL"),
            std::string::npos)
      << serve.Log();
}

TEST_F(EnvServeTest, HealthFailsWhenNothingAnswers) {
  auto health = testing::RunLqeCommand(
      "health --timeout-ms 2000 --url http://127.0.0.1:" + std::to_string(FreePort()) + "/health");
  EXPECT_EQ(health.status, 1);
  EXPECT_NE(health.err.find("lqe health: http://127.0.0.1:"), std::string::npos) << health.err;
  health = testing::RunLqeCommand("health --url ftp://x/health");
  EXPECT_EQ(health.status, 1);
  EXPECT_NE(health.err.find("not an http:// URL"), std::string::npos) << health.err;
}

}  // namespace
}  // namespace lqe::gateway
