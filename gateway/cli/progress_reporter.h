// Progress of long work as one line on a terminal: redrawn in place with \r, rate-limited, and
// erased when done or when other output comes. Off a terminal (pipes, CI, logs) it draws nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>

namespace lqe::cli {

class ProgressReporter {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  struct Line {
    std::string step{};       // "backfilling promoted columns"; a new step restarts rate and ETA
    std::string item{};       // what is worked on now: a partition, a rollup ("" none)
    std::uint64_t done = 0;   // work finished, of total
    std::uint64_t total = 0;  // 0: unknown (no percentage, no ETA)
    bool bytes = false;       // done and total count bytes
    std::uint64_t count = 0;  // with count_noun: shown as a rate over the step, e.g. "events/s"
    std::string count_noun{};
  };

  // `columns`: the terminal's width (a longer line would wrap and break the redraw); 0: unknown.
  ProgressReporter(std::ostream& out, bool terminal, std::string prefix, Clock clock,
                   std::size_t columns = 0,
                   std::chrono::milliseconds interval = std::chrono::milliseconds(200));
  // On stderr when it is a terminal, at its width.
  static ProgressReporter OnStderr(std::string prefix);
  ~ProgressReporter() { Clear(); }
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // Draws `line` when its step or item is new (it may run long with no further update), else
  // when the last drawing is at least `interval` old.
  void Show(const Line& line);
  // Erases the line, before other output and at the end.
  void Clear();

  // The text Show draws for `line`, `elapsed` into its step.
  std::string Format(const Line& line, std::chrono::steady_clock::duration elapsed) const;

 private:
  std::ostream* out_;
  bool terminal_;
  std::string prefix_;
  Clock clock_;
  std::size_t columns_;
  std::chrono::milliseconds interval_;
  bool started_ = false;  // a line was shown since construction
  bool visible_ = false;  // and is on the screen now
  std::string step_, item_;
  std::chrono::steady_clock::time_point step_start_, last_draw_;
};

// An ostream for messages written while progress may be shown (e.g. lqe load's rejected lines):
// each write first erases the progress line, which the next update draws again below.
class ProgressSafeStream : public std::ostream {
 public:
  ProgressSafeStream(std::ostream& target, ProgressReporter& progress);

 private:
  class Buffer : public std::streambuf {
   public:
    Buffer(std::ostream& target, ProgressReporter& progress)
        : target_(target), progress_(progress) {}

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* text, std::streamsize n) override;

   private:
    std::ostream& target_;
    ProgressReporter& progress_;
  };
  Buffer buffer_;
};

}  // namespace lqe::cli
