#include "lqe/diagnostic.h"

#include <algorithm>

namespace lqe {
namespace {

bool IsContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Code points in text[begin, end).
std::uint32_t CountCodePoints(std::string_view text, std::size_t begin, std::size_t end) {
  std::uint32_t n = 0;
  for (std::size_t i = begin; i < end && i < text.size(); ++i) {
    if (!IsContinuationByte(text[i])) ++n;
  }
  return n;
}

// [begin, end) of the line containing offset.
std::pair<std::size_t, std::size_t> LineBounds(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t begin = offset;
  while (begin > 0 && text[begin - 1] != '\n' && text[begin - 1] != '\r') --begin;
  std::size_t end = offset;
  while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
  return {begin, end};
}

}  // namespace

LineColumn LocateOffset(std::string_view text, std::uint32_t offset) {
  const std::size_t stop = std::min<std::size_t>(offset, text.size());
  LineColumn lc;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < stop; ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
        if (i + 1 >= stop) break;  // the offset points at the \n of a \r\n pair
        ++i;
      }
      ++lc.line;
      line_start = i + 1;
    }
  }
  lc.column = CountCodePoints(text, line_start, stop) + 1;
  return lc;
}

std::string_view DiagCodeName(DiagCode code) {
  switch (code) {
    case DiagCode::kSyntax:
      return "syntax_error";
    case DiagCode::kUnsupported:
      return "unsupported";
    case DiagCode::kUnknownName:
      return "unknown_name";
    case DiagCode::kType:
      return "type_error";
    case DiagCode::kSandbox:
      return "sandbox_violation";
    case DiagCode::kLimit:
      return "limit_exceeded";
    case DiagCode::kParam:
      return "invalid_parameter";
  }
  return "error";
}

std::string_view DiagSourceName(DiagSource source) {
  switch (source) {
    case DiagSource::kStored:
      return "query";
    case DiagSource::kConsumerSql:
      return "sql";
    case DiagSource::kConsumerLql:
      return "lql";
  }
  return "query";
}

std::string RenderOneLine(const Diagnostic& diag, std::string_view text) {
  const LineColumn lc = LocateOffset(text, diag.offset);
  return diag.message + " at " + std::to_string(lc.line) + ":" + std::to_string(lc.column);
}

std::string RenderCaret(const Diagnostic& diag, std::string_view text) {
  constexpr std::size_t kWindow = 40;  // code points shown on each side of the error
  std::string out = RenderOneLine(diag, text);
  const auto [begin, end] = LineBounds(text, diag.offset);
  const std::size_t offset = std::min<std::size_t>(diag.offset, text.size());
  // Window start: walk back at most kWindow code points.
  std::size_t from = offset;
  for (std::size_t n = 0; from > begin && n < kWindow;) {
    --from;
    if (!IsContinuationByte(text[from])) ++n;
  }
  std::size_t to = offset;
  for (std::size_t n = 0; to < end && n <= kWindow;) {
    ++to;
    while (to < end && IsContinuationByte(text[to])) ++to;
    ++n;
  }
  const bool cut_left = from > begin;
  const bool cut_right = to < end;
  std::string line = std::string(cut_left ? "..." : "") +
                     std::string(text.substr(from, to - from)) + (cut_right ? "..." : "");
  std::replace(line.begin(), line.end(), '\t', ' ');
  const std::uint32_t caret_col = CountCodePoints(text, from, offset) + (cut_left ? 3 : 0);
  const std::uint32_t caret_len = std::max<std::uint32_t>(
      1, std::min<std::uint32_t>(CountCodePoints(text, offset, offset + diag.length),
                                 CountCodePoints(text, offset, to)));
  out += "\n  " + line + "\n  " + std::string(caret_col, ' ') + std::string(caret_len, '^');
  if (!diag.hint.empty()) out += "\n  hint: " + diag.hint;
  return out;
}

}  // namespace lqe
