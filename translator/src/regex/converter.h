// Internal: the RE2 -> ARE scanner, split over re2_to_posix.cpp (structure, groups, literals)
// and re2_atoms.cpp (escapes, classes, quantifiers).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regex/char_set.h"

namespace lqe::regex_internal {

constexpr int kRe2MaxRepeat = 1000;
constexpr int kAreMaxRepeat = 255;
constexpr std::size_t kMaxNesting = 1000;

struct Flags {
  bool i = false;  // case-insensitive
  bool s = false;  // . matches \n
  bool m = false;  // ^ $ match at line boundaries
  bool u = false;  // ungreedy: swaps greedy and lazy
};

enum class AtomKind { kNone, kAtom, kAssertion, kQuantified };

class Converter {
 public:
  explicit Converter(std::string_view in) : in_(in) {}
  std::string Run();
  int CapturingGroups() const { return captures_; }

 private:
  bool AtEnd() const { return pos_ >= in_.size(); }
  char Peek(std::size_t ahead = 0) const {
    return pos_ + ahead < in_.size() ? in_[pos_ + ahead] : '\0';
  }
  bool Match(std::string_view s) { return in_.substr(pos_).substr(0, s.size()) == s; }

  void LeadingFlags();
  void Step();
  void OpenGroup();
  void CloseGroup();
  bool ParseFlags(Flags& flags, char& terminator);
  void Quantifier();
  bool ParseCount(int& min, int& max);
  void ApplyCount(std::size_t at, int min, int max, const std::string& lazy);
  void Escape();
  bool SimpleEscape(std::size_t at, char32_t& c);
  bool ClassEscape(std::size_t at, CharSet& set, bool& negated);
  void Bracket();
  bool PosixItem(CharSet& set);
  char32_t ClassAtom(CharSet& set, bool& had_class);
  void QuotedLiteral();
  void Literal(std::size_t at, char32_t c);
  void EmitAtom(const std::string& text, AtomKind kind = AtomKind::kAtom);
  void EmitSet(std::size_t at, CharSet set, bool negated);

  std::string_view in_;
  std::size_t pos_ = 0;
  std::string out_;
  Flags flags_;
  bool engine_ci_ = false;  // ARE's own (?i) prefix is in force for the whole pattern
  struct Frame {
    Flags saved;
    std::size_t open_at;    // offset of '(' in the RE2 pattern
    std::size_t out_start;  // offset of the group's text in out_
    int captures_before;    // capturing groups opened before this one
  };
  std::vector<Frame> stack_;
  std::size_t atom_start_ = 0;
  AtomKind atom_kind_ = AtomKind::kNone;
  int captures_ = 0;       // capturing groups opened so far
  int atom_captures_ = 0;  // capturing groups inside the last atom
};

}  // namespace lqe::regex_internal
