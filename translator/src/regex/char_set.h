// Internal pieces of the RE2 -> ARE converter: code point sets for character classes, UTF-8
// decoding and ARE escaping. ARE bracket expressions are emitted from these sets so that RE2's
// ASCII-only classes (\d, \w, [[:alpha:]]) keep their RE2 meaning instead of the locale's.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lqe::regex_internal {

inline constexpr char32_t kMaxCodePoint = 0x10FFFF;

// A conversion failure at a byte offset of the RE2 pattern; caught by ConvertRe2ToPosix.
struct RegexError : std::runtime_error {
  RegexError(std::size_t at, const std::string& message)
      : std::runtime_error(message), offset(at) {}
  std::size_t offset;
};

// A set of code point ranges plus ARE class fragments that only the engine can express
// (e.g. "[:alpha:]" for \pL).
struct CharSet {
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::vector<std::string> fragments;

  void Add(char32_t lo, char32_t hi) { ranges.emplace_back(lo, hi); }
  void Add(char32_t c) { ranges.emplace_back(c, c); }
  void AddAll(const CharSet& other);
  void Normalize();                    // sorts and merges ranges
  CharSet Complement() const;          // ranges only; fragments must be empty
  void AddAsciiCaseFolds();            // a-z <-> A-Z counterparts of every range
  bool HasNonAsciiLetterRisk() const;  // a range above ASCII that case folding could affect
};

// Decodes one UTF-8 code point at in[pos]; advances pos. Throws RegexError on bad UTF-8.
char32_t DecodeUtf8(std::string_view in, std::size_t& pos);
void AppendUtf8(std::string& out, char32_t c);
// \uXXXX or \UXXXXXXXX: unambiguous in ARE both inside and outside brackets.
std::string AreCodePointEscape(char32_t c);
// The ARE bracket expression for a set, e.g. "[0-9A-Za-z_]" or "[^\u000A]".
std::string AreBracket(const CharSet& set, bool negated);

// Named classes RE2 knows. Each returns false when the name is unknown.
bool PerlClass(char letter, CharSet& set);             // d s w (lower case only)
bool PosixClass(std::string_view name, CharSet& set);  // alpha, digit, ... (ASCII in RE2)
// \p{Name}: sets `set` or throws RegexError (at) naming what ARE cannot express.
void UnicodeClass(std::string_view name, std::size_t at, CharSet& set);

}  // namespace lqe::regex_internal
