#include "regex/char_set.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace lqe::regex_internal {

void CharSet::AddAll(const CharSet& other) {
  ranges.insert(ranges.end(), other.ranges.begin(), other.ranges.end());
  fragments.insert(fragments.end(), other.fragments.begin(), other.fragments.end());
}

void CharSet::Normalize() {
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<char32_t, char32_t>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second + 1) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(r);
    }
  }
  ranges = std::move(merged);
}

CharSet CharSet::Complement() const {
  CharSet sorted = *this;
  sorted.Normalize();
  CharSet result;
  // Code point 0 cannot occur in PostgreSQL text, so the complement starts at 1.
  char32_t next = 1;
  for (const auto& [lo, hi] : sorted.ranges) {
    if (lo > next) {
      result.Add(next, lo - 1);
    }
    next = std::max<char32_t>(next, hi + 1);
  }
  if (next <= kMaxCodePoint) {
    result.Add(next, kMaxCodePoint);
  }
  return result;
}

void CharSet::AddAsciiCaseFolds() {
  const auto original = ranges;
  for (const auto& [lo, hi] : original) {
    const char32_t lower_lo = std::max<char32_t>(lo, 'a');
    const char32_t lower_hi = std::min<char32_t>(hi, 'z');
    if (lower_lo <= lower_hi) {
      Add(lower_lo - 32, lower_hi - 32);
    }
    const char32_t upper_lo = std::max<char32_t>(lo, 'A');
    const char32_t upper_hi = std::min<char32_t>(hi, 'Z');
    if (upper_lo <= upper_hi) {
      Add(upper_lo + 32, upper_hi + 32);
    }
  }
}

bool CharSet::HasNonAsciiLetterRisk() const {
  // A range running to the last code point (the complement of an ASCII set) is closed under
  // case folding already; any other non-ASCII member could have a case partner outside it.
  return !fragments.empty() || std::any_of(ranges.begin(), ranges.end(), [](const auto& r) {
    return r.second >= 0x80 && !(r.first <= 0x80 && r.second == kMaxCodePoint);
  });
}

char32_t DecodeUtf8(std::string_view in, std::size_t& pos) {
  const std::size_t start = pos;
  const auto lead = static_cast<unsigned char>(in[pos++]);
  if (lead < 0x80) {
    return lead;
  }
  int extra = 0;
  char32_t c = 0;
  if ((lead & 0xE0) == 0xC0) {
    extra = 1;
    c = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    extra = 2;
    c = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    extra = 3;
    c = lead & 0x07;
  } else {
    throw RegexError(start, "invalid UTF-8 in regular expression");
  }
  for (int i = 0; i < extra; ++i) {
    if (pos >= in.size() || (static_cast<unsigned char>(in[pos]) & 0xC0) != 0x80) {
      throw RegexError(start, "invalid UTF-8 in regular expression");
    }
    c = (c << 6) | (static_cast<unsigned char>(in[pos++]) & 0x3F);
  }
  static constexpr std::array<char32_t, 4> kMinForLength = {0, 0x80, 0x800, 0x10000};
  if (c < kMinForLength[extra] || c > kMaxCodePoint || (c >= 0xD800 && c <= 0xDFFF)) {
    throw RegexError(start, "invalid UTF-8 in regular expression");
  }
  return c;
}

void AppendUtf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::string AreCodePointEscape(char32_t c) {
  std::array<char, 16> buf{};
  if (c <= 0xFFFF) {
    std::snprintf(buf.data(), buf.size(), "\\u%04X", static_cast<unsigned>(c));
  } else {
    std::snprintf(buf.data(), buf.size(), "\\U%08X", static_cast<unsigned>(c));
  }
  return buf.data();
}

namespace {

bool IsAsciiAlnum(char32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Inside ARE brackets only ASCII alphanumerics are written as themselves; everything else
// (']', '-', '^', '\\', '[', controls, non-ASCII) is escaped so it cannot be special.
void AppendClassChar(std::string& out, char32_t c) {
  if (IsAsciiAlnum(c)) {
    out += static_cast<char>(c);
  } else {
    out += AreCodePointEscape(c);
  }
}

}  // namespace

std::string AreBracket(const CharSet& set, bool negated) {
  CharSet sorted = set;
  sorted.Normalize();
  std::string out = negated ? "[^" : "[";
  for (const auto& [lo, hi] : sorted.ranges) {
    AppendClassChar(out, lo);
    if (hi != lo) {
      if (hi != lo + 1) {
        out += '-';
      }
      AppendClassChar(out, hi);
    }
  }
  for (const auto& fragment : sorted.fragments) {
    out += fragment;
  }
  out += ']';
  return out;
}

bool PerlClass(char letter, CharSet& set) {
  switch (letter) {
    case 'd':
      set.Add('0', '9');
      return true;
    case 's':  // RE2's \s is [\t\n\f\r ]: no \v, no Unicode spaces.
      set.Add('\t', '\n');
      set.Add('\f', '\r');
      set.Add(' ');
      return true;
    case 'w':
      set.Add('0', '9');
      set.Add('A', 'Z');
      set.Add('_');
      set.Add('a', 'z');
      return true;
    default:
      return false;
  }
}

bool PosixClass(std::string_view name, CharSet& set) {
  struct Entry {
    std::string_view name;
    std::vector<std::pair<char32_t, char32_t>> ranges;
  };
  static const std::vector<Entry> posix_classes = {
      {"alnum", {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}},
      {"alpha", {{'A', 'Z'}, {'a', 'z'}}},
      {"ascii", {{1, 0x7F}}},
      {"blank", {{'\t', '\t'}, {' ', ' '}}},
      {"cntrl", {{1, 0x1F}, {0x7F, 0x7F}}},
      {"digit", {{'0', '9'}}},
      {"graph", {{'!', '~'}}},
      {"lower", {{'a', 'z'}}},
      {"print", {{' ', '~'}}},
      {"punct", {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}},
      {"space", {{'\t', '\r'}, {' ', ' '}}},
      {"upper", {{'A', 'Z'}}},
      {"word", {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}, {'_', '_'}}},
      {"xdigit", {{'0', '9'}, {'A', 'F'}, {'a', 'f'}}},
  };
  for (const auto& entry : posix_classes) {
    if (entry.name == name) {
      set.ranges.insert(set.ranges.end(), entry.ranges.begin(), entry.ranges.end());
      return true;
    }
  }
  return false;
}

namespace {

// Scripts common in log text, from Unicode's Scripts.txt (15.0).
const std::vector<std::pair<char32_t, char32_t>>* ScriptRanges(std::string_view name) {
  using Ranges = std::vector<std::pair<char32_t, char32_t>>;
  static const std::pair<std::string_view, Ranges> scripts[] = {
      {"Han", {{0x2E80, 0x2E99},   {0x2E9B, 0x2EF3},   {0x2F00, 0x2FD5},   {0x3005, 0x3005},
               {0x3007, 0x3007},   {0x3021, 0x3029},   {0x3038, 0x303B},   {0x3400, 0x4DBF},
               {0x4E00, 0x9FFF},   {0xF900, 0xFA6D},   {0xFA70, 0xFAD9},   {0x16FE2, 0x16FE3},
               {0x16FF0, 0x16FF1}, {0x20000, 0x2A6DF}, {0x2A700, 0x2B739}, {0x2B740, 0x2B81D},
               {0x2B820, 0x2CEA1}, {0x2CEB0, 0x2EBE0}, {0x2F800, 0x2FA1D}, {0x30000, 0x3134A},
               {0x31350, 0x323AF}}},
      {"Hiragana",
       {{0x3041, 0x3096},
        {0x309D, 0x309F},
        {0x1B001, 0x1B11F},
        {0x1B132, 0x1B132},
        {0x1B150, 0x1B152},
        {0x1F200, 0x1F200}}},
      {"Katakana",
       {{0x30A1, 0x30FA},
        {0x30FD, 0x30FF},
        {0x31F0, 0x31FF},
        {0x32D0, 0x32FE},
        {0x3300, 0x3357},
        {0xFF66, 0xFF6F},
        {0xFF71, 0xFF9D},
        {0x1AFF0, 0x1AFF3},
        {0x1AFF5, 0x1AFFB},
        {0x1AFFD, 0x1AFFE},
        {0x1B000, 0x1B000},
        {0x1B120, 0x1B122},
        {0x1B155, 0x1B155},
        {0x1B164, 0x1B167}}},
      {"Hangul",
       {{0x1100, 0x11FF},
        {0x302E, 0x302F},
        {0x3131, 0x318E},
        {0x3200, 0x321E},
        {0x3260, 0x327E},
        {0xA960, 0xA97C},
        {0xAC00, 0xD7A3},
        {0xD7B0, 0xD7C6},
        {0xD7CB, 0xD7FB},
        {0xFFA0, 0xFFBE},
        {0xFFC2, 0xFFC7},
        {0xFFCA, 0xFFCF},
        {0xFFD2, 0xFFD7},
        {0xFFDA, 0xFFDC}}},
      {"Hebrew",
       {{0x591, 0x5C7},
        {0x5D0, 0x5EA},
        {0x5EF, 0x5F4},
        {0xFB1D, 0xFB36},
        {0xFB38, 0xFB3C},
        {0xFB3E, 0xFB3E},
        {0xFB40, 0xFB41},
        {0xFB43, 0xFB44},
        {0xFB46, 0xFB4F}}},
      {"Thai", {{0xE01, 0xE3A}, {0xE40, 0xE5B}}},
  };
  for (const auto& [script, ranges] : scripts) {
    if (script == name) return &ranges;
  }
  return nullptr;
}

}  // namespace

void UnicodeClass(std::string_view name, std::size_t at, CharSet& set) {
  // General categories map to ARE's locale classes, which follow Unicode in a UTF-8 database
  // with a Unicode-aware collation (C.UTF-8, ICU); scripts are listed from Unicode's Scripts.txt.
  if (name == "L") {
    set.fragments.emplace_back("[:alpha:]");
  } else if (name == "Lu") {
    set.fragments.emplace_back("[:upper:]");
  } else if (name == "Ll") {
    set.fragments.emplace_back("[:lower:]");
  } else if (name == "Greek") {
    set.ranges.insert(
        set.ranges.end(),
        {{0x370, 0x373},   {0x375, 0x377},     {0x37A, 0x37D},     {0x37F, 0x37F},
         {0x384, 0x384},   {0x386, 0x386},     {0x388, 0x38A},     {0x38C, 0x38C},
         {0x38E, 0x3A1},   {0x3A3, 0x3E1},     {0x3F0, 0x3FF},     {0x1D26, 0x1D2A},
         {0x1D5D, 0x1D61}, {0x1D66, 0x1D6A},   {0x1DBF, 0x1DBF},   {0x1F00, 0x1F15},
         {0x1F18, 0x1F1D}, {0x1F20, 0x1F45},   {0x1F48, 0x1F4D},   {0x1F50, 0x1F57},
         {0x1F59, 0x1F59}, {0x1F5B, 0x1F5B},   {0x1F5D, 0x1F5D},   {0x1F5F, 0x1F7D},
         {0x1F80, 0x1FB4}, {0x1FB6, 0x1FC4},   {0x1FC6, 0x1FD3},   {0x1FD6, 0x1FDB},
         {0x1FDD, 0x1FEF}, {0x1FF2, 0x1FF4},   {0x1FF6, 0x1FFE},   {0x2126, 0x2126},
         {0xAB65, 0xAB65}, {0x10140, 0x1018E}, {0x101A0, 0x101A0}, {0x1D200, 0x1D245}});
  } else if (name == "Cyrillic") {
    set.ranges.insert(set.ranges.end(), {{0x400, 0x484},
                                         {0x487, 0x52F},
                                         {0x1C80, 0x1C88},
                                         {0x1D2B, 0x1D2B},
                                         {0x1D78, 0x1D78},
                                         {0x2DE0, 0x2DFF},
                                         {0xA640, 0xA69F},
                                         {0xFE2E, 0xFE2F}});
  } else if (const auto* script = ScriptRanges(name)) {
    set.ranges.insert(set.ranges.end(), script->begin(), script->end());
  } else {
    throw RegexError(at, "unicode class \\p{" + std::string(name) +
                             "} has no PostgreSQL equivalent (supported: L, Lu, Ll, Greek, "
                             "Cyrillic, Han, Hiragana, Katakana, Hangul, Hebrew, Thai)");
  }
}

}  // namespace lqe::regex_internal
