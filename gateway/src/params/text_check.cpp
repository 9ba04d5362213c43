#include "params/text_check.h"

#include <cstdint>
#include <cstdio>

#include "lqe/base/utf8.h"

namespace lqe::gateway {

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
    std::size_t length = Utf8SequenceLength(text, i);
    if (length == 0) return std::string("is not valid UTF-8");
    i += length;
  }
  return std::nullopt;
}

}  // namespace lqe::gateway
