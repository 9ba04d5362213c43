// A drain's receiver for tests: a real HTTP server on 127.0.0.1 that keeps every request (body
// un-gzipped) and answers a status the test sets; it can be stopped and started again on the
// same port to play a receiver that is down.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lqe::gateway::testing {

struct Received {
  std::string target;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;                            // decompressed when it came gzipped
};

class DrainReceiver {
 public:
  DrainReceiver();
  ~DrainReceiver();
  DrainReceiver(const DrainReceiver&) = delete;
  DrainReceiver& operator=(const DrainReceiver&) = delete;

  unsigned short Port() const { return port_; }
  std::string Url(const std::string& path = "/hook") const;
  void Start();  // listens (again) on Port()
  void Stop();   // closes the port: connections are refused
  void Answer(int status) { status_.store(status); }
  void Delay(std::chrono::milliseconds delay) { delay_ms_.store(delay.count()); }
  std::vector<Received> Requests() const;
  // Waits up to `timeout` until `done` holds for the requests so far.
  bool WaitFor(const std::function<bool(const std::vector<Received>&)>& done,
               std::chrono::milliseconds timeout) const;

 private:
  void Serve();

  unsigned short port_;
  std::atomic<int> status_{200};
  std::atomic<long long> delay_ms_{0};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<Received> requests_;
};

}  // namespace lqe::gateway::testing
