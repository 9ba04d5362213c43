// The PII rule table (one row per rule), applied in order by the redactor.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace lqe::gateway::redact {

enum class MatchScope : std::uint8_t {
  kAnywhere,    // replace every match inside the string
  kWholeToken,  // replace whitespace-delimited tokens that match entirely
};

struct Rule {
  std::string_view name;
  // A cheap exact pre-check: false means the pattern cannot match the text (kAnywhere) or the
  // token (kWholeToken), so the regex is not run. Most values hold no address at all.
  bool (*may_match)(std::string_view text);
  MatchScope scope;
  // The pattern text. It means the same in RE2 and ECMAScript syntax, so tests can check the
  // RE2 engine against std::regex on short strings.
  std::string_view source;
  // RE2, Latin-1: linear time and no recursion whatever the input's length.
  std::unique_ptr<const RE2> pattern;
};

const std::vector<Rule>& Rules();
inline constexpr std::string_view kReplacement = "REDACTED";

}  // namespace lqe::gateway::redact
