#include "lql/parse_util.h"

namespace lqe::lql {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is broken.
std::size_t Utf8Length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
  } else {
    return 0;
  }
  if (i + n > s.size()) {
    return 0;
  }
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
      return 0;
    }
  }
  return n;
}

}  // namespace

Diagnostic MakeDiag(DiagCode code, std::string message, std::size_t offset, std::size_t length) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.offset = static_cast<std::uint32_t>(offset);
  d.length = static_cast<std::uint32_t>(length == 0 ? 1 : length);
  d.source = DiagSource::kConsumerLql;
  return d;
}

std::string QuoteForMessage(std::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out = "\"";
  std::size_t i = 0;
  while (i < text.size() && i < kMax) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '"' || c == '\\') {
        out += '\\';
      }
      out += (c < 0x20 || c == 0x7F) ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    const std::size_t n = Utf8Length(text, i);
    if (n == 0) {
      out += '?';
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  if (i < text.size()) {
    out += "...";
  }
  return out + "\"";
}

void Cursor::SkipSpace() {
  while (!AtEnd() && IsSpace(Peek())) {
    ++pos;
  }
}

std::size_t Cursor::TokenEnd(std::size_t from) const {
  while (from < text.size() && !IsSpace(text[from])) {
    ++from;
  }
  return from;
}

LqlError Cursor::Unexpected(std::size_t at) const {
  if (at >= text.size()) {
    return {
        MakeDiag(DiagCode::kSyntax, "lql parse error: unexpected end of query", text.size(), 1)};
  }
  const std::size_t end = TokenEnd(at);
  return {MakeDiag(DiagCode::kSyntax,
                   "lql parse error: unexpected " + QuoteForMessage(text.substr(at, end - at)), at,
                   end - at)};
}

Value Cursor::Quoted() {
  const std::size_t open = pos++;
  Value value;
  value.quoted = true;
  while (!AtEnd()) {
    const char c = text[pos];
    if (c == '"') {
      ++pos;
      value.span = Span(open, pos);
      return value;
    }
    if (c == '\\' && pos + 1 < text.size() && (text[pos + 1] == '"' || text[pos + 1] == '\\')) {
      value.text += text[pos + 1];
      pos += 2;
      continue;
    }
    value.text += c;
    ++pos;
  }
  throw LqlError{MakeDiag(DiagCode::kSyntax, "lql parse error: unterminated quoted string", open,
                          text.size() - open)};
}

Value Cursor::RawToken(bool keep_escapes) {
  const std::size_t begin = pos;
  Value value;
  while (!AtEnd() && !IsSpace(Peek())) {
    if (Peek() == '\\' && pos + 1 < text.size() && text[pos + 1] == '"') {
      if (keep_escapes) {
        value.text += '\\';
      }
      value.text += '"';
      pos += 2;
      continue;
    }
    if (Peek() == '"') {
      throw Unexpected(pos);
    }
    value.text += Peek();
    ++pos;
  }
  value.span = Span(begin, pos);
  return value;
}

Value Cursor::Word() {
  const std::size_t begin = pos;
  Value value;
  while (!AtEnd() && !IsSpace(Peek())) {
    const char c = Peek();
    if (c == '\\' && pos + 1 < text.size() && text[pos + 1] == '"') {
      value.text += '"';
      pos += 2;
      continue;
    }
    if (c == '"' || c == ':') {
      throw Unexpected(pos);
    }
    value.text += c;
    ++pos;
  }
  value.span = Span(begin, pos);
  return value;
}

std::vector<std::string> Cursor::SplitPath(std::string_view key, std::size_t begin) const {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    const std::string_view part =
        key.substr(start, dot == std::string_view::npos ? key.npos : dot - start);
    if (part.empty()) {
      throw LqlError{MakeDiag(DiagCode::kSyntax,
                              "lql parse error: invalid field path " + QuoteForMessage(key), begin,
                              key.size())};
    }
    parts.emplace_back(part);
    if (dot == std::string_view::npos) {
      break;
    }
    start = dot + 1;
  }
  if (parts.size() > 1 && parts.front() == "m") {
    parts.front() = "metadata";
  }
  return parts;
}

}  // namespace lqe::lql
