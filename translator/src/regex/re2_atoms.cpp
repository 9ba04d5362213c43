// Escapes, character classes and repetition of the RE2 -> ARE scanner.
#include <algorithm>
#include <string>

#include "lqe/base/ascii.h"
#include "regex/converter.h"

namespace lqe::regex_internal {
namespace {

bool IsOctal(char c) {
  return c >= '0' && c <= '7';
}

bool IsAsciiWordChar(char c) {
  return ascii::IsAlnum(c) || c == '_';
}

}  // namespace

void Converter::Quantifier() {
  const std::size_t at = pos_;
  int min = 0;
  int max = -1;
  const char op = Peek();
  if (op == '{') {
    if (!ParseCount(min, max)) {
      ++pos_;
      Literal(at, '{');  // RE2 reads a '{' that does not start a repeat as a literal
      return;
    }
  } else {
    ++pos_;
  }
  if (atom_kind_ == AtomKind::kNone) {
    throw RegexError(
        at, "missing argument to repetition operator " + std::string(in_.substr(at, pos_ - at)));
  }
  if (atom_kind_ == AtomKind::kQuantified) {
    throw RegexError(at,
                     "bad repetition operator " + std::string(in_.substr(at, pos_ - at)) +
                         ": a repetition cannot be repeated (no possessive quantifiers in RE2)");
  }
  if (atom_kind_ == AtomKind::kAssertion) {
    throw RegexError(at, "repetition of an empty-width assertion is not supported");
  }
  bool lazy = false;
  if (Peek() == '?') {
    ++pos_;
    lazy = true;
  }
  const std::string lazy_suffix = lazy != flags_.u ? "?" : "";
  if (op == '{') {
    ApplyCount(at, min, max, lazy_suffix);
  } else {
    out_ += op;
    out_ += lazy_suffix;
  }
  atom_kind_ = AtomKind::kQuantified;
}

// {n}, {n,} or {n,m}; false (pos_ unchanged) when the text is not a repeat.
bool Converter::ParseCount(int& min, int& max) {
  const std::size_t start = pos_;
  std::size_t p = pos_ + 1;
  auto number = [&](int& value) {
    const std::size_t digits_start = p;
    long long v = 0;
    while (p < in_.size() && ascii::IsDigit(in_[p])) {
      v = std::min<long long>(v * 10 + (in_[p++] - '0'), 100000);
    }
    value = static_cast<int>(v);
    return p > digits_start;
  };
  if (!number(min)) {
    return false;
  }
  max = min;
  if (p < in_.size() && in_[p] == ',') {
    ++p;
    if (!number(max)) {
      max = -1;
    }
  }
  if (p >= in_.size() || in_[p] != '}') {
    return false;
  }
  pos_ = p + 1;
  if (min > kRe2MaxRepeat || max > kRe2MaxRepeat || (max >= 0 && max < min)) {
    throw RegexError(start, "bad repetition operator " +
                                std::string(in_.substr(start, pos_ - start)) +
                                ": counts must be ordered and at most 1000");
  }
  return true;
}

// ARE allows counts up to 255 only; larger RE2 counts (up to 1000) are unrolled into a sequence
// of copies of the atom, which matches the same strings.
void Converter::ApplyCount(std::size_t at, int min, int max, const std::string& lazy) {
  if (min <= kAreMaxRepeat && max <= kAreMaxRepeat) {
    out_ += "{" + std::to_string(min);
    if (max != min) {
      out_ += "," + (max < 0 ? std::string() : std::to_string(max));
    }
    out_ += "}" + lazy;
    return;
  }
  if (atom_captures_ > 0) {  // copies would renumber the groups REGEXP_EXTRACT reads
    throw RegexError(at,
                     "a capturing group repeated more than 255 times has no PostgreSQL "
                     "equivalent");
  }
  const std::string atom = "(?:" + out_.substr(atom_start_) + ")";
  std::string text;
  auto piece = [&](const std::string& quantifier) {
    text += atom;
    text += quantifier;
    text += lazy;
  };
  for (int left = min; left > 0; left -= kAreMaxRepeat) {
    piece("{" + std::to_string(std::min(left, kAreMaxRepeat)) + "}");
  }
  if (max < 0) {
    piece("*");
  }
  for (int left = max - min; max >= 0 && left > 0; left -= kAreMaxRepeat) {
    piece("{0," + std::to_string(std::min(left, kAreMaxRepeat)) + "}");
  }
  out_.replace(atom_start_, std::string::npos, "(?:" + text + ")");
}

void Converter::Escape() {
  const std::size_t at = pos_++;
  if (AtEnd()) {
    throw RegexError(at, "trailing backslash at end of regular expression");
  }
  const char c = Peek();
  switch (c) {
    case 'b':
    case 'B':
      ++pos_;
      EmitAtom(c == 'b' ? "\\y" : "\\Y", AtomKind::kAssertion);
      return;
    case 'A':
      ++pos_;
      EmitAtom("\\A", AtomKind::kAssertion);
      return;
    case 'z':
      ++pos_;
      EmitAtom("\\Z", AtomKind::kAssertion);  // ARE's \Z is the absolute end, RE2's \z
      return;
    case 'Q':
      ++pos_;
      QuotedLiteral();
      return;
    case 'Z':
      throw RegexError(at, "\\Z is not supported by RE2: use \\z for the end of the text");
    default:
      break;
  }
  CharSet set;
  bool negated = false;
  if (ClassEscape(at, set, negated)) {
    EmitSet(at, set, negated);
    return;
  }
  char32_t code = 0;
  if (SimpleEscape(at, code)) {
    Literal(at, code);
    return;
  }
  throw RegexError(at, "invalid escape sequence \\" + std::string(1, c));
}

// Escapes that stand for one character: \x41 \x{263a} \123 \n \t ..., and \ + punctuation.
bool Converter::SimpleEscape(std::size_t at, char32_t& c) {
  const char e = Peek();
  if (e >= '1' && e <= '9' && !IsOctal(Peek(1))) {
    throw RegexError(at, "backreferences are not supported (RE2 has none): \\" + std::string(1, e));
  }
  if (IsOctal(e)) {
    c = 0;
    for (int n = 0; n < 3 && IsOctal(Peek()); ++n) {
      c = c * 8 + (in_[pos_++] - '0');
    }
  } else if (e == 'x') {
    ++pos_;
    c = 0;
    if (Peek() == '{') {
      ++pos_;
      int digits = 0;
      for (; ascii::HexValue(Peek()) >= 0; ++digits) {
        c = std::min<char32_t>(c * 16 + ascii::HexValue(in_[pos_++]), kMaxCodePoint + 1);
      }
      if (Peek() != '}' || digits == 0 || c > kMaxCodePoint) {
        throw RegexError(at, "invalid escape sequence: bad \\x{...} code point");
      }
      ++pos_;
    } else {
      if (ascii::HexValue(Peek()) < 0 || ascii::HexValue(Peek(1)) < 0) {
        throw RegexError(at, "invalid escape sequence: \\x needs two hex digits");
      }
      c = ascii::HexValue(Peek()) * 16 + ascii::HexValue(Peek(1));
      pos_ += 2;
    }
  } else if (std::string_view("aftnrv").find(e) != std::string_view::npos) {
    static constexpr std::string_view kControls = "\a\f\t\n\r\v";
    c = static_cast<unsigned char>(kControls[std::string_view("aftnrv").find(e)]);
    ++pos_;
  } else if (static_cast<unsigned char>(e) < 0x80 && !IsAsciiWordChar(e) && e != '\0') {
    c = static_cast<unsigned char>(e);
    ++pos_;
  } else {
    return false;
  }
  if (c == 0) {
    throw RegexError(at, "a NUL character cannot occur in PostgreSQL text");
  }
  return true;
}

// \d \s \w \D \S \W \pL \p{Greek} \PL \P{^Greek}: fills set; negated for the upper-case forms.
bool Converter::ClassEscape(std::size_t at, CharSet& set, bool& negated) {
  const char e = Peek();
  if (PerlClass(ascii::ToLower(e), set)) {
    negated = ascii::IsUpper(e);
    ++pos_;
    return true;
  }
  if (e != 'p' && e != 'P') {
    return false;
  }
  ++pos_;
  negated = e == 'P';
  std::string name;
  if (Peek() == '{') {
    const std::size_t close = in_.find('}', pos_);
    if (close == std::string_view::npos) {
      throw RegexError(at, "invalid character class: missing } after \\p{");
    }
    name = std::string(in_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
    if (!name.empty() && name[0] == '^') {
      negated = !negated;
      name.erase(0, 1);
    }
  } else if (!AtEnd()) {
    name = std::string(1, in_[pos_++]);
  }
  UnicodeClass(name, at, set);
  return true;
}

void Converter::Bracket() {
  const std::size_t at = pos_++;
  bool negated = false;
  if (Peek() == '^') {
    negated = true;
    ++pos_;
  }
  CharSet set;
  for (bool first = true;; first = false) {
    if (AtEnd()) {
      throw RegexError(at, "missing closing ] of character class");
    }
    if (Peek() == ']' && !first) {
      ++pos_;
      break;
    }
    if (PosixItem(set)) {
      continue;
    }
    const std::size_t item_at = pos_;
    bool had_class = false;
    const char32_t lo = ClassAtom(set, had_class);
    if (had_class) {
      continue;
    }
    if (Peek() == '-' && Peek(1) != ']' && pos_ + 1 < in_.size()) {
      ++pos_;
      const char32_t hi = ClassAtom(set, had_class);
      if (had_class || hi < lo) {
        throw RegexError(item_at, "invalid character class range " +
                                      std::string(in_.substr(item_at, pos_ - item_at)));
      }
      set.Add(lo, hi);
    } else {
      set.Add(lo);
    }
  }
  EmitSet(at, set, negated);
}

// [:alpha:] or [:^alpha:] inside a bracket; ASCII ranges as RE2 defines them.
bool Converter::PosixItem(CharSet& set) {
  if (!Match("[:")) {
    return false;
  }
  const std::size_t close = in_.find(":]", pos_ + 2);
  if (close == std::string_view::npos) {
    return false;
  }
  std::string_view name = in_.substr(pos_ + 2, close - pos_ - 2);
  const bool negated = !name.empty() && name[0] == '^';
  if (negated) {
    name.remove_prefix(1);
  }
  CharSet named;
  if (!PosixClass(name, named)) {
    throw RegexError(pos_, "invalid character class range [:" + std::string(name) + ":]");
  }
  set.AddAll(negated ? named.Complement() : named);
  pos_ = close + 2;
  return true;
}

// One character of a bracket, or a class escape (had_class) merged into set.
char32_t Converter::ClassAtom(CharSet& set, bool& had_class) {
  had_class = false;
  if (Peek() != '\\') {
    return DecodeUtf8(in_, pos_);
  }
  const std::size_t at = pos_++;
  if (AtEnd()) {
    throw RegexError(at, "trailing backslash at end of regular expression");
  }
  CharSet named;
  bool negated = false;
  if (ClassEscape(at, named, negated)) {
    if (negated && !named.fragments.empty()) {
      throw RegexError(at, "a negated Unicode class inside brackets has no PostgreSQL equivalent");
    }
    set.AddAll(negated ? named.Complement() : named);
    had_class = true;
    return 0;
  }
  char32_t c = 0;
  if (SimpleEscape(at, c)) {
    return c;
  }
  throw RegexError(at,
                   "invalid escape sequence \\" + std::string(1, Peek()) + " in character class");
}

}  // namespace lqe::regex_internal
