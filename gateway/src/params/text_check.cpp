#include "params/text_check.h"

#include <cstdint>
#include <cstdio>

namespace lqe::gateway {
namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when it is malformed (overlong forms,
// surrogates and code points above U+10FFFF included).
std::size_t Utf8Length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  std::uint8_t lead = byte(i);
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (byte(i + k) & 0x3Fu);
  }
  if ((length == 3 && code < 0x800) || (length == 4 && code < 0x10000) || code > 0x10FFFF ||
      (code >= 0xD800 && code <= 0xDFFF)) {
    return 0;
  }
  return length;
}

}  // namespace

std::optional<std::string> CheckParamText(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '\0') return std::string("contains a NUL byte");
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7F) {
      char code[8];
      std::snprintf(code, sizeof(code), "%04X", u);
      return "contains the control character U+" + std::string(code);
    }
    std::size_t length = Utf8Length(text, i);
    if (length == 0) return std::string("is not valid UTF-8");
    i += length;
  }
  return std::nullopt;
}

}  // namespace lqe::gateway
