// Locale-free ASCII character tests, shared by the lexers, the regex converter and the gateway
// (<cctype> depends on the C locale and takes int).
#pragma once

namespace lqe::ascii {

constexpr bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// 0-15 for a hex digit of either case, -1 otherwise.
constexpr int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr bool IsHexDigit(char c) {
  return HexValue(c) >= 0;
}

constexpr bool IsAlnum(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace lqe::ascii
