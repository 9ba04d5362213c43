// libFuzzer target for PII redaction. The first byte picks how often the rest is repeated (up to
// 64 KiB; tests/gateway/redact_long_test.cpp covers 10 MB), so long and repetitive values are
// reached too. Checks, for every input:
//  - the redactor equals its rules' RE2 patterns run alone (the pre-checks change nothing);
//  - on short inputs it equals the same patterns run by std::regex, the engine it replaced;
//  - no IPv4 address the rule would match is left in the output;
//  - the output is longer than the input by at most 6 bytes per REDACTED in it (each
//    replacement stands for at least 2 bytes of input).
// Idempotence and "no e-mail left" are not invariants of the reference rules: "a@b.co@c.io"
// becomes "REDACTED@c.io" (a global replace resumes after the first address), and a second pass
// redacts that too.
#include <re2/re2.h>

#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/gateway/redact.h"
#include "redact/rules.h"

namespace {

namespace redact = lqe::gateway::redact;

constexpr std::size_t kOracleMaxBytes = 256;  // std::regex recurses per character

bool IsPcreSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Applies the rules in order without pre-checks: `replace_all` for kAnywhere rules,
// `whole_match` per whitespace-delimited token for kWholeToken rules.
template <typename ReplaceAll, typename WholeMatch>
std::string ApplyRules(std::string text, ReplaceAll replace_all, WholeMatch whole_match) {
  const std::string replacement(redact::kReplacement);
  for (std::size_t r = 0; r < redact::Rules().size(); ++r) {
    if (redact::Rules()[r].scope == redact::MatchScope::kAnywhere) {
      replace_all(r, text);
      continue;
    }
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
      if (IsPcreSpace(text[i])) {
        out.push_back(text[i++]);
        continue;
      }
      std::size_t end = i;
      while (end < text.size() && !IsPcreSpace(text[end])) ++end;
      std::string_view token(text.data() + i, end - i);
      if (whole_match(r, token)) {
        out += replacement;
      } else {
        out += token;
      }
      i = end;
    }
    text = std::move(out);
  }
  return text;
}

std::string Re2Only(const std::string& text) {
  return ApplyRules(
      text,
      [](std::size_t r, std::string& s) {
        RE2::GlobalReplace(&s, *redact::Rules()[r].pattern, redact::kReplacement);
      },
      [](std::size_t r, std::string_view token) {
        return RE2::FullMatch(token, *redact::Rules()[r].pattern);
      });
}

const std::vector<std::regex>& OraclePatterns() {
  static const std::vector<std::regex> patterns = [] {
    std::vector<std::regex> out;
    for (const redact::Rule& rule : redact::Rules()) out.emplace_back(std::string(rule.source));
    return out;
  }();
  return patterns;
}

std::string StdRegexOnly(const std::string& text) {
  return ApplyRules(
      text,
      [](std::size_t r, std::string& s) {
        s = std::regex_replace(s, OraclePatterns()[r], std::string(redact::kReplacement));
      },
      [](std::size_t r, std::string_view token) {
        return std::regex_match(token.begin(), token.end(), OraclePatterns()[r]);
      });
}

std::size_t CountReplacements(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t at = text.find(redact::kReplacement); at != std::string_view::npos;
       at = text.find(redact::kReplacement, at + redact::kReplacement.size())) {
    ++n;
  }
  return n;
}

const RE2& Ipv4Rule() {
  for (const redact::Rule& rule : redact::Rules()) {
    if (rule.name == "ipv4") return *rule.pattern;
  }
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // One selector value in 32 repeats the rest, 64 to 4096 times, up to 64 KiB of text: long
  // values stay rare enough to keep thousands of runs a second.
  constexpr std::size_t kMaxText = 64 * 1024;
  const std::size_t selector = data[0];
  const std::string_view piece(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t repeat = selector < 248 ? 1 : (selector - 247) * (selector - 247) * 64;
  if (!piece.empty() && piece.size() * repeat > kMaxText) repeat = kMaxText / piece.size();
  std::string text;
  text.reserve(piece.size() * repeat);
  for (std::size_t i = 0; i < repeat; ++i) text.append(piece);

  const std::string out = lqe::gateway::RedactString(text);
  if (out != Re2Only(text)) __builtin_trap();
  if (text.size() <= kOracleMaxBytes && out != StdRegexOnly(text)) __builtin_trap();
  if (RE2::PartialMatch(out, Ipv4Rule())) __builtin_trap();
  if (out.size() > text.size() + 6 * CountReplacements(out)) __builtin_trap();
  return 0;
}
