// The redactor's cheap pre-checks must never change a result: on many generated strings made of
// the characters addresses are made of, RedactString must equal the rules' regexes applied alone.
#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>

#include "lqe/gateway/redact.h"
#include "redact/rules.h"

namespace lqe::gateway {
namespace {

bool IsPcreSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// The rules with no pre-checks: every regex always runs.
std::string RegexOnly(std::string text) {
  const std::string replacement(redact::kReplacement);
  for (const redact::Rule& rule : redact::Rules()) {
    if (rule.scope == redact::MatchScope::kAnywhere) {
      text = std::regex_replace(text, rule.pattern, replacement);
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
      std::string token = text.substr(i, end - i);
      out += std::regex_match(token, rule.pattern) ? replacement : token;
      i = end;
    }
    text = out;
  }
  return text;
}

TEST(RedactPrefilterTest, HandPickedNearMisses) {
  const char* cases[] = {
      "1.2.3.4",
      "01.002.3.255",
      "256.1.1.1",
      "1.2.3.4.5",
      "a1.2.3.4",
      "1.2.3.4a",
      "1.2.3.4_",
      "_1.2.3.4",
      "x 10.0.0.1, y",
      "120.0.6099.109",
      "1234.1.2.3.4",
      "Chrome/120.0.6099.109",
      "::1",
      "fe80::1%eth0",
      "::ffff:10.0.0.1",
      "2001:db8::1 x",
      "10:00:00",
      "a@b.co",
      "a@b",
      "@b.co",
      "a@.co",
      "x.y+z@mail.example.org",
      "me@-x.io",
      "u@h.c",
      "mail a@b.co and 1.2.3.4 at ::1",
  };
  for (const char* text : cases) EXPECT_EQ(RedactString(text), RegexOnly(text)) << text;
}

TEST(RedactPrefilterTest, GeneratedStringsAgreeWithTheRegexes) {
  const std::string alphabet = "0123456789012345....:::@@%abfFxZ_- ";
  std::mt19937 random(20261121);
  std::uniform_int_distribution<std::size_t> length(0, 28);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  int redacted = 0;
  for (int n = 0; n < 50000; ++n) {
    std::string text;
    for (std::size_t k = length(random); k > 0; --k) text.push_back(alphabet[pick(random)]);
    std::string expected = RegexOnly(text);
    ASSERT_EQ(RedactString(text), expected) << "input: " << text;
    redacted += expected != text ? 1 : 0;
  }
  EXPECT_GT(redacted, 200);  // the generator does reach real matches (366 with this seed)
}

}  // namespace
}  // namespace lqe::gateway
