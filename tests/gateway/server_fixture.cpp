#include "server_fixture.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <cerrno>
#include <cstdio>
#include <pqxx/pqxx>

#include "support.h"

namespace lqe::gateway::testing {

const std::map<std::string, std::string> kAuth = {{"X-API-KEY", kTestKey}};

std::string Sh(const std::string& script) {
  std::string cmd = "bash -c '" + script + "' 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[512];
  while (pipe != nullptr && fgets(buf, sizeof(buf), pipe) != nullptr) out += buf;
  if (pipe != nullptr) pclose(pipe);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

void CreateLogs(const std::string& dsn) {
  pqxx::connection c(dsn);
  pqxx::work tx(c);
  tx.exec(
      "CREATE SCHEMA IF NOT EXISTS logs;"
      "CREATE TABLE IF NOT EXISTS logs.edge (id text, timestamp timestamptz, event_message text,"
      " project text, metadata jsonb);");
  tx.exec(
      "INSERT INTO logs.edge VALUES"
      " ('e1', '2025-01-15 10:00:00.000001+00', 'GET / from 10.0.0.1', 'p1', "
      "'{\"request\":{\"method\":\"GET\"}}'),"
      " ('e2', '2025-01-15 10:00:02+00', 'second', 'p1', '{\"request\":{\"method\":\"POST\"}}'),"
      " ('e3', '2025-01-15 10:00:01+00', 'third', 'p1', '{}'),"
      " ('e4', '2025-01-15 10:00:04+00', 'fourth', 'p1', '{}'),"
      " ('e5', '2025-01-15 10:00:03+00', 'fifth', 'p1', '{}'),"
      " ('x1', '2025-01-15 10:00:05+00', 'other project', 'p2', '{}')");
  tx.commit();
}

std::shared_ptr<GatewayState> TestState(const std::string& dsn, Metrics* metrics,
                                        const std::string& cached_sql) {
  auto list = MakeEndpoint("edge.list",
                           "SELECT id, timestamp, event_message, metadata FROM logs.edge "
                           "WHERE project = $1 ORDER BY timestamp DESC",
                           {Col("id", TypeKind::kString), Col("timestamp", TypeKind::kTimestamp),
                            Col("event_message", TypeKind::kString), RecordCol("metadata")},
                           {"project"});
  AddParam(*list, "project", ParamType::kString, true);
  list->max_rows = 3;
  auto cached = MakeEndpoint("edge.count", cached_sql, {Col("n", TypeKind::kInt64)});
  cached->cache_seconds = 60;
  cached->version = cached_sql;
  auto slow = MakeEndpoint("slow", "SELECT count(*) FROM generate_series(1, 200000000) AS g",
                           {Col("n", TypeKind::kInt64)});
  auto sleepy = MakeEndpoint("sleepy", "SELECT 1 FROM pg_sleep(0.4)", {Col("n", TypeKind::kInt64)});
  auto limited = MakeEndpoint("limited.ep", "SELECT 1", {Col("n", TypeKind::kInt64)});
  auto wide = MakeEndpoint(
      "wide", "SELECT g AS n, repeat('log line ' || g, 40) AS s FROM generate_series(1, 50) AS g",
      {Col("n", TypeKind::kInt64), Col("s", TypeKind::kString)});
  auto state = MakeState({list, cached, slow, sleepy, limited, wide}, metrics);
  state->config.dsn = dsn;
  state->config.listen_port = 0;
  state->config.io_threads = 2;
  state->config.pool_size = 4;
  state->config.statement_timeout_ms = 1500;
  state->config.max_url_bytes = 8192;
  state->config.max_header_bytes = 8192;
  state->config.access_log = false;
  return state;
}

RunningServer::RunningServer(std::shared_ptr<GatewayState> state, std::shared_ptr<Metrics> metrics,
                             StateBuilder builder)
    : server_("test.yaml", std::move(state), std::move(metrics), std::move(builder)) {
  std::string error = server_.Bind();
  EXPECT_EQ(error, "");
  thread_ = std::thread([this] { server_.Run(false); });
}

RunningServer::~RunningServer() {
  StopAndJoin();
}

void RunningServer::StopAndJoin() {
  if (!thread_.joinable()) return;
  server_.Stop();
  thread_.join();
}

std::string ErrorMessage(const HttpResult& r) {
  return std::string(boost::json::parse(r.body).at("error").at("message").as_string());
}

std::string ErrorReason(const HttpResult& r) {
  return std::string(boost::json::parse(r.body).at("error").at("reason").as_string());
}

RawConnection::RawConnection(unsigned short port, int timeout_ms) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0) return;
  timeval tv{};
  tv.tv_sec = timeout_ms / 1000;
  tv.tv_usec = static_cast<suseconds_t>(timeout_ms % 1000) * 1000;
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) Close();
}

RawConnection::~RawConnection() {
  Close();
}

void RawConnection::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool RawConnection::Send(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

std::string RawConnection::ReadAll() {
  std::string out = std::move(pending_);
  pending_.clear();
  char buffer[65536];
  for (;;) {
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
  }
  return out;
}

std::string RawConnection::ReadResponse() {
  char buffer[65536];
  for (;;) {
    std::size_t end = pending_.find("\r\n\r\n");
    if (end != std::string::npos) {
      std::size_t length = 0;
      std::size_t at = pending_.find("Content-Length: ");
      if (at != std::string::npos && at < end) length = std::stoul(pending_.substr(at + 16));
      if (pending_.size() >= end + 4 + length) {
        std::string response = pending_.substr(0, end + 4 + length);
        pending_.erase(0, end + 4 + length);
        return response;
      }
    }
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n <= 0) return {};
    pending_.append(buffer, static_cast<std::size_t>(n));
  }
}

bool RawConnection::ClosedByServer() {
  char byte = 0;
  ssize_t n = ::recv(fd_, &byte, 1, 0);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

int StatusOf(const std::string& response) {
  if (response.rfind("HTTP/1.", 0) != 0 || response.size() < 12) return 0;
  return std::stoi(response.substr(9, 3));
}

std::string BodyOf(const std::string& response) {
  std::size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : response.substr(end + 4);
}

std::string MessageOf(const std::string& response) {
  boost::system::error_code ec;
  auto body = boost::json::parse(BodyOf(response), ec);
  if (ec || !body.is_object()) return "<no JSON error: " + BodyOf(response) + ">";
  return std::string(body.at("error").at("message").as_string());
}

}  // namespace lqe::gateway::testing
