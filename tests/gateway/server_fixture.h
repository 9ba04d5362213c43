// Shared by the gateway's socket tests: a logs.edge table with six rows, a snapshot of
// hand-written PostgreSQL endpoints over it, a server running on a thread, a raw socket client
// for bytes no well-behaved client sends, and a shell helper for the throwaway cluster scripts.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <thread>

#include "http_client.h"
#include "lqe/gateway/server.h"

namespace lqe::gateway::testing {

extern const std::map<std::string, std::string> kAuth;

// Runs a bash script, returns its stdout and stderr without the trailing newlines.
std::string Sh(const std::string& script);
// logs.edge with rows e1..e5 of project p1 and x1 of p2.
void CreateLogs(const std::string& dsn);
// Endpoints: edge.list (project param, max_rows 3), edge.count (cached), slow (a long
// generate_series), sleepy (pg_sleep 0.4 s), limited.ep, wide (50 long rows).
std::shared_ptr<GatewayState> TestState(
    const std::string& dsn, Metrics* metrics,
    const std::string& cached_sql = "SELECT count(*) FROM logs.edge");
// The error message of an error response body.
std::string ErrorMessage(const HttpResult& r);
std::string ErrorReason(const HttpResult& r);

class RunningServer {
 public:
  RunningServer(std::shared_ptr<GatewayState> state, std::shared_ptr<Metrics> metrics,
                StateBuilder builder = nullptr);
  ~RunningServer();
  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;
  unsigned short port() const { return server_.port(); }
  Server& server() { return server_; }
  // Stop() and wait for Run() to return (the destructor then does nothing more).
  void StopAndJoin();

 private:
  Server server_;
  std::thread thread_;
};

// A plain TCP connection for hand-written bytes. Reads give up after `timeout_ms` without data.
class RawConnection {
 public:
  explicit RawConnection(unsigned short port, int timeout_ms = 10000);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  bool Connected() const { return fd_ >= 0; }
  // False when the peer has closed or reset the connection.
  bool Send(const std::string& bytes);
  // Everything until the server closes (or the timeout passes without data).
  std::string ReadAll();
  // One response: head plus Content-Length bytes of body; empty when the connection closed.
  std::string ReadResponse();
  // True when the server closed the connection (EOF or reset) before sending anything more.
  bool ClosedByServer();
  void Close();

 private:
  int fd_ = -1;
  std::string pending_;
};

// Status and parsed parts of a raw response text ("HTTP/1.1 431 ...").
int StatusOf(const std::string& response);
std::string BodyOf(const std::string& response);
std::string MessageOf(const std::string& response);

}  // namespace lqe::gateway::testing
