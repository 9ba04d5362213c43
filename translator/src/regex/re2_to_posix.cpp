// RE2 -> PostgreSQL ARE. Hand-written: no library converts between these dialects, and the
// scanner must refuse (with an offset) what RE2 refuses or what ARE would run differently.
//
// Semantics kept: '.' excludes \n unless (?s); ^/$ are text anchors unless (?m); \d \s \w and
// POSIX classes are ASCII as in RE2; (?i) anywhere (a leading one becomes ARE's (?i), scoped or
// later ones expand letters to [aA]); (?U) swaps greediness; counts above ARE's 255 are unrolled.
#include <algorithm>

#include "lqe/base/ascii.h"
#include "lqe/regex.h"
#include "regex/converter.h"

namespace lqe::regex_internal {

std::string Converter::Run() {
  LeadingFlags();
  while (!AtEnd()) {
    Step();
  }
  if (!stack_.empty()) {
    throw RegexError(stack_.back().open_at, "missing closing ): unclosed group");
  }
  return engine_ci_ ? "(?i)" + out_ : out_;
}

// A leading (?i...) flag group: case-insensitivity goes to ARE's own prefix, which also folds
// non-ASCII letters; the other flags are tracked by the scanner.
void Converter::LeadingFlags() {
  if (!Match("(?")) {
    return;
  }
  const std::size_t save = pos_;
  pos_ += 2;
  Flags flags = flags_;
  char terminator = 0;
  if (!ParseFlags(flags, terminator) || terminator != ')') {
    pos_ = save;
    return;
  }
  flags_ = flags;
  if (flags_.i) {
    engine_ci_ = true;
  }
}

void Converter::Step() {
  const std::size_t at = pos_;
  const char c = Peek();
  switch (c) {
    case '(':
      OpenGroup();
      return;
    case ')':
      CloseGroup();
      return;
    case '|':
      ++pos_;
      out_ += '|';
      atom_kind_ = AtomKind::kNone;
      return;
    case '*':
    case '+':
    case '?':
    case '{':
      Quantifier();
      return;
    case '[':
      Bracket();
      return;
    case '\\':
      Escape();
      return;
    case '.':
      ++pos_;
      EmitAtom(flags_.s ? "." : "[^\\n]");
      return;
    case '^':
      ++pos_;
      EmitAtom(flags_.m ? "(?:^|(?<=\\n))" : "^", AtomKind::kAssertion);
      return;
    case '$':
      ++pos_;
      EmitAtom(flags_.m ? "(?:$|(?=\\n))" : "$", AtomKind::kAssertion);
      return;
    default:
      Literal(at, DecodeUtf8(in_, pos_));
  }
}

// Parses flag letters after "(?" up to ':' or ')'. Returns false for anything that is not a
// flag group (lookaround, named groups, ...), leaving pos_ unspecified.
bool Converter::ParseFlags(Flags& flags, char& terminator) {
  bool negate = false;
  bool any = false;
  while (!AtEnd()) {
    const char c = in_[pos_++];
    if (c == ':' || c == ')') {
      terminator = c;
      return any || c == ':';
    }
    if (c == '-' && !negate) {
      negate = true;
      continue;
    }
    bool* flag = c == 'i'   ? &flags.i
                 : c == 's' ? &flags.s
                 : c == 'm' ? &flags.m
                 : c == 'U' ? &flags.u
                            : nullptr;
    if (flag == nullptr) {
      return false;
    }
    *flag = !negate;
    any = true;
  }
  return false;
}

void Converter::OpenGroup() {
  const std::size_t at = pos_;
  if (stack_.size() >= kMaxNesting) {
    throw RegexError(at, "regular expression nests groups too deeply (RE2 limit 1000)");
  }
  ++pos_;
  if (Peek() != '?') {
    stack_.push_back({flags_, at, out_.size(), captures_});
    ++captures_;
    out_ += '(';
    atom_kind_ = AtomKind::kNone;
    return;
  }
  ++pos_;
  if (Match("=") || Match("!") || Match("<=") || Match("<!")) {
    throw RegexError(at, "lookaround assertions are not supported (RE2 has none)");
  }
  if (Match("P=") || Match("P>")) {
    throw RegexError(at, "backreferences are not supported (RE2 has none)");
  }
  if (Match("P<") || Match("<")) {
    pos_ += Peek() == 'P' ? 2 : 1;
    const std::size_t name_start = pos_;
    while (!AtEnd() && (ascii::IsAlnum(Peek()) || Peek() == '_')) {
      ++pos_;
    }
    if (pos_ == name_start || Peek() != '>') {
      throw RegexError(at, "invalid named capture group");
    }
    ++pos_;
    stack_.push_back({flags_, at, out_.size(), captures_});
    ++captures_;
    out_ += '(';  // ARE has no names; group numbers stay the same.
    atom_kind_ = AtomKind::kNone;
    return;
  }
  Flags flags = flags_;
  char terminator = 0;
  if (!ParseFlags(flags, terminator)) {
    throw RegexError(at, "invalid or unsupported Perl syntax after (?");
  }
  if (engine_ci_ && !flags.i) {
    throw RegexError(at,
                     "turning off case-insensitivity after a leading (?i) has no "
                     "PostgreSQL equivalent");
  }
  if (terminator == ')') {
    flags_ = flags;  // applies to the rest of the enclosing group
    return;
  }
  stack_.push_back({flags_, at, out_.size(), captures_});
  flags_ = flags;
  out_ += "(?:";
  atom_kind_ = AtomKind::kNone;
}

void Converter::CloseGroup() {
  if (stack_.empty()) {
    throw RegexError(pos_, "unexpected ): no group to close");
  }
  ++pos_;
  flags_ = stack_.back().saved;
  atom_start_ = stack_.back().out_start;
  atom_captures_ = captures_ - stack_.back().captures_before;
  stack_.pop_back();
  out_ += ')';
  atom_kind_ = AtomKind::kAtom;
}

void Converter::EmitAtom(const std::string& text, AtomKind kind) {
  atom_start_ = out_.size();
  atom_captures_ = 0;
  out_ += text;
  atom_kind_ = kind;
}

void Converter::Literal(std::size_t at, char32_t c) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  if (flags_.i && !engine_ci_ && letter) {
    CharSet set;
    set.Add(c);
    set.AddAsciiCaseFolds();
    EmitAtom(AreBracket(set, false));
    return;
  }
  if (flags_.i && !engine_ci_ && c >= 0x80) {
    throw RegexError(at,
                     "case-insensitive matching of a non-ASCII character is supported only "
                     "with a leading (?i)");
  }
  std::string text;
  if (c < 0x20 || c == 0x7F) {
    text = AreCodePointEscape(c);
  } else if (c < 0x80 && std::string_view("\\^$.|?*+()[]{}").find(static_cast<char>(c)) !=
                             std::string_view::npos) {
    text = std::string("\\") + static_cast<char>(c);
  } else {
    AppendUtf8(text, c);
  }
  EmitAtom(text);
}

void Converter::EmitSet(std::size_t at, CharSet set, bool negated) {
  if (flags_.i && !engine_ci_) {
    if (set.HasNonAsciiLetterRisk()) {
      throw RegexError(at,
                       "case-insensitive character class with non-ASCII characters is "
                       "supported only with a leading (?i)");
    }
    set.AddAsciiCaseFolds();
  }
  if (set.ranges.empty() && set.fragments.empty()) {
    throw RegexError(at, "empty character class matches nothing");
  }
  EmitAtom(AreBracket(set, negated));
}

void Converter::QuotedLiteral() {
  while (!AtEnd() && !Match("\\E")) {
    const std::size_t at = pos_;
    if (Match("\\\\")) {  // RE2 reads \\ inside \Q...\E as one backslash
      pos_ += 2;
      Literal(at, '\\');
      continue;
    }
    Literal(at, DecodeUtf8(in_, pos_));
  }
  if (Match("\\E")) {
    pos_ += 2;
  }
}

}  // namespace lqe::regex_internal

namespace lqe {

RegexConversion ConvertRe2ToPosix(std::string_view re2) {
  try {
    regex_internal::Converter converter(re2);
    std::string pattern = converter.Run();
    return {std::move(pattern), "", 0, converter.CapturingGroups()};
  } catch (const regex_internal::RegexError& e) {
    return {"", e.what(), e.offset};
  }
}

}  // namespace lqe
