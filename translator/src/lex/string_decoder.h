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

// Appends the decoded `content` to `out`. In bytes literals \u and \U are invalid. When
// `doubled_quote` is not '\0', two of it in a row stand for one (the SQL-standard '' escape that
// clients send inside single-quoted literals).
DecodeError DecodeEscapes(std::string_view content, bool bytes, char doubled_quote,
                          std::string& out);

// True when `s` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool IsValidUtf8(std::string_view s);

}  // namespace lqe::lex
