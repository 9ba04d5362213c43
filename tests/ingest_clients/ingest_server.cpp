#include "ingest_server.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <thread>

#include "lqe/schema/migrate.h"
#include "lqe_child.h"

namespace lqe::ingest_clients {
namespace {

using gateway::testing::Fetch;
using gateway::testing::FreePort;
using gateway::testing::kTestKey;

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

IngestServer::IngestServer(const lqe::testing::TestDatabase& db, const std::string& extra_yaml)
    : port_(FreePort()) {
  {
    pqxx::connection conn(db.dsn());
    schema::Migrate(conn, schema::MigrateOptions{});
  }
  const std::string config = dir_.Write(
      "ingest.yaml",
      "listen: 127.0.0.1:" + std::to_string(port_) + "\ndatabase:\n  dsn: " + db.dsn() +
          "\n  pool_size: 2\ncatalogue_file: " +
          lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
          "\nendpoints_dir: " + lqe::testing::SourcePath("sql") +
          "\napi_keys:\n  - name: shipper\n    sha256: " + gateway::testing::Sha256Hex(kTestKey) +
          "\n    endpoints: ['*']\n    ingest: ['*']\n" + extra_yaml);
  const std::string log = (dir_.path() / "serve.log").string();
  pid_ = fork();
  if (pid_ == 0) {
    FILE* out = std::freopen(log.c_str(), "w", stdout);
    if (out != nullptr) dup2(fileno(stdout), STDERR_FILENO);
    const std::string binary = lqe::testing::LqeBinary();
    execl(binary.c_str(), binary.c_str(), "serve", "--config", config.c_str(), nullptr);
    _exit(127);
  }
  for (int i = 0; i < 100 && !up_; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {  // exited: a refused config
      pid_ = -1;
      break;
    }
    try {
      up_ = Fetch(port_, "/health").status == 200;
    } catch (const std::exception&) {
      // not listening yet
    }
  }
}

IngestServer::~IngestServer() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::string IngestServer::Log() const {
  return ReadWhole((dir_.path() / "serve.log").string());
}

HttpResult IngestServer::Post(const std::string& target, const std::string& body,
                              const std::map<std::string, std::string>& extra_headers) const {
  std::map<std::string, std::string> headers{{"x-api-key", kTestKey},
                                             {"Content-Type", "application/json"}};
  for (const auto& [name, value] : extra_headers) headers[name] = value;
  return Fetch(port_, target, headers, "POST", body);
}

boost::json::array IngestServer::LogsAll(const std::string& sql) const {
  const std::string target = "/api/endpoints/query/logs.all?project=default&sql=" +
                             boost::urls::encode(sql, boost::urls::unreserved_chars);
  const HttpResult r = Fetch(port_, target, {{"x-api-key", kTestKey}});
  EXPECT_EQ(r.status, 200) << sql << "\n" << r.body << r.error;
  if (r.status != 200) return {};
  boost::json::value body = boost::json::parse(r.body);
  return body.as_object().at("result").as_array();
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  const std::string name =
      (std::filesystem::temp_directory_path() / "lqe-ingest-client-XXXXXX").string();
  std::vector<char> path_template(name.begin(), name.end());
  path_template.push_back('\0');
  const int out_fd = mkstemp(path_template.data());
  output_path_ = path_template.data();
  int in_pipe[2] = {-1, -1};
  if (out_fd < 0 || pipe(in_pipe) != 0) return;
  pid_ = fork();
  if (pid_ == 0) {
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
    close(in_pipe[1]);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out_fd);
  close(in_pipe[0]);
  stdin_fd_ = in_pipe[1];
}

ChildProcess::~ChildProcess() {
  CloseStdin();
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (!output_path_.empty()) std::remove(output_path_.c_str());
}

void ChildProcess::CloseStdin() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  stdin_fd_ = -1;
}

ProcessResult ChildProcess::Wait(int timeout_s) {
  ProcessResult result;
  if (pid_ <= 0) return result;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.output = ReadWhole(output_path_);
  return result;
}

std::string SupabaseSourceName(const std::string& table) {
  static const std::map<std::string, std::string> names{
      {"edge", "cloudflare.logs.prod"},     {"postgres", "postgres.logs"},
      {"function_edge", "deno-relay-logs"}, {"function_events", "deno-subhosting-events"},
      {"auth", "gotrue.logs.prod"},         {"realtime", "realtime.logs.prod"},
      {"storage", "storage.logs.prod.2"},   {"restapi", "postgREST.logs.prod"},
      {"pooler", "pgbouncer.logs.prod"}};
  return names.at(table);
}

}  // namespace lqe::ingest_clients
