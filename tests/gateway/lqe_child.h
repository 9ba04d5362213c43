// The built lqe binary as a child process, for tests that need the real executable (signals, pid
// files, environment-only configuration, file-descriptor limits). Killed with SIGKILL when
// destroyed, so a failing test never leaves a server behind.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace lqe::gateway::testing {

// A TCP port on 127.0.0.1 that was free a moment ago.
unsigned short FreePort();

struct ChildOptions {
  std::vector<std::string> args;           // after the binary's path
  std::map<std::string, std::string> env;  // set in (or replacing) the inherited environment
  std::string log_path;                    // stdout and stderr
  rlim_t max_files = 0;                    // RLIMIT_NOFILE in the child when non-zero
};

class LqeChild {
 public:
  explicit LqeChild(ChildOptions options);
  ~LqeChild();
  LqeChild(const LqeChild&) = delete;
  LqeChild& operator=(const LqeChild&) = delete;

  pid_t Pid() const { return pid_; }
  // False once the process has ended (reaped; its status then in ExitStatus()).
  bool Alive();
  int ExitStatus() const { return exit_status_; }
  // Polls GET /health on `port` until it answers 200, the process ends, or `limit` passes.
  bool WaitHealthy(unsigned short port, std::chrono::milliseconds limit = std::chrono::seconds(30));
  // Waits for the process to end by itself; its exit status (-1: still running after `limit`,
  // or ended by a signal).
  int Wait(std::chrono::milliseconds limit = std::chrono::seconds(30));
  // SIGTERM, then waits for the end; the exit status (-1: ended by a signal).
  int Terminate();
  void Kill();
  std::string Log() const;
  // User plus system CPU seconds so far, from /proc.
  double CpuSeconds() const;

 private:
  void Reap(int status);

  std::string log_path_;
  pid_t pid_ = -1;
  int exit_status_ = -1;
};

}  // namespace lqe::gateway::testing
