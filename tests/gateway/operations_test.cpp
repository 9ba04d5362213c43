// The operator's handles on a real `lqe serve` process over real sockets and a migrated
// database: version headers and metrics, the pid file and `lqe reload`, the admin listener and
// the metrics key, JSON logs with request ids, native TLS with a certificate made here, and the
// retention scheduler.
#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/json/parse.hpp>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <thread>

#include "http_client.h"
#include "lqe/gateway/build_info.h"
#include "lqe/gateway/retention.h"
#include "lqe/schema/migrate.h"
#include "lqe_child.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

struct LqeRun {
  int status = -1;
  std::string output;  // stdout and stderr
};

// Runs the lqe binary with `args`, waiting for it.
LqeRun RunLqe(const std::string& args) {
  std::string command = lqe::testing::LqeBinary() + " " + args + " 2>&1";
  LqeRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) run.output += buffer;
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string ReadText(const std::filesystem::path& path) {
  return lqe::testing::ReadFileText(path.string());
}

// `lqe serve --config <dir>/gw.yaml [extra args]`; stdout and stderr go to <dir>/serve.log.
class Serve {
 public:
  explicit Serve(const TempDir& dir, const std::vector<std::string>& extra = {})
      : child_(Options(dir, extra)) {}

  // Polls `probe` until it is true (10 s at most).
  template <typename Probe>
  bool WaitFor(Probe probe) const {
    for (int i = 0; i < 200; ++i) {
      try {
        if (probe()) return true;
      } catch (const std::exception&) {
        // not listening yet
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  bool WaitUp(unsigned short port) { return child_.WaitHealthy(port, std::chrono::seconds(10)); }
  bool WaitLog(const std::string& text) const {
    return WaitFor([&] { return Log().find(text) != std::string::npos; });
  }
  pid_t Pid() const { return child_.Pid(); }
  int Terminate() { return child_.Terminate(); }
  std::string Log() const { return child_.Log(); }

 private:
  static ChildOptions Options(const TempDir& dir, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"serve", "--config", (dir.path() / "gw.yaml").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return {std::move(args), {}, (dir.path() / "serve.log").string()};
  }

  LqeChild child_;
};

class OperationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pqxx::connection conn(db_.dsn());
    schema::Migrate(conn, schema::MigrateOptions{});
  }

  // A config serving sql/'s endpoints; `listen` is the listen value, `more` further keys.
  std::string WriteConfig(const std::string& listen, const std::string& more,
                          const std::string& keys = "") const {
    return dir_.Write("gw.yaml",
                      "listen: " + listen + "\ndatabase:\n  dsn: " + db_.dsn() +
                          "\n  pool_size: 2\ncatalogue_file: " +
                          lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
                          "\nendpoints_dir: " + lqe::testing::SourcePath("sql") +
                          "\napi_keys:\n  - name: t\n    sha256: " + Sha256Hex(kTestKey) +
                          "\n    endpoints: ['*']\n" + keys + more);
  }

  lqe::testing::TestDatabase db_{"ops"};
  TempDir dir_;
  int port_ = FreePort();
  std::string address_ = "127.0.0.1:" + std::to_string(port_);
  unsigned short Port() const { return static_cast<unsigned short>(port_); }
};

// The value of an unlabelled or labelled series in Prometheus text; -1 when absent.
double Series(const std::string& text, const std::string& series) {
  std::size_t at = text.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + series.size() + 2));
}

TEST_F(OperationsTest, ServerHeaderAndBuildInfoNameTheRelease) {
  WriteConfig(address_, "");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  HttpResult health = Fetch(Port(), "/health");
  EXPECT_EQ(health.Header("server"), "lqe/" + std::string(BuildVersion()));
  EXPECT_EQ(std::string(BuildVersion()).find('.'), 1u);  // "0.1.0": from project(VERSION)
  HttpResult metrics = Fetch(Port(), "/metrics");
  EXPECT_NE(metrics.body.find("\nlqe_build_info{version=\"" + std::string(BuildVersion()) +
                              "\",commit=\"" + std::string(BuildCommit()) + "\"} 1\n"),
            std::string::npos)
      << metrics.body;
  EXPECT_FALSE(BuildCommit().empty());
}

TEST_F(OperationsTest, PidFileReloadLogsChangesAndCountsFailures) {
  std::string pid_file = (dir_.path() / "lqe.pid").string();
  WriteConfig(address_, "");
  Serve serve(dir_, {"--pid-file", pid_file});
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  EXPECT_EQ(ReadText(pid_file), std::to_string(serve.Pid()) + "\n");
  HttpResult before = Fetch(Port(), "/metrics");
  EXPECT_EQ(Series(before.body, "lqe_config_reload_failures_total"), 0);
  double first_success = Series(before.body, "lqe_config_last_reload_success_timestamp_seconds");
  EXPECT_GT(first_success, 1.7e9);

  // A new key: the reload names it (never its digest) and it works at once.
  const std::string second_key = "second-key-9f3";
  WriteConfig(
      address_, "",
      "  - name: second\n    sha256: " + Sha256Hex(second_key) + "\n    endpoints: ['*']\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // a later success timestamp
  LqeRun reload = RunLqe("reload --pid-file " + pid_file);
  EXPECT_EQ(reload.status, 0) << reload.output;
  EXPECT_NE(reload.output.find("pid " + std::to_string(serve.Pid())), std::string::npos);
  ASSERT_TRUE(serve.WaitLog("reload: api key second added")) << serve.Log();
  ASSERT_TRUE(serve.WaitFor([&] {
    return Fetch(Port(), "/api/endpoints/query/logs.all?project=x", {{"X-API-KEY", second_key}})
               .status == 200;
  }));
  std::string log = serve.Log();
  EXPECT_EQ(log.find(Sha256Hex(second_key)), std::string::npos);
  EXPECT_EQ(log.find(second_key), std::string::npos);
  HttpResult after = Fetch(Port(), "/metrics");
  EXPECT_GT(Series(after.body, "lqe_config_last_reload_success_timestamp_seconds"), first_success);

  // A broken config is refused, counted, and the running one keeps serving.
  dir_.Write("gw.yaml", "listen: [\n");
  ASSERT_EQ(RunLqe("reload --pid-file " + pid_file).status, 0);
  ASSERT_TRUE(serve.WaitFor([&] {
    return Series(Fetch(Port(), "/metrics").body, "lqe_config_reload_failures_total") == 1;
  })) << serve.Log();
  EXPECT_NE(serve.Log().find("reload failed, keeping the previous config"), std::string::npos);
  EXPECT_EQ(
      Fetch(Port(), "/api/endpoints/query/logs.all?project=x", {{"X-API-KEY", second_key}}).status,
      200);

  EXPECT_EQ(serve.Terminate(), 0);
  EXPECT_FALSE(std::filesystem::exists(pid_file));
}

TEST_F(OperationsTest, ReloadSaysWhyItCannotSignal) {
  std::string missing = (dir_.path() / "none.pid").string();
  LqeRun run = RunLqe("reload --pid-file " + missing);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("cannot read the pid file " + missing), std::string::npos)
      << run.output;

  std::string garbage = dir_.Write("garbage.pid", "hello\n");
  run = RunLqe("reload --pid-file " + garbage);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("does not hold a process id"), std::string::npos) << run.output;

  pid_t gone = fork();
  if (gone == 0) _exit(0);
  waitpid(gone, nullptr, 0);
  std::string stale = dir_.Write("stale.pid", std::to_string(gone) + "\n");
  run = RunLqe("reload --pid-file " + stale);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("stale pid file " + stale + ": process " + std::to_string(gone) +
                            " is not running"),
            std::string::npos)
      << run.output;

  // A live process that is not lqe serve (this test) is never signalled.
  std::string other = dir_.Write("other.pid", std::to_string(getpid()) + "\n");
  run = RunLqe("reload --pid-file " + other);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("is not lqe serve"), std::string::npos) << run.output;
}

TEST_F(OperationsTest, SecondServeRefusesAPidFileInUse) {
  std::string pid_file = (dir_.path() / "lqe.pid").string();
  WriteConfig(address_, "");
  Serve serve(dir_, {"--pid-file", pid_file});
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  // Another config on another port, the same pid file.
  std::string text = ReadText(dir_.path() / "gw.yaml");
  text.replace(text.find(address_), address_.size(), "127.0.0.1:" + std::to_string(FreePort()));
  std::string other = dir_.Write("gw2.yaml", text);
  LqeRun second = RunLqe("serve --config " + other + " --pid-file " + pid_file);
  EXPECT_EQ(second.status, 1);
  EXPECT_NE(second.output.find("names a running lqe serve (pid " + std::to_string(serve.Pid())),
            std::string::npos)
      << second.output;
  EXPECT_EQ(ReadText(pid_file), std::to_string(serve.Pid()) + "\n");
}

TEST_F(OperationsTest, AdminListenerServesMetricsBehindItsKey) {
  int admin_port = FreePort();
  const std::string metrics_key = "metrics-secret-1";
  WriteConfig(address_, "admin:\n  listen: 127.0.0.1:" + std::to_string(admin_port) +
                            "\n  metrics_key_sha256: " + Sha256Hex(metrics_key) + "\n");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  auto admin = static_cast<unsigned short>(admin_port);
  // The API listener: no /metrics; /health and /ready stay for health checks.
  EXPECT_EQ(Fetch(Port(), "/metrics").status, 404);
  EXPECT_EQ(Fetch(Port(), "/metrics", {{"Authorization", "Bearer " + metrics_key}}).status, 404);
  EXPECT_EQ(Fetch(Port(), "/ready").status, 200);
  // The admin listener: /metrics with the key only, and no API routes.
  HttpResult anonymous = Fetch(admin, "/metrics");
  EXPECT_EQ(anonymous.status, 401) << anonymous.body;
  EXPECT_EQ(anonymous.Header("www-authenticate"), "Bearer");
  EXPECT_EQ(Fetch(admin, "/metrics", {{"Authorization", "Bearer wrong"}}).status, 401);
  HttpResult scraped = Fetch(admin, "/metrics", {{"Authorization", "Bearer " + metrics_key}});
  EXPECT_EQ(scraped.status, 200);
  EXPECT_NE(scraped.body.find("lqe_build_info"), std::string::npos);
  EXPECT_EQ(Fetch(admin, "/metrics", {{"X-API-KEY", metrics_key}}).status, 200);
  EXPECT_EQ(Fetch(admin, "/health").status, 200);
  EXPECT_EQ(Fetch(admin, "/ready").status, 200);
  EXPECT_EQ(
      Fetch(admin, "/api/endpoints/query/logs.all?project=x", {{"X-API-KEY", kTestKey}}).status,
      404);
  EXPECT_EQ(serve.Terminate(), 0);
}

TEST_F(OperationsTest, MetricsKeyOnTheSharedListener) {
  WriteConfig(address_, "admin:\n  metrics_key_sha256: " + Sha256Hex("k-metrics") + "\n");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  EXPECT_EQ(Fetch(Port(), "/metrics").status, 401);
  EXPECT_EQ(Fetch(Port(), "/metrics", {{"Authorization", "Bearer k-metrics"}}).status, 200);
}

TEST_F(OperationsTest, JsonLogsCarryTheRequestIdAndHonourAClientId) {
  WriteConfig(address_, "log:\n  format: json\n");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  HttpResult given = Fetch(Port(), "/api/endpoints/query/logs.all?project=x",
                           {{"X-API-KEY", kTestKey}, {"X-Request-Id", "trace-abc.123:9"}});
  EXPECT_EQ(given.status, 200) << given.body;
  EXPECT_EQ(given.Header("x-request-id"), "trace-abc.123:9");
  // Unsafe or overlong ids are replaced by a fresh one.
  for (const std::string& bad : {std::string("has space"), std::string("quote\"inside"),
                                 std::string(200, 'a'), std::string("{\"json\":1}")}) {
    HttpResult replaced = Fetch(Port(), "/health", {{"X-Request-Id", bad}});
    std::string id = replaced.Header("x-request-id");
    EXPECT_EQ(id.size(), 32u) << bad;
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  }
  HttpResult fresh = Fetch(Port(), "/nowhere");
  EXPECT_EQ(fresh.status, 404);
  std::string fresh_id = fresh.Header("x-request-id");
  ASSERT_EQ(fresh_id.size(), 32u);
  ASSERT_TRUE(serve.WaitLog(fresh_id));
  EXPECT_EQ(serve.Terminate(), 0);

  // Every line is one JSON object with time and level; access lines carry the id.
  std::istringstream lines(serve.Log());
  std::string line;
  int access = 0, other = 0;
  bool saw_given = false, saw_fresh = false;
  while (std::getline(lines, line)) {
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(line, ec);
    ASSERT_FALSE(ec) << "not JSON: " << line;
    const auto& o = v.as_object();
    ASSERT_TRUE(o.contains("time") && o.contains("level")) << line;
    if (o.contains("type") && o.at("type") == "access") {
      ++access;
      ASSERT_TRUE(o.contains("request_id")) << line;
      std::string id(o.at("request_id").as_string());
      EXPECT_FALSE(id.empty());
      if (id == "trace-abc.123:9") {
        saw_given = true;
        EXPECT_EQ(o.at("status").as_int64(), 200);
        EXPECT_EQ(o.at("endpoint"), "logs.all");
        EXPECT_EQ(o.at("path"), "/api/endpoints/query/logs.all");
      }
      if (id == fresh_id) {
        saw_fresh = true;
        EXPECT_EQ(o.at("status").as_int64(), 404);
        EXPECT_EQ(o.at("reason"), "not_found");
      }
    } else {
      ++other;
      EXPECT_TRUE(o.contains("msg")) << line;
    }
  }
  EXPECT_TRUE(saw_given);
  EXPECT_TRUE(saw_fresh);
  EXPECT_GE(access, 7);
  EXPECT_GE(other, 2);  // start and stop lines
}

TEST_F(OperationsTest, TextAccessLinesCarryTheRequestId) {
  WriteConfig(address_, "");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  HttpResult r = Fetch(Port(), "/health", {{"X-Request-Id", "abc-42"}});
  EXPECT_EQ(r.Header("x-request-id"), "abc-42");
  EXPECT_TRUE(serve.WaitLog("GET /health 200")) << serve.Log();
  EXPECT_TRUE(serve.WaitLog("request_id=abc-42")) << serve.Log();
}

// A self-signed certificate for 127.0.0.1 with this common name, made by the openssl CLI.
void MakeCertificate(const TempDir& dir, const std::string& name) {
  std::string command = "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=" + name +
                        " -addext subjectAltName=IP:127.0.0.1 -keyout " +
                        (dir.path() / "key.pem").string() + " -out " +
                        (dir.path() / "cert.pem").string() + " 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

struct TlsResult {
  int status = 0;
  std::string common_name;  // of the server's certificate
  std::string server_header;
  std::string error;
};

// GET `target` over TLS, trusting only `ca_file`.
TlsResult TlsGet(unsigned short port, const std::string& target, const std::string& ca_file) {
  namespace asio = boost::asio;
  namespace http = boost::beast::http;
  TlsResult out;
  asio::io_context ioc;
  asio::ssl::context context(asio::ssl::context::tls_client);
  context.load_verify_file(ca_file);
  context.set_verify_mode(asio::ssl::verify_peer);
  boost::beast::ssl_stream<boost::beast::tcp_stream> stream(ioc, context);
  boost::beast::error_code ec;
  boost::beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(10));
  boost::beast::get_lowest_layer(stream).connect(
      asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  if (!ec) stream.handshake(asio::ssl::stream_base::client, ec);
  if (ec) {
    out.error = ec.message();
    return out;
  }
  X509* cert = SSL_get1_peer_certificate(stream.native_handle());
  if (cert != nullptr) {
    char name[256] = {};
    X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, name, sizeof name);
    out.common_name = name;
    X509_free(cert);
  }
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req, ec);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> res;
  if (!ec) http::read(stream, buffer, res, ec);
  if (ec) {
    out.error = ec.message();
    return out;
  }
  out.status = static_cast<int>(res.result_int());
  out.server_header = std::string(res[http::field::server]);
  return out;
}

TEST_F(OperationsTest, NativeTlsServesHttpsAndReloadsTheCertificate) {
  MakeCertificate(dir_, "lqe-first");
  std::string ca_first = dir_.Write("ca-first.pem", ReadText(dir_.path() / "cert.pem"));
  WriteConfig(
      "\n  address: " + address_ + "\n  tls:\n    cert_file: cert.pem\n    key_file: key.pem", "");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitFor([&] { return TlsGet(Port(), "/health", ca_first).status == 200; }))
      << serve.Log();
  TlsResult first = TlsGet(
      Port(), "/api/endpoints/query/logs.all?project=x&api_key=" + std::string(kTestKey), ca_first);
  EXPECT_EQ(first.status, 200) << first.error;
  EXPECT_EQ(first.common_name, "lqe-first");
  EXPECT_EQ(first.server_header, "lqe/" + std::string(BuildVersion()));
  // Plain HTTP on the TLS port gets no HTTP answer.
  HttpResult plain = Fetch(Port(), "/health");
  EXPECT_NE(plain.status, 200);

  // A renewed certificate: SIGHUP, and new connections get it.
  MakeCertificate(dir_, "lqe-second");
  std::string ca_second = dir_.Write("ca-second.pem", ReadText(dir_.path() / "cert.pem"));
  kill(serve.Pid(), SIGHUP);
  ASSERT_TRUE(serve.WaitFor([&] {
    return TlsGet(Port(), "/health", ca_second).common_name == "lqe-second";
  })) << serve.Log();
  EXPECT_NE(TlsGet(Port(), "/health", ca_first).error, "");  // the old CA no longer matches
  EXPECT_EQ(serve.Terminate(), 0);
}

TEST_F(OperationsTest, TlsWithAnUnreadableKeyIsAConfigError) {
  dir_.Write("cert.pem", "not a certificate\n");
  dir_.Write("key.pem", "not a key\n");
  WriteConfig(
      "\n  address: " + address_ + "\n  tls:\n    cert_file: cert.pem\n    key_file: key.pem", "");
  LqeRun run = RunLqe("serve --config " + (dir_.path() / "gw.yaml").string());
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.output.find("listen.tls: cannot load"), std::string::npos) << run.output;
}

// Day partitions of `table` for these days before today (UTC).
void MakeOldPartitions(pqxx::connection& conn, const std::string& table,
                       const std::vector<int>& days) {
  pqxx::work tx(conn);
  for (int d : days) {
    tx.exec_params("SELECT logs.ensure_partition($1, (now() AT TIME ZONE 'UTC')::date - $2::int)",
                   table, d);
  }
  tx.commit();
}

bool PartitionExists(pqxx::connection& conn, const std::string& table, int days_ago) {
  pqxx::work tx(conn);
  return tx
      .exec_params(
          "SELECT to_regclass(format('logs.%s_p%s', $1::text, to_char((now() AT TIME ZONE "
          "'UTC')::date - $2::int, 'YYYYMMDD'))) IS NOT NULL",
          table, days_ago)[0][0]
      .as<bool>();
}

TEST_F(OperationsTest, ServeDropsExpiredPartitionsOnItsScheduleAndReportsUsage) {
  pqxx::connection conn(db_.dsn());
  MakeOldPartitions(conn, "edge", {30, 8, 6});
  MakeOldPartitions(conn, "postgres", {5, 1});
  WriteConfig(address_, "retention:\n  dsn: " + db_.dsn() +
                            "\n  days: 7\n  sources:\n    postgres: 2\n  interval_seconds: 1\n");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  ASSERT_TRUE(serve.WaitFor([&] { return !PartitionExists(conn, "postgres", 5); })) << serve.Log();
  EXPECT_FALSE(PartitionExists(conn, "edge", 30));
  EXPECT_FALSE(PartitionExists(conn, "edge", 8));
  EXPECT_TRUE(PartitionExists(conn, "edge", 6));
  EXPECT_TRUE(PartitionExists(conn, "postgres", 1));
  EXPECT_TRUE(serve.WaitLog("retention: dropped logs.edge_p")) << serve.Log();
  std::string metrics = Fetch(Port(), "/metrics").body;
  EXPECT_GE(Series(metrics, "lqe_retention_partitions_dropped_total"), 3);
  EXPECT_GT(Series(metrics, "lqe_source_bytes{source=\"edge\"}"), 0);
  pqxx::work tx(conn);
  auto oldest_edge =
      tx.exec("SELECT extract(epoch FROM ((now() AT TIME ZONE 'UTC')::date - 6)::timestamp)")[0][0]
          .as<double>();
  EXPECT_EQ(Series(metrics, "lqe_source_oldest_day_timestamp_seconds{source=\"edge\"}"),
            oldest_edge)
      << metrics;
  EXPECT_EQ(serve.Terminate(), 0);
}

TEST_F(OperationsTest, WithoutARetentionDsnNothingIsDroppedButUsageIsMeasured) {
  pqxx::connection conn(db_.dsn());
  MakeOldPartitions(conn, "edge", {30});
  WriteConfig(address_, "");
  Serve serve(dir_);
  ASSERT_TRUE(serve.WaitUp(Port())) << serve.Log();
  ASSERT_TRUE(serve.WaitFor([&] {
    return Fetch(Port(), "/metrics").body.find("lqe_source_bytes{source=\"edge\"}") !=
           std::string::npos;
  }));
  EXPECT_TRUE(PartitionExists(conn, "edge", 30));
}

TEST_F(OperationsTest, DiskCapDropsOldestDaysFirstAndNeverToday) {
  pqxx::connection conn(db_.dsn());
  MakeOldPartitions(conn, "edge", {3, 2, 1, 0});
  MakeOldPartitions(conn, "auth", {2});
  RetentionConfig config;
  config.days = 100;
  RetentionPass measured = RunRetentionPass(conn, config, false);
  std::int64_t total = 0;
  for (const auto& u : measured.usage) total += u.bytes;
  ASSERT_GT(total, 0);
  // Room for everything but about one day: the oldest day (edge, 3 days ago) goes first.
  config.max_disk_bytes = static_cast<std::uint64_t>(total) - 1;
  RetentionPass pass = RunRetentionPass(conn, config, true);
  ASSERT_TRUE(pass.locked);
  ASSERT_FALSE(pass.dropped.empty());
  EXPECT_FALSE(PartitionExists(conn, "edge", 3));
  EXPECT_TRUE(PartitionExists(conn, "edge", 1));
  // A cap below one day's size empties every past day, never today.
  config.max_disk_bytes = 1;
  RunRetentionPass(conn, config, true);
  EXPECT_FALSE(PartitionExists(conn, "edge", 1));
  EXPECT_FALSE(PartitionExists(conn, "auth", 2));
  EXPECT_TRUE(PartitionExists(conn, "edge", 0));
}

TEST_F(OperationsTest, ASecondGatewaySkipsWhileAPassHoldsTheLock) {
  pqxx::connection conn(db_.dsn());
  MakeOldPartitions(conn, "edge", {30});
  pqxx::connection other(db_.dsn());
  pqxx::work holding(other);
  holding.exec("SELECT pg_advisory_xact_lock(hashtext('lqe.retention'))");
  RetentionConfig config;
  RetentionPass skipped = RunRetentionPass(conn, config, true);
  EXPECT_FALSE(skipped.locked);
  EXPECT_TRUE(skipped.dropped.empty());
  EXPECT_TRUE(PartitionExists(conn, "edge", 30));
  holding.commit();
  RetentionPass pass = RunRetentionPass(conn, config, true);
  EXPECT_TRUE(pass.locked);
  EXPECT_FALSE(PartitionExists(conn, "edge", 30));
}

}  // namespace
}  // namespace lqe::gateway
