// The PII rule table (one row per rule), applied in order by the redactor.
#pragma once

#include <regex>
#include <string_view>
#include <vector>

namespace lqe::gateway::redact {

enum class MatchScope : std::uint8_t {
  kAnywhere,    // replace every match inside the string
  kWholeToken,  // replace whitespace-delimited tokens that match entirely
};

struct Rule {
  std::string_view name;
  // A cheap exact pre-check (std::regex is slow): false means the pattern cannot match the text
  // (kAnywhere) or the token (kWholeToken), so the regex is not run.
  bool (*may_match)(std::string_view text);
  MatchScope scope;
  std::regex pattern;
};

const std::vector<Rule>& Rules();
inline constexpr std::string_view kReplacement = "REDACTED";

}  // namespace lqe::gateway::redact
