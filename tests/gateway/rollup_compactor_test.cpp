// The gateway's rollup compactor tries its DSN only once it is known to be a writer's: a gateway
// whose only DSN is the read-only query role must not fail (and warn) every interval.
#include "lqe/gateway/rollup_compactor.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

namespace lqe::gateway {
namespace {

// Nothing listens on port 1: every compaction attempt fails at once.
constexpr const char* kUnreachable = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=1";

bool HasLine(const std::string& metrics, const std::string& line) {
  return metrics.find(line + "\n") != std::string::npos;
}

// Polls (5 s at most) until the failure counter is not zero.
bool FailsWithin5s(const RollupCompactor& compactor) {
  for (int i = 0; i < 250; ++i) {
    if (!HasLine(compactor.RenderMetrics(), "lqe_rollup_compaction_failures_total 0")) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(RollupCompactorTest, UnarmedNeverTriesItsDsn) {
  RollupCompactor compactor(kUnreachable, 10, 1000, /*armed=*/false);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // about 30 intervals
  const std::string metrics = compactor.RenderMetrics();
  EXPECT_TRUE(HasLine(metrics, "lqe_rollup_compaction_failures_total 0")) << metrics;
  EXPECT_TRUE(HasLine(metrics, "lqe_rollup_compactions_total 0")) << metrics;
}

TEST(RollupCompactorTest, CommittedIngestArmsIt) {
  RollupCompactor compactor(kUnreachable, 10, 1000, /*armed=*/false);
  compactor.Written(1);  // below compact_after_events: the interval runs it
  EXPECT_TRUE(FailsWithin5s(compactor)) << compactor.RenderMetrics();
}

TEST(RollupCompactorTest, AWriterDsnIsArmedFromTheStart) {
  RollupCompactor compactor(kUnreachable, 10, 1000, /*armed=*/true);
  EXPECT_TRUE(FailsWithin5s(compactor)) << compactor.RenderMetrics();
}

TEST(RollupCompactorTest, ZeroIntervalNeverRuns) {
  RollupCompactor compactor(kUnreachable, 0, 1, /*armed=*/true);
  compactor.Written(5);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(HasLine(compactor.RenderMetrics(), "lqe_rollup_compaction_failures_total 0"));
}

}  // namespace
}  // namespace lqe::gateway
