// Hand-written because a general parser decodes and re-encodes every string, which is most of
// the miss cost; Postgres' jsonb text escapes strings exactly as Boost.JSON's serializer does,
// so strings can be validated and copied through as they are. Anything outside that canonical
// form (other escapes, invalid UTF-8, unusual numbers, deep nesting) returns false.
#include "render/canonical_json.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lqe/base/utf8.h"
#include "lqe/gateway/render.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lqe::gateway {
namespace {

constexpr std::size_t kMaxDepth = 32;  // below Boost.JSON's default limit; deeper falls back

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool IsLowerHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

// Length of the escape at text[i] ('\\') if Boost.JSON would write it back identically, else 0.
std::size_t CanonicalEscape(std::string_view text, std::size_t i) {
  if (i + 1 >= text.size()) return 0;
  switch (text[i + 1]) {
    case '"':
    case '\\':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
      return 2;
    case 'u':
      break;
    default:
      return 0;
  }
  // \u00XX for a control character that has no short escape.
  if (i + 5 >= text.size() || text[i + 2] != '0' || text[i + 3] != '0') return 0;
  char h = text[i + 4], l = text[i + 5];
  if ((h != '0' && h != '1') || !IsLowerHex(l)) return 0;
  int value = (h - '0') * 16 + (l <= '9' ? l - '0' : l - 'a' + 10);
  bool has_short = value == 8 || value == 9 || value == 10 || value == 12 || value == 13;
  return has_short ? 0 : 6;
}

// Whether any of 8 bytes is a quote, a backslash, below 0x20 or 0x80 and above (bit tricks
// that test all bytes of a word at once; exact for "any").
bool WordNeedsCare(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  auto has_zero = [](std::uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  std::uint64_t below_space = (w - kOnes * 0x20) & ~w & kHigh;
  return ((w & kHigh) | below_space | has_zero(w ^ (kOnes * '"')) | has_zero(w ^ (kOnes * '\\'))) !=
         0;
}

// Skips from i over bytes that need no care (see WordNeedsCare), 16 at a time with SSE2 where
// the target has it (every x86-64), else 8 at a time; stops at or a little before the first byte
// that needs care.
std::size_t SkipPlainBytes(std::string_view text, std::size_t i) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (i + 16 <= text.size()) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    // Signed compare: below 0x20 and 0x80 and above (negative) both count as "less than".
    __m128i care =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                     _mm_cmplt_epi8(bytes, space));
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(care));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
    i += 16;
  }
#endif
  while (i + 8 <= text.size()) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, sizeof word);
    if (WordNeedsCare(word)) break;
    i += 8;
  }
  return i;
}

// Copies the string starting at text[*pos] ('"'); advances *pos past it.
bool CopyString(std::string& out, std::string_view text, std::size_t* pos) {
  std::size_t i = *pos + 1;
  while (i < text.size()) {
    i = SkipPlainBytes(text, i);
    if (i >= text.size()) break;
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '"') {
      out.append(text.data() + *pos, i + 1 - *pos);
      *pos = i + 1;
      return true;
    }
    std::size_t step = 1;
    if (c == '\\') {
      step = CanonicalEscape(text, i);
    } else if (c < 0x20) {
      step = 0;
    } else if (c >= 0x80) {
      step = Utf8SequenceLength(text, i);
    }
    if (step == 0) return false;
    i += step;
  }
  return false;
}

bool IsNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Integers of up to 18 digits without a leading zero are written back as they are; other
// numbers are printed as the DOM path prints them.
bool CopyNumber(std::string& out, std::string_view text, std::size_t* pos) {
  std::size_t end = *pos;
  while (end < text.size() && IsNumberChar(text[end])) ++end;
  std::string_view token = text.substr(*pos, end - *pos);
  *pos = end;
  std::string_view digits = token.substr(token[0] == '-' ? 1 : 0);
  bool plain = !digits.empty() && digits.size() <= 18 && (digits[0] != '0' || digits == "0") &&
               digits.find_first_not_of("0123456789") == std::string_view::npos && token != "-0";
  if (plain) {
    out.append(token);
    return true;
  }
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(token, ec);
  if (ec || !value.is_number()) return false;
  out.append(SerializeJson(value));
  return true;
}

bool CopyLiteral(std::string& out, std::string_view text, std::size_t* pos) {
  for (std::string_view word : {"true", "false", "null"}) {
    if (text.substr(*pos, word.size()) == word) {
      out.append(word);
      *pos += word.size();
      return true;
    }
  }
  return false;
}

class Copier {
 public:
  Copier(std::string& out, std::string_view text, bool wrap)
      : out_(out), text_(text), wrap_(wrap) {}

  bool Run() {
    if (!Value()) return false;
    for (;;) {
      SkipSpace();
      if (stack_.empty()) return pos_ == text_.size();
      if (!AfterValue()) return false;
    }
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  // One value; containers are opened here and closed by AfterValue.
  bool Value() {
    for (;;) {
      SkipSpace();
      char c = Peek();
      if (c == '{' || c == '[') {
        if (stack_.size() >= kMaxDepth) return false;
        bool object = c == '{';
        bool wrapped = object && wrap_ && (stack_.empty() || stack_.back() != 'a');
        out_.append(wrapped ? "[{" : object ? "{" : "[");
        stack_.push_back(wrapped ? 'w' : object ? 'o' : 'a');
        ++pos_;
        SkipSpace();
        if (Peek() == (object ? '}' : ']')) return true;  // empty; AfterValue closes it
        if (object && !Key()) return false;
        continue;  // the first element or member value
      }
      if (c == '"') return CopyString(out_, text_, &pos_);
      if (c == '-' || (c >= '0' && c <= '9')) return CopyNumber(out_, text_, &pos_);
      return CopyLiteral(out_, text_, &pos_);
    }
  }

  bool Key() {
    SkipSpace();
    if (Peek() != '"' || !CopyString(out_, text_, &pos_)) return false;
    SkipSpace();
    if (Peek() != ':') return false;
    out_.push_back(':');
    ++pos_;
    return true;
  }

  // After a value inside a container: a separator and the next member, or the end.
  bool AfterValue() {
    char kind = stack_.back();
    char c = Peek();
    if (c == (kind == 'a' ? ']' : '}')) {
      out_.append(kind == 'w' ? "}]" : kind == 'o' ? "}" : "]");
      stack_.pop_back();
      ++pos_;
      return true;
    }
    if (c != ',') return false;
    out_.push_back(',');
    ++pos_;
    if (kind != 'a' && !Key()) return false;
    return Value();
  }

  std::string& out_;
  std::string_view text_;
  bool wrap_;
  std::size_t pos_ = 0;
  std::vector<char> stack_;
};

}  // namespace

bool AppendCanonicalJson(std::string& out, std::string_view text, bool wrap_records) {
  return Copier(out, text, wrap_records).Run();
}

}  // namespace lqe::gateway
