// A cap on the uncached queries one API key runs at once, so a single caller cannot take every
// pooled connection. Thread-safe; slots are released by destruction.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace lqe::gateway {

class KeyLimiter {
 public:
  class Slot {
   public:
    Slot(KeyLimiter* owner, std::string key) : owner_(owner), key_(std::move(key)) {}
    Slot(Slot&& other) noexcept : owner_(other.owner_), key_(std::move(other.key_)) {
      other.owner_ = nullptr;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (owner_ != nullptr) owner_->Release(key_);
    }

   private:
    KeyLimiter* owner_;
    std::string key_;
  };

  // A slot for `key`, or nullopt when it already holds `limit` of them.
  std::optional<Slot> TryAcquire(const std::string& key, int limit) {
    std::lock_guard lock(mutex_);
    int& running = running_[key];
    if (running >= limit) return std::nullopt;
    ++running;
    return std::optional<Slot>(std::in_place, this, key);
  }

  int Running(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto it = running_.find(key);
    return it == running_.end() ? 0 : it->second;
  }

 private:
  void Release(const std::string& key) {
    std::lock_guard lock(mutex_);
    if (--running_[key] == 0) running_.erase(key);
  }

  std::mutex mutex_;
  std::unordered_map<std::string, int> running_;
};

}  // namespace lqe::gateway
