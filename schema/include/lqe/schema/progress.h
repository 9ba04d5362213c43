// Progress of long database work (backfills, rollup builds, partition moves), handed to the
// caller, which decides whether and how to show it (lqe draws it on a terminal only).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace lqe::schema {

struct WorkProgress {
  std::string_view step{};  // "backfilling promoted columns"
  std::string_view item{};  // what is being worked on now: a partition, a rollup ("" none)
  std::size_t done = 0;     // items of the step finished before this one
  std::size_t total = 0;    // items in the step; 0: not known
};

// Called before each item starts; an empty function reports nothing.
using ProgressCallback = std::function<void(const WorkProgress&)>;

}  // namespace lqe::schema
