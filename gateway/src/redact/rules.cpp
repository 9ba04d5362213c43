// PII rules. IPv4 and IPv6 reproduce Logflare's PiiRedactor matching (logflare-behaviour.md §3):
// IPv4 anywhere at word boundaries, then IPv6 only when whitespace or the string's ends surround
// it. std::regex has no lookbehind, so the IPv6 rule is applied to whole whitespace-delimited
// tokens, which matches exactly the same spans.
#include "redact/rules.h"

namespace lqe::gateway::redact {
namespace {

constexpr const char* kIpv4 =
    R"(\b(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\b)";

constexpr const char* kIpv6 =
    "(?:"
    "(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|"
    "(?:[0-9a-fA-F]{1,4}:){1,7}:|"
    "(?:[0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|"
    "(?:[0-9a-fA-F]{1,4}:){1,5}(?::[0-9a-fA-F]{1,4}){1,2}|"
    "(?:[0-9a-fA-F]{1,4}:){1,4}(?::[0-9a-fA-F]{1,4}){1,3}|"
    "(?:[0-9a-fA-F]{1,4}:){1,3}(?::[0-9a-fA-F]{1,4}){1,4}|"
    "(?:[0-9a-fA-F]{1,4}:){1,2}(?::[0-9a-fA-F]{1,4}){1,5}|"
    "[0-9a-fA-F]{1,4}:(?:(?::[0-9a-fA-F]{1,4}){1,6})|"
    ":(?:(?::[0-9a-fA-F]{1,4}){1,7}|:)|"
    "fe80:(?::[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]+|"
    "::(?:ffff(?::0{1,4})?:)?(?:(?:25[0-5]|(?:2[0-4]|1?[0-9])?[0-9])\\.){3}"
    "(?:25[0-5]|(?:2[0-4]|1?[0-9])?[0-9])|"
    "(?:[0-9a-fA-F]{1,4}:){1,4}:(?:(?:25[0-5]|(?:2[0-4]|1?[0-9])?[0-9])\\.){3}"
    "(?:25[0-5]|(?:2[0-4]|1?[0-9])?[0-9])"
    ")";

constexpr const char* kEmail =
    R"([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})";

}  // namespace

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> kRules = {
      {"ipv4", '.', MatchScope::kAnywhere, std::regex(kIpv4)},
      {"ipv6", ':', MatchScope::kWholeToken, std::regex(kIpv6)},
      {"email", '@', MatchScope::kAnywhere, std::regex(kEmail)},
  };
  return kRules;
}

}  // namespace lqe::gateway::redact
