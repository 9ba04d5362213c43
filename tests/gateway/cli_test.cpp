// The lqe binary: check (good and bad configs), keygen, and serve as a process: SIGHUP reload
// (changed endpoint re-queried, bad config keeps the old one) and SIGTERM exiting cleanly.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <cstdio>
#include <pqxx/pqxx>
#include <thread>

#include "http_client.h"
#include "lqe/gateway/auth.h"
#include "lqe/schema/migrate.h"
#include "lqe_child.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

struct RunResult {
  int status = -1;
  std::string output;  // stdout and stderr
};

RunResult RunLqe(const std::string& args) {
  RunResult r;
  std::string cmd = lqe::testing::LqeBinary() + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[512];
  while (pipe != nullptr && fgets(buf, sizeof(buf), pipe) != nullptr) r.output += buf;
  int status = pipe != nullptr ? pclose(pipe) : -1;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string ConfigText(const std::string& dsn, int port, const std::string& query) {
  return "listen: 127.0.0.1:" + std::to_string(port) + "\ndatabase:\n  dsn: " + dsn +
         "\ncatalogue_file: " + lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
         "\napi_keys:\n  - name: t\n    sha256: " + Sha256Hex(kTestKey) +
         "\n    endpoints: ['*']\nendpoints:\n  - name: count\n    cache_seconds: 600\n    "
         "query: " +
         query + "\n";
}

TEST(CliTest, CheckAcceptsTheRepositoryConfigsAndRejectsBadOnes) {
  TempDir dir;
  std::string good = dir.Write("good.yaml", ConfigText("host=127.0.0.1 port=1", 4000,
                                                       "select count(*) as n from `logs.edge`"));
  RunResult ok = RunLqe("check --config " + good);
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_NE(ok.output.find("config ok: 1 endpoints, 1 API keys"), std::string::npos) << ok.output;
  std::string bad = dir.Write("bad.yaml", "database:\n  dsn: x\n  pool: 3\n");
  RunResult fail = RunLqe("check --config " + bad);
  EXPECT_EQ(fail.status, 1);
  EXPECT_NE(fail.output.find("lqe check: " + bad + ":3: unknown key 'pool' in database"),
            std::string::npos)
      << fail.output;
}

TEST(CliTest, KeygenPrintsAKeyAndItsSha256) {
  TempDir dir;
  RunResult r = RunLqe("keygen --sha256-file " + (dir.path() / "k.sha256").string());
  ASSERT_EQ(r.status, 0);
  auto key_at = r.output.find("api_key: ");
  auto hash_at = r.output.find("sha256:  ");
  ASSERT_NE(key_at, std::string::npos);
  ASSERT_NE(hash_at, std::string::npos);
  std::string key = r.output.substr(key_at + 9, r.output.find('\n', key_at) - key_at - 9);
  std::string hash = r.output.substr(hash_at + 9, 64);
  EXPECT_EQ(key.size(), 68u);  // "lqe_" + 64 hex digits
  EXPECT_EQ(hash, Sha256Hex(key));
  EXPECT_EQ(RunLqe("keygen").output.find(key), std::string::npos);  // a fresh key each time
}

TEST(CliTest, ServeReloadsOnSighupAndStopsOnSigterm) {
  lqe::testing::TestDatabase db("cli");
  {
    pqxx::connection conn(db.dsn());
    schema::Migrate(conn, schema::MigrateOptions{});
  }
  TempDir dir;
  int port = FreePort();
  std::string path = dir.Write("gw.yaml", ConfigText(db.dsn(), port, "select 1 as n"));
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string binary = lqe::testing::LqeBinary();
    execl(binary.c_str(), binary.c_str(), "serve", "--config", path.c_str(), nullptr);
    _exit(127);
  }
  auto get = [&] {
    return Fetch(static_cast<unsigned short>(port), "/api/endpoints/query/count",
                 {{"X-API-KEY", kTestKey}});
  };
  bool up = false;
  for (int i = 0; i < 100 && !up; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    try {
      up = Fetch(static_cast<unsigned short>(port), "/health").status == 200;
    } catch (const std::exception&) {
    }
  }
  ASSERT_TRUE(up);
  EXPECT_EQ(get().body, R"({"result":[{"n":1}]})");
  EXPECT_EQ(get().Header("x-cache"), "HIT");
  dir.Write("gw.yaml", ConfigText(db.dsn(), port, "select 2 as n"));
  kill(pid, SIGHUP);
  HttpResult changed;
  for (int i = 0; i < 50; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    changed = get();
    if (changed.body != R"({"result":[{"n":1}]})") break;
  }
  EXPECT_EQ(changed.body, R"({"result":[{"n":2}]})");
  dir.Write("gw.yaml", "database: [broken\n");
  kill(pid, SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(get().body, R"({"result":[{"n":2}]})");
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace lqe::gateway
