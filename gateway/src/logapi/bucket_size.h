// The histogram's bucket: the smallest round size (1s ... 1d) whose buckets, aligned to
// multiples of the size since the epoch, cover a range in at most a given number of buckets.
#pragma once

#include <cstdint>

namespace lqe::gateway::logapi {

struct Buckets {
  std::int64_t seconds = 0;       // the bucket size
  std::int64_t first_micros = 0;  // the start of the first bucket (at or before the range start)
  std::int64_t count = 0;         // buckets covering [start, end)
};

// For [start_micros, end_micros) (end > start) and at most max_buckets buckets. A range too long
// for max_buckets days gets day buckets (at most 32 of them over 31 days).
Buckets ChooseBuckets(std::int64_t start_micros, std::int64_t end_micros, std::int64_t max_buckets);

}  // namespace lqe::gateway::logapi
