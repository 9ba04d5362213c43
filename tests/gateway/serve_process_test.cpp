// `lqe serve` as a process with the stored endpoints of sql/ on a migrated database: file
// descriptor exhaustion under a low RLIMIT_NOFILE, resource bombs through a caller's `sql=`,
// and SIGTERM while a caller's query runs.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <pqxx/pqxx>
#include <thread>
#include <utility>
#include <vector>

#include "lqe/schema/migrate.h"
#include "lqe_child.h"
#include "server_fixture.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

std::string SandboxTarget(const std::string& sql) {
  return "/api/endpoints/query/logs.all?project=default&sql=" +
         boost::urls::encode(sql, boost::urls::unreserved_chars);
}

// A running `lqe serve`; stderr and stdout go to a log file in `dir`.
class ServeProcess {
 public:
  ServeProcess(const TempDir& dir, const std::string& dsn, const std::string& http_settings,
               int statement_timeout_ms, rlim_t max_files = 0)
      : port_(FreePort()),
        child_({{"serve", "--config",
                 dir.Write("gw.yaml", Config(port_, dsn, http_settings, statement_timeout_ms))},
                {},
                (dir.path() / "serve.log").string(),
                max_files}) {
    up_ = child_.WaitHealthy(port_, std::chrono::seconds(10));
  }

  bool Up() const { return up_; }
  unsigned short Port() const { return port_; }
  pid_t Pid() const { return child_.Pid(); }
  int Terminate() { return child_.Terminate(); }
  std::string Log() const { return child_.Log(); }
  double CpuSeconds() const { return child_.CpuSeconds(); }

 private:
  static std::string Config(unsigned short port, const std::string& dsn,
                            const std::string& http_settings, int statement_timeout_ms) {
    return "listen: 127.0.0.1:" + std::to_string(port) + "\ndatabase:\n  dsn: " + dsn +
           "\n  pool_size: 4\n  statement_timeout_ms: " + std::to_string(statement_timeout_ms) +
           "\ncatalogue_file: " + lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
           "\nendpoints_dir: " + lqe::testing::SourcePath("sql") + "\nhttp:\n" + http_settings +
           "api_keys:\n  - name: t\n    sha256: " + Sha256Hex(kTestKey) +
           "\n    endpoints: ['*']\n";
  }

  unsigned short port_;
  LqeChild child_;
  bool up_ = false;
};

class ServeProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pqxx::connection conn(db_.dsn());
    schema::Migrate(conn, schema::MigrateOptions{});
  }

  lqe::testing::TestDatabase db_{"serve"};
  TempDir dir_;
};

TEST_F(ServeProcessTest, FileDescriptorExhaustionRefusesNewConnectionsAndKeepsServing) {
  // 64 descriptors: after the pools (2 x 4), the log and the listener (32), 24 connections.
  ServeProcess serve(dir_, db_.dsn(), "  max_connections: 1000\n", 15000, 64);
  ASSERT_TRUE(serve.Up()) << serve.Log();
  HttpConnection kept(serve.Port());
  ASSERT_EQ(kept.Send("GET", "/health").status, 200);
  // Wait until the start-up probes' connections are closed on the server's side too, so `kept`
  // is the only connection counted.
  bool alone = false;
  for (int i = 0; i < 100 && !alone; ++i) {
    alone =
        kept.Send("GET", "/metrics").body.find("\nlqe_http_connections 1\n") != std::string::npos;
    if (!alone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(alone);
  double cpu_before = serve.CpuSeconds();
  std::vector<std::unique_ptr<RawConnection>> idle;
  idle.reserve(300);
  int refused = 0;
  for (int i = 0; i < 300; ++i) {
    idle.push_back(std::make_unique<RawConnection>(serve.Port(), 200));
  }
  // Held connections stay open and silent; the rest got a 503 and were closed.
  for (auto& c : idle) {
    std::string response = c->ReadResponse();
    if (!response.empty()) {
      EXPECT_EQ(StatusOf(response), 503);
      EXPECT_EQ(MessageOf(response), "the server has too many open connections; retry shortly");
      ++refused;
    }
  }
  EXPECT_EQ(refused, 300 - 23);  // 24 connections: `kept` and 23 idle ones
  RawConnection late(serve.Port());
  std::string late_response = late.ReadResponse();
  EXPECT_EQ(StatusOf(late_response), 503);
  EXPECT_NE(late_response.find("Retry-After: 1\r\n"), std::string::npos);
  // An existing connection is still served, queries included.
  EXPECT_EQ(kept.Send("GET", "/health").status, 200);
  HttpResult query =
      kept.Send("GET", "/api/endpoints/query/logs.all?project=default", {{"X-API-KEY", kTestKey}});
  EXPECT_EQ(query.status, 200) << query.body;
  std::printf("[measure] %d of 300 connections refused at the cap; %.2f s CPU meanwhile\n", refused,
              serve.CpuSeconds() - cpu_before);
  idle.clear();
  HttpResult after;
  for (int i = 0; i < 50 && after.status != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    after = Fetch(serve.Port(), "/health");
  }
  EXPECT_EQ(after.status, 200);
  std::string log = serve.Log();
  EXPECT_EQ(log.find("accept failed"), std::string::npos) << log.substr(0, 2000);
  EXPECT_EQ(serve.Terminate(), 0);
}

TEST_F(ServeProcessTest, AcceptFailuresBackOffAndAreLoggedRarely) {
  // Started with room for 1000 connections, then the descriptor limit drops under it (as when
  // something else in the process holds descriptors): accept() itself fails with EMFILE.
  ServeProcess serve(dir_, db_.dsn(), "  read_timeout_ms: 30000\n", 15000, 1024);
  ASSERT_TRUE(serve.Up()) << serve.Log();
  HttpConnection kept(serve.Port());
  ASSERT_EQ(kept.Send("GET", "/health").status, 200);
  rlimit low{40, 1024};  // the soft limit only, so it can be raised again
  ASSERT_EQ(prlimit(serve.Pid(), RLIMIT_NOFILE, &low, nullptr), 0);
  double cpu_before = serve.CpuSeconds();
  std::vector<std::unique_ptr<RawConnection>> waiting;
  waiting.reserve(300);
  for (int i = 0; i < 300; ++i) waiting.push_back(std::make_unique<RawConnection>(serve.Port()));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  // The connection already open is served throughout.
  EXPECT_EQ(kept.Send("GET", "/health").status, 200) << serve.Log().substr(0, 3000);
  double cpu = serve.CpuSeconds() - cpu_before;
  waiting.clear();
  rlimit normal{1024, 1024};
  ASSERT_EQ(prlimit(serve.Pid(), RLIMIT_NOFILE, &normal, nullptr), 0);
  HttpResult after;
  for (int i = 0; i < 100 && after.status != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    after = Fetch(serve.Port(), "/health");
  }
  EXPECT_EQ(after.status, 200);
  std::string log = serve.Log();
  std::size_t lines = 0;
  for (std::size_t at = log.find("accept failed"); at != std::string::npos;
       at = log.find("accept failed", at + 1)) {
    ++lines;
  }
  EXPECT_GE(lines, 1u) << log.substr(0, 2000);
  EXPECT_LE(lines, 10u) << log.substr(0, 2000);  // at most one a second
  std::printf("[measure] EMFILE for 2 s: %zu accept-failure log lines, %.2f s CPU\n", lines, cpu);
  EXPECT_EQ(serve.Terminate(), 0);
}

TEST_F(ServeProcessTest, ResourceBombsThroughSqlAreCallerErrorsNeverCrashes) {
  ServeProcess serve(dir_, db_.dsn(), "  shutdown_grace_ms: 500\n", 3000);
  ASSERT_TRUE(serve.Up()) << serve.Log();
  auto run = [&](const std::string& sql) {
    return Fetch(serve.Port(), SandboxTarget(sql), {{"X-API-KEY", kTestKey}});
  };
  struct Case {
    std::string sql;
    int status;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"select 1/0 as x", 400, "the query failed: division by zero"},
           {"select cast('x' as int64) as x", 400,
            "the query failed: invalid input syntax for type bigint: \"x\""},
           {"select [1,2][offset(5)] as x", 400,
            "the query failed: array index 5 is out of bounds"},
       }) {
    HttpResult r = run(c.sql);
    EXPECT_EQ(r.status, c.status) << c.sql << ": " << r.body;
    EXPECT_EQ(ErrorMessage(r), c.message) << c.sql;
  }
  // Bombs with constant sizes are refused by the translator's caps before Postgres sees them:
  // a positioned 400 naming the limit.
  for (const auto& [sql, message] : std::vector<std::pair<std::string, std::string>>{
           {"select repeat('x', 2000000000) as s",
            "REPEAT result would exceed the limit of 1048576 bytes at 1:20"},
           {"select array_length(generate_array(1, 200000000)) as n",
            "GENERATE_ARRAY would produce 200000000 elements, over the limit of 1000000 at 1:21; "
            "hint: Generate a shorter range or use a larger step."},
           {"select string_agg(repeat('x', 100000000)) as s from unnest(generate_array(1, 20))",
            "REPEAT result would exceed the limit of 1048576 bytes at 1:31"},
       }) {
    HttpResult r = run(sql);
    EXPECT_EQ(r.status, 400) << sql << ": " << r.body;
    EXPECT_EQ(ErrorMessage(r), message) << sql;
  }
  // Heavy ones within the caps end as a resource limit (400) or the statement timeout (504),
  // depending on which Postgres hits first; never a 500.
  for (const std::string& sql : std::vector<std::string>{
           "select count(*) as n from unnest(generate_array(1, 5000)) as a cross join "
           "unnest(generate_array(1, 5000)) as b cross join unnest(generate_array(1, 5000)) as c",
           "select length(string_agg(repeat('x', 1000000))) as n from "
           "unnest(generate_array(1, 1000000))",
       }) {
    HttpResult r = run(sql);
    EXPECT_TRUE(r.status == 400 || r.status == 504) << sql << ": " << r.status << " " << r.body;
    std::string reason = r.status == 0 ? "" : ErrorReason(r);
    EXPECT_TRUE(reason == "resource_limit" || reason == "timeout" || reason == "query_error")
        << sql << ": " << r.body;
    std::printf("[measure] %s -> %d %s\n", sql.substr(0, 60).c_str(), r.status,
                ErrorMessage(r).c_str());
  }
  EXPECT_EQ(Fetch(serve.Port(), "/health").status, 200);
  EXPECT_EQ(serve.Terminate(), 0);
}

TEST_F(ServeProcessTest, SigtermCancelsARunningQueryAtTheGraceDeadline) {
  ServeProcess serve(dir_, db_.dsn(), "  shutdown_grace_ms: 500\n", 600000);
  ASSERT_TRUE(serve.Up()) << serve.Log();
  const std::string bomb =
      "select count(*) as n from unnest(generate_array(1, 5000)) as a cross join "
      "unnest(generate_array(1, 5000)) as b cross join unnest(generate_array(1, 5000)) as c";
  RawConnection c(serve.Port());
  c.Send("GET " + SandboxTarget(bomb) +
         " HTTP/1.1\r\nHost: x\r\nX-API-KEY: " + std::string(kTestKey) + "\r\n\r\n");
  // pg_stat_activity keeps only the first 1 KiB of the query text: the wrapper lqe puts
  // around every query is what shows.
  const std::string fragment = "SELECT * FROM (";
  ASSERT_EQ(db_.WaitForActiveQueries(fragment, 1), 1) << serve.Log();
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(serve.Terminate(), 0);
  std::printf(
      "[measure] exited %.0f ms after SIGTERM (grace 500 ms) with a query running\n",
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  EXPECT_EQ(db_.WaitForActiveQueries(fragment, 0), 0);
  EXPECT_TRUE(c.ClosedByServer());
}

}  // namespace
}  // namespace lqe::gateway
