// `lqe serve` as a process configured by the environment alone, the way self-hosted Supabase's
// compose stack starts its analytics service: DB_* or POSTGRES_BACKEND_URL, Logflare's tokens,
// LQE_LISTEN, and --migrate / LQE_MIGRATE=1 on an empty database. Then `lqe health`.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <ctime>
#include <fstream>
#include <map>
#include <pqxx/pqxx>
#include <sstream>
#include <thread>

#include "cli_run.h"
#include "http_client.h"
#include "support.h"
#include "support/test_database.h"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX, for execve

namespace lqe::gateway {
namespace {

using testing::Fetch;
using testing::TempDir;

int FreePort() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

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
           std::vector<std::string> args, int port)
      : port_(port), log_((dir.path() / "serve.log").string()) {
    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) {
      std::string entry(*e);
      if (!vars.contains(entry.substr(0, entry.find('=')))) env_strings.push_back(entry);
    }
    for (const auto& [k, v] : vars) {
      std::string entry = k;
      entry += '=';
      entry += v;
      env_strings.push_back(std::move(entry));
    }
    std::vector<char*> envp;
    envp.reserve(env_strings.size() + 1);
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string binary = lqe::testing::LqeBinary();
    args.insert(args.begin(), binary);
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      FILE* out = std::freopen(log_.c_str(), "w", stdout);
      if (out != nullptr) dup2(fileno(stdout), STDERR_FILENO);
      execve(binary.c_str(), argv.data(), envp.data());
      _exit(127);
    }
    for (int i = 0; i < 300 && !up_ && Alive(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      try {
        up_ = Fetch(Port(), "/health").status == 200;
      } catch (const std::exception&) {
        // not listening yet
      }
    }
  }
  ~EnvServe() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  EnvServe(const EnvServe&) = delete;
  EnvServe& operator=(const EnvServe&) = delete;

  bool Up() const { return up_; }
  unsigned short Port() const { return static_cast<unsigned short>(port_); }
  // Waits for the process to end by itself; its exit status (-1: did not end in 30 s).
  int Wait() {
    for (int i = 0; i < 300 && Alive(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return exit_status_;
  }
  std::string Log() const {
    std::ifstream in(log_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  // False once the process has ended (its status then in exit_status_).
  bool Alive() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return true;
    pid_ = -1;
    exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return false;
  }

  int port_;
  int exit_status_ = -1;
  std::string log_;
  pid_t pid_ = -1;
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
  const int port = FreePort();
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
  const int port = FreePort();
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
  const int port = FreePort();
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
