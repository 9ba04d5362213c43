// Small pieces shared by the LQL parser files: character classes, a cursor over the text with
// the value readers, and positioned errors.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/diagnostic.h"
#include "lql/rules.h"

namespace lqe::lql {

// Thrown inside the parser and the lowering only; Parse() and Lower() return its Diagnostic.
struct LqlError {
  Diagnostic diag;
};

inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
inline bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
inline bool IsAlnum(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool IsPathChar(char c) {
  return IsAlnum(c) || c == '.' || c == '_';
}

inline SourceSpan Span(std::size_t begin, std::size_t end) {
  return {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)};
}

Diagnostic MakeDiag(DiagCode code, std::string message, std::size_t offset, std::size_t length);

// User text for an error message, in double quotes with " and \ backslash-escaped: at most
// 40 bytes (then "..."), control bytes and broken UTF-8 replaced by '?', so messages stay
// printable and valid UTF-8.
std::string QuoteForMessage(std::string_view text);

struct Cursor {
  explicit Cursor(std::string_view t) : text(t) {}

  bool AtEnd() const { return pos >= text.size(); }
  char Peek() const { return text[pos]; }
  char PeekAt(std::size_t k) const { return text[pos + k]; }
  void SkipSpace();
  std::size_t TokenEnd(std::size_t from) const;  // the next whitespace or the end
  // `lql parse error: unexpected "<rest of the token>"` at `at`.
  LqlError Unexpected(std::size_t at) const;
  Value Quoted();  // at '"': up to the closing quote; \" and \\ unescaped
  // Up to whitespace; \" is a quote (kept escaped for regexes), a bare '"' is an error.
  Value RawToken(bool keep_escapes = false);
  Value Word();  // a free-text word: up to whitespace, \" unescaped; '"' and ':' are errors
  // "m.a.b" -> {"metadata", "a", "b"}; empty segments are an error at `begin`.
  std::vector<std::string> SplitPath(std::string_view key, std::size_t begin) const;

  std::string_view text;
  std::size_t pos = 0;
};

}  // namespace lqe::lql
