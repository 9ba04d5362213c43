// UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF),
// shared by parameter checks, result rendering and error bodies. Hand-written because the
// libraries at hand either validate whole strings only (no position) or pull in ICU.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lqe {

// Length of the well-formed UTF-8 sequence starting at text[i] (1 for ASCII), or 0 when the
// bytes there are not one.
inline std::size_t Utf8SequenceLength(std::string_view text, std::size_t i) {
  auto at = [&](std::size_t k) -> unsigned char {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
  };
  const unsigned char lead = at(0);
  if (i < text.size() && lead < 0x80) return 1;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  std::size_t length = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) lo = 0xA0;  // overlong
    if (lead == 0xED) hi = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) lo = 0x90;  // overlong
    if (lead == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (at(1) < lo || at(1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if ((at(k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

inline bool IsValidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = Utf8SequenceLength(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// `text` with every byte that is not part of a well-formed sequence replaced by U+FFFD, so
// text echoed from a request (a path, a name) always makes valid JSON.
inline std::string ToValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace lqe
