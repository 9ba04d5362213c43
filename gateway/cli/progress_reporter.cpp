#include "progress_reporter.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

namespace lqe::cli {
namespace {

using std::chrono::duration_cast;
using std::chrono::seconds;

std::string Size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), unit == 0 ? "%.0f %s" : "%.1f %s", value, kUnits[unit]);
  return text;
}

std::string Duration(long long total_seconds) {
  char text[32];
  if (total_seconds >= 3600) {
    std::snprintf(text, sizeof(text), "%lld:%02lld:%02lld", total_seconds / 3600,
                  total_seconds / 60 % 60, total_seconds % 60);
  } else {
    std::snprintf(text, sizeof(text), "%lld:%02lld", total_seconds / 60, total_seconds % 60);
  }
  return text;
}

}  // namespace

ProgressReporter::ProgressReporter(std::ostream& out, bool terminal, std::string prefix,
                                   Clock clock, std::size_t columns,
                                   std::chrono::milliseconds interval)
    : out_(&out),
      terminal_(terminal),
      prefix_(std::move(prefix)),
      clock_(std::move(clock)),
      columns_(columns),
      interval_(interval) {}

ProgressReporter ProgressReporter::OnStderr(std::string prefix) {
  const bool terminal = isatty(STDERR_FILENO) == 1;
  winsize size{};
  const std::size_t columns =
      terminal && ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
  return {std::cerr, terminal, std::move(prefix), std::chrono::steady_clock::now, columns};
}

std::string ProgressReporter::Format(const Line& line,
                                     std::chrono::steady_clock::duration elapsed) const {
  std::string text = prefix_;
  if (!line.step.empty()) text += ": " + line.step;
  if (!line.item.empty()) text += ": " + line.item;
  std::vector<std::string> details;
  const auto amount = [&line](std::uint64_t n) { return line.bytes ? Size(n) : std::to_string(n); };
  if (line.total > 0) {
    details.push_back(amount(line.done) + " of " + amount(line.total) + " (" +
                      std::to_string(line.done * 100 / line.total) + "%)");
  } else if (line.bytes) {
    details.push_back(Size(line.done) + " read");
  }
  const double secs = std::chrono::duration<double>(elapsed).count();
  if (!line.count_noun.empty() && secs > 0) {
    details.push_back(
        std::to_string(static_cast<long long>(static_cast<double>(line.count) / secs)) + " " +
        line.count_noun + "/s");
  }
  // An estimate from the step's pace so far, once there is some.
  if (line.total > line.done && line.done > 0 && elapsed >= seconds(1)) {
    const double left =
        secs * static_cast<double>(line.total - line.done) / static_cast<double>(line.done);
    details.push_back("ETA " + Duration(std::llround(left)));
  }
  for (std::size_t i = 0; i < details.size(); ++i) {
    text += (i > 0 ? ", " : line.item.empty() ? ": " : ", ") + details[i];
  }
  if (columns_ > 1 && text.size() > columns_ - 1) text.resize(columns_ - 1);
  return text;
}

void ProgressReporter::Show(const Line& line) {
  if (!terminal_) return;
  const auto now = clock_();
  const bool new_step = !started_ || line.step != step_;
  if (new_step) step_start_ = now;
  if (!new_step && line.item == item_ && now - last_draw_ < interval_) return;
  started_ = true;
  step_ = line.step;
  item_ = line.item;
  last_draw_ = now;
  // \r to the line's start, the text, then erase what a longer earlier text left after it.
  *out_ << '\r' << Format(line, now - step_start_) << "\x1b[K" << std::flush;
  visible_ = true;
}

void ProgressReporter::Clear() {
  if (!visible_) return;
  *out_ << "\r\x1b[K" << std::flush;
  visible_ = false;
}

ProgressSafeStream::ProgressSafeStream(std::ostream& target, ProgressReporter& progress)
    : std::ostream(nullptr), buffer_(target, progress) {
  rdbuf(&buffer_);
}

ProgressSafeStream::Buffer::int_type ProgressSafeStream::Buffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  progress_.Clear();
  target_.put(traits_type::to_char_type(c));
  return target_ ? c : traits_type::eof();
}

std::streamsize ProgressSafeStream::Buffer::xsputn(const char* text, std::streamsize n) {
  progress_.Clear();
  target_.write(text, n);
  return target_ ? n : 0;
}

}  // namespace lqe::cli
