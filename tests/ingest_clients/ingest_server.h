// `lqe serve` as a real process on a real socket over a migrated test database, configured for
// HTTP ingest, and the two things the ingest_clients tests do with it: post events the way a
// shipper does, and read them back through the stored `logs.all` endpoint (sandboxed `sql=`).
#pragma once

#include <sys/types.h>

#include <boost/json/array.hpp>
#include <map>
#include <string>
#include <vector>

#include "http_client.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::ingest_clients {

using gateway::testing::HttpResult;

class IngestServer {
 public:
  // `extra_yaml` is appended to the config (e.g. a `sources:` list); the API key kTestKey may
  // run every endpoint and ingest into every source.
  IngestServer(const lqe::testing::TestDatabase& db, const std::string& extra_yaml = "");
  ~IngestServer();
  IngestServer(const IngestServer&) = delete;
  IngestServer& operator=(const IngestServer&) = delete;

  bool Up() const { return up_; }
  unsigned short Port() const { return port_; }
  std::string BaseUrl() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string Log() const;  // the server's stdout and stderr so far

  // POST `body` to `target` with the test key in x-api-key and Content-Type application/json.
  HttpResult Post(const std::string& target, const std::string& body,
                  const std::map<std::string, std::string>& extra_headers = {}) const;

  // Runs `sql` through logs.all for project "default" (no time bounds) and returns its rows;
  // a non-200 answer fails the calling test with the body and returns no rows.
  boost::json::array LogsAll(const std::string& sql) const;

 private:
  gateway::testing::TempDir dir_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
  bool up_ = false;
};

// The output and exit status of a child process.
struct ProcessResult {
  int exit_code = -1;  // -1: killed or did not exit normally
  std::string output;  // stdout and stderr together
};

// A child process (found on PATH) whose standard input is a pipe the test closes when it wants
// the child to finish; stdout and stderr go to a temporary file.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();  // kills the child if it still runs
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  void CloseStdin();
  // Waits for the child to exit (killed after `timeout_s`).
  ProcessResult Wait(int timeout_s);

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  std::string output_path_;
};

// The Supabase source names self-hosted Vector posts to, by lqe table.
std::string SupabaseSourceName(const std::string& table);

}  // namespace lqe::ingest_clients
