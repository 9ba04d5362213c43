// PII rules. IPv4 and IPv6 reproduce Logflare's PiiRedactor matching (logflare-behaviour.md §3):
// IPv4 anywhere at word boundaries, then IPv6 only when whitespace or the string's ends surround
// it. RE2 has no lookaround, so the IPv6 rule is applied to whole whitespace-delimited tokens,
// which matches exactly the same spans.
#include "redact/rules.h"

#include <stdexcept>
#include <string>

#include "lqe/base/ascii.h"

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

bool IsWordChar(char c) {
  return ascii::IsAlnum(c) || c == '_';
}

// With \b on both sides, an IPv4 match is four whole runs of 1-3 digits joined by single dots,
// not preceded or followed by a word character. Versions like 120.0.6099.109 fail here.
bool MayHoldIpv4(std::string_view text) {
  for (std::size_t start = 0; start < text.size(); ++start) {
    if (!ascii::IsDigit(text[start]) || (start > 0 && IsWordChar(text[start - 1]))) continue;
    std::size_t i = start;
    for (int groups = 1;; ++groups) {
      std::size_t run = i;
      while (run < text.size() && ascii::IsDigit(text[run])) ++run;
      if (run == i || run - i > 3) break;
      i = run;
      if (groups == 4) {
        if (i == text.size() || !IsWordChar(text[i])) return true;
        break;
      }
      if (i >= text.size() || text[i] != '.') break;
      ++i;
    }
  }
  return false;
}

// Every IPv6 form above is hex digits, colons and dots, with at least one colon; only the
// fe80 form has a '%' and a zone after it.
bool MayBeIpv6Token(std::string_view token) {
  bool colon = false;
  for (char c : token) {
    if (c == '%') break;
    if (c == ':') {
      colon = true;
    } else if (!ascii::IsHexDigit(c) && c != '.') {
      return false;
    }
  }
  return colon;
}

// An e-mail address has an '@' between a local-part character and a domain character, and a
// dot somewhere after it. Linear: every '@' compares with the last dot instead of searching.
bool MayHoldEmail(std::string_view text) {
  auto local = [](char c) {
    return ascii::IsAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
  };
  const std::size_t last_dot = text.rfind('.');
  if (last_dot == std::string_view::npos) return false;
  for (std::size_t at = text.find('@'); at != std::string_view::npos; at = text.find('@', at + 1)) {
    if (at == 0 || at + 2 >= text.size() || last_dot < at + 2) continue;
    bool domain = ascii::IsAlnum(text[at + 1]) || text[at + 1] == '-';
    if (local(text[at - 1]) && domain) return true;
  }
  return false;
}

// Latin-1: the patterns only match ASCII, and every other byte is then a single non-word
// character, as it was for std::regex over char. No error logging: a compile failure throws.
std::unique_ptr<const RE2> Compile(std::string_view name, std::string_view source) {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  auto re = std::make_unique<const RE2>(re2::StringPiece(source.data(), source.size()), options);
  if (!re->ok()) {
    throw std::logic_error("redaction rule " + std::string(name) + ": " + re->error());
  }
  return re;
}

Rule MakeRule(std::string_view name, bool (*may_match)(std::string_view), MatchScope scope,
              std::string_view source) {
  return Rule{name, may_match, scope, source, Compile(name, source)};
}

}  // namespace

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> table;
    table.push_back(MakeRule("ipv4", MayHoldIpv4, MatchScope::kAnywhere, kIpv4));
    table.push_back(MakeRule("ipv6", MayBeIpv6Token, MatchScope::kWholeToken, kIpv6));
    table.push_back(MakeRule("email", MayHoldEmail, MatchScope::kAnywhere, kEmail));
    return table;
  }();
  return rules;
}

}  // namespace lqe::gateway::redact
