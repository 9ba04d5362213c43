#include "logapi/bucket_size.h"

#include <array>

namespace lqe::gateway::logapi {
namespace {

constexpr std::array<std::int64_t, 13> kSizes = {1,    5,    10,    30,    60,    300,  600,
                                                 1800, 3600, 10800, 21600, 43200, 86400};

// Floor division for possibly negative times (before 1970).
std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

Buckets ChooseBuckets(std::int64_t start_micros, std::int64_t end_micros,
                      std::int64_t max_buckets) {
  Buckets chosen;
  for (std::int64_t seconds : kSizes) {
    const std::int64_t size = seconds * 1000000;
    const std::int64_t first = FloorDiv(start_micros, size);
    const std::int64_t last = FloorDiv(end_micros - 1, size);  // the bucket of the last instant
    chosen = Buckets{seconds, first * size, last - first + 1};
    if (chosen.count <= max_buckets) break;
  }
  return chosen;
}

}  // namespace lqe::gateway::logapi
