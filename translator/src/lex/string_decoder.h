// Backslash escapes of BigQuery string, bytes and quoted-identifier literals.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lqe::lex {

struct DecodeError {
  std::string message;     // empty on success
  std::size_t offset = 0;  // into the literal's content
  std::size_t length = 0;
};

// Appends the decoded `content` to `out`. In bytes literals \u and \U are invalid.
DecodeError DecodeEscapes(std::string_view content, bool bytes, std::string& out);

// True when `s` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool IsValidUtf8(std::string_view s);

}  // namespace lqe::lex
