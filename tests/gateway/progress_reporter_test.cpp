// The progress line of lqe's long commands, on a fake terminal with a clock the test moves:
// drawn in place, rate-limited, erased at the end and before other output, silent off a terminal.
#include "progress_reporter.h"

#include <gtest/gtest.h>

#include <sstream>

namespace lqe::cli {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class ProgressReporterTest : public ::testing::Test {
 protected:
  ProgressReporter Reporter(bool terminal, std::size_t columns = 0) {
    return {out_, terminal, "lqe load", [this] { return now_; }, columns};
  }
  // What was written since the last call.
  std::string Written() {
    std::string text = out_.str();
    out_.str("");
    return text;
  }
  static ProgressReporter::Line Bytes(std::uint64_t done, std::uint64_t total,
                                      std::uint64_t events) {
    return {.done = done, .total = total, .bytes = true, .count = events, .count_noun = "events"};
  }

  std::ostringstream out_;
  std::chrono::steady_clock::time_point now_{seconds(1000)};
};

TEST_F(ProgressReporterTest, OffATerminalNothingIsWritten) {
  {
    ProgressReporter progress = Reporter(false);
    progress.Show(Bytes(1, 10, 1));
    now_ += seconds(5);
    progress.Show(Bytes(5, 10, 5));
    progress.Clear();
  }
  EXPECT_EQ(Written(), "");
}

TEST_F(ProgressReporterTest, RedrawsInPlaceAtMostEveryIntervalAndClearsAtTheEnd) {
  {
    ProgressReporter progress = Reporter(true);
    progress.Show(Bytes(0, std::uint64_t{4} << 20, 0));
    EXPECT_EQ(Written(), "\rlqe load: 0 B of 4.0 MiB (0%)\x1b[K");
    now_ += milliseconds(100);  // within the interval: not redrawn
    progress.Show(Bytes(std::uint64_t{1} << 20, std::uint64_t{4} << 20, 1000));
    EXPECT_EQ(Written(), "");
    now_ += seconds(2);  // 2.1 s in: 1 MiB of 4 read, 3 MiB to go at that pace
    progress.Show(Bytes(std::uint64_t{1} << 20, std::uint64_t{4} << 20, 21000));
    EXPECT_EQ(Written(), "\rlqe load: 1.0 MiB of 4.0 MiB (25%), 10000 events/s, ETA 0:06\x1b[K");
  }
  EXPECT_EQ(Written(), "\r\x1b[K");  // erased when the work is done
}

TEST_F(ProgressReporterTest, WithoutATotalShowsBytesReadAndTheRateOnly) {
  ProgressReporter progress = Reporter(true);
  progress.Show(Bytes(0, 0, 0));
  Written();
  now_ += seconds(4);
  progress.Show(Bytes(std::uint64_t{3} << 30, 0, 2000));
  EXPECT_EQ(Written(), "\rlqe load: 3.0 GiB read, 500 events/s\x1b[K");
}

TEST_F(ProgressReporterTest, ANewStepOrItemIsDrawnAtOnce) {
  ProgressReporter progress = Reporter(true);
  progress.Show({.step = "building rollup", .item = "edge_minute", .done = 0, .total = 3});
  EXPECT_EQ(Written(), "\rlqe load: building rollup: edge_minute, 0 of 3 (0%)\x1b[K");
  now_ += milliseconds(1);
  progress.Show({.step = "building rollup", .item = "edge_hour", .done = 1, .total = 3});
  EXPECT_EQ(Written(), "\rlqe load: building rollup: edge_hour, 1 of 3 (33%)\x1b[K");
  now_ += milliseconds(1);
  progress.Show({.step = "creating partitions"});
  EXPECT_EQ(Written(), "\rlqe load: creating partitions\x1b[K");
  // The ETA comes from the step's own pace: the new step started 3 s ago.
  now_ += seconds(3);
  progress.Show({.step = "backfilling promoted columns", .done = 0, .total = 4});
  now_ += seconds(3);
  progress.Show({.step = "backfilling promoted columns", .done = 1, .total = 4});
  EXPECT_EQ(Written(),
            "\rlqe load: backfilling promoted columns: 0 of 4 (0%)\x1b[K"
            "\rlqe load: backfilling promoted columns: 1 of 4 (25%), ETA 0:09\x1b[K");
}

TEST_F(ProgressReporterTest, ALineIsCutToTheTerminalWidth) {
  ProgressReporter progress = Reporter(true, 20);
  progress.Show({.step = "a step with a long name", .item = "and an item"});
  EXPECT_EQ(Written(), "\rlqe load: a step wi\x1b[K");
}

TEST_F(ProgressReporterTest, OtherOutputErasesTheLineFirst) {
  ProgressReporter progress = Reporter(true);
  ProgressSafeStream safe(out_, progress);
  progress.Show(Bytes(10, 100, 1));
  Written();
  safe << "line 7: not JSON" << '\n';
  EXPECT_EQ(Written(), "\r\x1b[Kline 7: not JSON\n");
  // Drawn again below on the next update after the interval, not at once.
  progress.Show(Bytes(20, 100, 2));
  EXPECT_EQ(Written(), "");
  now_ += seconds(1);
  progress.Show(Bytes(20, 100, 2));
  EXPECT_EQ(Written().substr(0, 31), "\rlqe load: 20 B of 100 B (20%),");
  progress.Clear();
  Written();
  progress.Clear();  // nothing shown: nothing written
  EXPECT_EQ(Written(), "");
}

}  // namespace
}  // namespace lqe::cli
