// Locale-free ASCII character tests and case folding, shared by the lexers, the resolver, the
// regex converter, the config loader and the gateway (<cctype> depends on the C locale and takes
// int; BigQuery names and config keys are case-insensitive in ASCII only).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

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

constexpr bool IsUpper(char c) {
  return c >= 'A' && c <= 'Z';
}

constexpr bool IsLower(char c) {
  return c >= 'a' && c <= 'z';
}

constexpr bool IsAlpha(char c) {
  return IsUpper(c) || IsLower(c);
}

constexpr bool IsAlnum(char c) {
  return IsDigit(c) || IsAlpha(c);
}

constexpr bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

constexpr char ToLower(char c) {
  return IsUpper(c) ? static_cast<char>(c + ('a' - 'A')) : c;
}

constexpr char ToUpper(char c) {
  return IsLower(c) ? static_cast<char>(c - ('a' - 'A')) : c;
}

inline std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ToLower(c);
  return out;
}

inline std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ToUpper(c);
  return out;
}

constexpr bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ToLower(x) == ToLower(y);
         });
}

}  // namespace lqe::ascii
