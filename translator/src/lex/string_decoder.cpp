// Hand-written: the escape set is BigQuery's own (\` and \? included, octal of exactly three
// digits), which no library we ship decodes.
#include "lex/string_decoder.h"

#include <cstdint>

#include "lqe/base/ascii.h"

namespace lqe::lex {
namespace {

void AppendUtf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

char SimpleEscape(char c) {
  switch (c) {
    case 'a':
      return '\a';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    case '\\':
      return '\\';
    case '?':
      return '?';
    case '"':
      return '"';
    case '\'':
      return '\'';
    case '`':
      return '`';
    default:
      return '\0';
  }
}

// Reads `n` hex digits at content[i]; -1 if any is missing or not hex.
long ReadHex(std::string_view content, std::size_t i, std::size_t n) {
  if (i + n > content.size()) {
    return -1;
  }
  long v = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const int h = ascii::HexValue(content[i + k]);
    if (h < 0) {
      return -1;
    }
    v = v * 16 + h;
  }
  return v;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size()) {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) {
        return false;
      }
      cp = (cp << 6) | (d & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += n + 1;
  }
  return true;
}

DecodeError DecodeEscapes(std::string_view content, bool bytes, char doubled_quote,
                          std::string& out) {
  out.reserve(out.size() + content.size());
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (doubled_quote != '\0' && content[i] == doubled_quote && i + 1 < content.size() &&
        content[i + 1] == doubled_quote) {
      out += doubled_quote;
      ++i;
      continue;
    }
    if (content[i] != '\\') {
      out += content[i];
      continue;
    }
    if (i + 1 >= content.size()) {
      return {"invalid escape sequence at end of literal", i, 1};
    }
    const char e = content[i + 1];
    if (const char simple = SimpleEscape(e); simple != '\0') {
      out += simple;
      ++i;
    } else if (e >= '0' && e <= '7') {
      if (i + 3 >= content.size() || content[i + 2] < '0' || content[i + 2] > '7' ||
          content[i + 3] < '0' || content[i + 3] > '7' || e > '3') {
        return {"invalid octal escape: expected three octal digits up to \\377", i, 2};
      }
      out +=
          static_cast<char>((e - '0') * 64 + (content[i + 2] - '0') * 8 + (content[i + 3] - '0'));
      i += 3;
    } else if (e == 'x' || e == 'X') {
      const long v = ReadHex(content, i + 2, 2);
      if (v < 0) {
        return {"invalid hex escape: expected two hex digits after \\x", i, 2};
      }
      out += static_cast<char>(v);  // a byte; strings are UTF-8 checked by the caller
      i += 3;
    } else if (e == 'u' || e == 'U') {
      if (bytes) {
        return {"unicode escapes are not allowed in bytes literals", i, 2};
      }
      const std::size_t n = e == 'u' ? 4 : 8;
      const long v = ReadHex(content, i + 2, n);
      if (v < 0) {
        return {std::string("invalid unicode escape: expected ") + (n == 4 ? "four" : "eight") +
                    " hex digits after \\" + e,
                i, 2};
      }
      if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        return {"invalid unicode escape: not a valid code point", i, n + 2};
      }
      AppendUtf8(static_cast<std::uint32_t>(v), out);
      i += 1 + n;
    } else {
      std::string shown(1, e);
      if (static_cast<unsigned char>(e) < 0x20 || static_cast<unsigned char>(e) >= 0x7F) {
        return {"invalid escape sequence", i, 2};
      }
      return {"invalid escape sequence \\" + shown, i, 2};
    }
  }
  return {};
}

}  // namespace lqe::lex
