// A background thread that reads a mark every period and calls `changed` when it differs from
// the last one read (an empty mark, unreadable, is skipped). The gateway reloads through it when
// the endpoints created through the management API change.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace lqe::gateway {

class ChangeWatch {
 public:
  ChangeWatch(std::function<std::string()> mark, std::function<void()> changed,
              std::chrono::milliseconds period)
      : mark_(std::move(mark)), changed_(std::move(changed)), period_(period) {}
  ~ChangeWatch() { Stop(); }
  ChangeWatch(const ChangeWatch&) = delete;
  ChangeWatch& operator=(const ChangeWatch&) = delete;

  void Start() {
    thread_ = std::thread([this] {
      std::string last = mark_();
      std::unique_lock lock(mutex_);
      while (!wake_.wait_for(lock, period_, [this] { return stopping_; })) {
        lock.unlock();
        std::string now = mark_();
        if (!now.empty() && now != last) {
          if (!last.empty()) changed_();
          last = std::move(now);
        }
        lock.lock();
      }
    });
  }
  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::function<std::string()> mark_;
  std::function<void()> changed_;
  std::chrono::milliseconds period_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace lqe::gateway
