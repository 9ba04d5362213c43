// Time source of the cache, injected so tests drive it with a fake clock instead of sleeping.
#pragma once

#include <chrono>

namespace lqe::gateway {

class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  virtual ~Clock() = default;
  virtual time_point Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  time_point Now() const override { return std::chrono::steady_clock::now(); }
};

}  // namespace lqe::gateway
