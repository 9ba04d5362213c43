// ConvertRe2ToPosix: RE2 pattern -> exact ARE text, or the error and its byte offset.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lqe/regex.h"

namespace {

struct Converts {
  std::string re2;
  std::string are;
};

struct Refuses {
  std::string re2;
  std::string error;
  std::size_t offset;
};

class RegexConverts : public ::testing::TestWithParam<Converts> {};

TEST_P(RegexConverts, ToExpectedAre) {
  const auto result = lqe::ConvertRe2ToPosix(GetParam().re2);
  EXPECT_EQ(result.error, "");
  EXPECT_EQ(result.pattern, GetParam().are);
}

const std::vector<Converts> kConverts = {
    // Plain text and alternation pass through.
    {"/rest|/storage", "/rest|/storage"},
    {"abc", "abc"},
    {"", ""},
    {"a|", "a|"},
    // Word boundaries.
    {R"(\bfoo\b)", R"(\yfoo\y)"},
    {R"(\Bx)", R"(\Yx)"},
    // Flags: a leading (?i) is ARE's prefix; scoped or later ones expand letters.
    {"(?i)select", "(?i)select"},
    {"(?i)[a-z]+", "(?i)[a-z]+"},
    {"(?i)é", "(?i)é"},
    {"a(?i)bc", "a[Bb][Cc]"},
    {"(?i:ab)c", "(?:[Aa][Bb])c"},
    {"(?i:[a-c])", "(?:[A-Ca-c])"},
    {"(?i:[^a])", "(?:[^Aa])"},
    {"x(?i:1-b)", "x(?:1-[Bb])"},
    {"(?i)a(?i)b", "(?i)ab"},
    {"(a(?i)b)c", "(a[Bb])c"},
    // Dot excludes newline unless (?s).
    {".*", R"([^\n]*)"},
    {"(?s).", "."},
    {"(?s:.)..", R"((?:.)[^\n][^\n])"},
    // ^ and $ are text anchors; under (?m) also line anchors.
    {"^a$", "^a$"},
    {"(?m)^a$", R"((?:^|(?<=\n))a(?:$|(?=\n)))"},
    {R"(\Aa\z)", R"(\Aa\Z)"},
    // Perl and POSIX classes keep RE2's ASCII meaning.
    {R"(\d+)", "[0-9]+"},
    {R"(\s)", R"([\u0009\u000A\u000C\u000D\u0020])"},
    {R"(\w)", R"([0-9A-Z\u005Fa-z])"},
    {R"(\D)", "[^0-9]"},
    {R"(\W)", R"([^0-9A-Z\u005Fa-z])"},
    {"[[:alpha:]]", "[A-Za-z]"},
    {"[[:digit:][:upper:]]", "[0-9A-Z]"},
    {"[[:^digit:]x]", R"([\u0001-\u002F\u003A-\U0010FFFF])"},
    {"[[:word:]-]", R"([\u002D0-9A-Z\u005Fa-z])"},
    {R"([\d.])", R"([\u002E0-9])"},
    {R"([^\D])", R"([^\u0001-\u002F\u003A-\U0010FFFF])"},
    {"[]a]", R"([\u005Da])"},
    {"[a-]", R"([\u002Da])"},
    {"[-a]", R"([\u002Da])"},
    {R"([\]\\^])", R"([\u005C-\u005E])"},
    {"[a-cx-z]", "[a-cx-z]"},
    {"[ab]", "[ab]"},
    // Unicode classes ARE can express.
    {R"(\pL+)", "[[:alpha:]]+"},
    {R"(\p{L})", "[[:alpha:]]"},
    {R"(\PL)", "[^[:alpha:]]"},
    {R"(\p{^L})", "[^[:alpha:]]"},
    {R"(\p{Lu}\p{Ll})", "[[:upper:]][[:lower:]]"},
    {R"([\pL\d])", "[0-9[:alpha:]]"},
    {R"(\p{Cyrillic})",
     R"([\u0400-\u0484\u0487-\u052F\u1C80-\u1C88\u1D2B\u1D78\u2DE0-\u2DFF\uA640-\uA69F\uFE2E\uFE2F])"},
    {R"(\p{Thai}+)", R"([\u0E01-\u0E3A\u0E40-\u0E5B]+)"},
    {R"(\P{Hebrew})",
     R"([^\u0591-\u05C7\u05D0-\u05EA\u05EF-\u05F4\uFB1D-\uFB36\uFB38-\uFB3C\uFB3E\uFB40\uFB41\uFB43\uFB44\uFB46-\uFB4F])"},
    // Quoting and escapes.
    {R"(\Qa.b*\E+)", R"(a\.b\*+)"},
    {R"(\Q(x)\E)", R"(\(x\))"},
    {R"(\Qa\\b)", R"(a\\b)"},
    {R"(\x{41}\x42\101)", "ABA"},
    {R"(\x{263a})", "☺"},
    {R"(\t\n)", R"(\u0009\u000A)"},
    {R"([\t])", R"([\u0009])"},
    {R"(\.\$\{\})", R"(\.\$\{\})"},
    {R"(\-\/\:)", "-/:"},
    {"a.b", R"(a[^\n]b)"},
    // Repetition, lazy quantifiers, (?U) and counts beyond ARE's 255.
    {"a+?b*?c??", "a+?b*?c??"},
    {"a{2}", "a{2}"},
    {"a{2,}", "a{2,}"},
    {"a{2,5}?", "a{2,5}?"},
    {"(?U)a*b+?", "a*?b+"},
    {"a{300}", "(?:(?:a){255}(?:a){45})"},
    {"(?:ab){0,256}", "(?:(?:(?:ab)){0,255}(?:(?:ab)){0,1})"},
    {"a{256,}", "(?:(?:a){255}(?:a){1}(?:a)*)"},
    // '{' that does not start a repeat is literal, as in RE2.
    {"{", R"(\{)"},
    {"a{,3}", R"(a\{,3\})"},
    {"a{x}", R"(a\{x\})"},
    // Groups: named groups become plain groups (numbers unchanged).
    {"(?P<name>x)(?<m>y)", "(x)(y)"},
    {"(?:a|b)+", "(?:a|b)+"},
    {"((a)b)*", "((a)b)*"},
    {"()", "()"},
};

INSTANTIATE_TEST_SUITE_P(Table, RegexConverts, ::testing::ValuesIn(kConverts));

class RegexRefuses : public ::testing::TestWithParam<Refuses> {};

TEST_P(RegexRefuses, WithPositionedError) {
  const auto result = lqe::ConvertRe2ToPosix(GetParam().re2);
  EXPECT_EQ(result.pattern, "");
  EXPECT_EQ(result.error, GetParam().error);
  EXPECT_EQ(result.error_offset, GetParam().offset);
}

const std::vector<Refuses> kRefuses = {
    {R"(\1)", R"(backreferences are not supported (RE2 has none): \1)", 0},
    {R"((a)\1)", R"(backreferences are not supported (RE2 has none): \1)", 3},
    {"(?P<n>a)(?P=n)", "backreferences are not supported (RE2 has none)", 8},
    {"(?=a)", "lookaround assertions are not supported (RE2 has none)", 0},
    {"x(?!a)", "lookaround assertions are not supported (RE2 has none)", 1},
    {"(?<=a)b", "lookaround assertions are not supported (RE2 has none)", 0},
    {"(?<!a)b", "lookaround assertions are not supported (RE2 has none)", 0},
    {"a*+",
     "bad repetition operator +: a repetition cannot be repeated (no possessive "
     "quantifiers in RE2)",
     2},
    {"a++",
     "bad repetition operator +: a repetition cannot be repeated (no possessive "
     "quantifiers in RE2)",
     2},
    {"a**",
     "bad repetition operator *: a repetition cannot be repeated (no possessive "
     "quantifiers in RE2)",
     2},
    {"*a", "missing argument to repetition operator *", 0},
    {"(+)", "missing argument to repetition operator +", 1},
    {"a|*", "missing argument to repetition operator *", 2},
    {"{2}", "missing argument to repetition operator {2}", 0},
    {"^*", "repetition of an empty-width assertion is not supported", 1},
    {R"(\b+)", "repetition of an empty-width assertion is not supported", 2},
    {"a{2,1001}", "bad repetition operator {2,1001}: counts must be ordered and at most 1000", 1},
    {"a{1001}", "bad repetition operator {1001}: counts must be ordered and at most 1000", 1},
    {"a{5,2}", "bad repetition operator {5,2}: counts must be ordered and at most 1000", 1},
    {"(", "missing closing ): unclosed group", 0},
    {"a(b(c)", "missing closing ): unclosed group", 1},
    {")", "unexpected ): no group to close", 0},
    {"[a", "missing closing ] of character class", 0},
    {"[]", "missing closing ] of character class", 0},
    {R"(a\)", "trailing backslash at end of regular expression", 1},
    {R"(\_)", R"(invalid escape sequence \_)", 0},
    {R"(\C)", R"(invalid escape sequence \C)", 0},
    {R"(\E)", R"(invalid escape sequence \E)", 0},
    {R"(\Z)", R"(\Z is not supported by RE2: use \z for the end of the text)", 0},
    {R"(\8)", R"(backreferences are not supported (RE2 has none): \8)", 0},
    {"(a){256}", "a capturing group repeated more than 255 times has no PostgreSQL equivalent", 3},
    {R"([\b])", R"(invalid escape sequence \b in character class)", 1},
    {R"(\x{110000})", R"(invalid escape sequence: bad \x{...} code point)", 0},
    {R"(\xZZ)", R"(invalid escape sequence: \x needs two hex digits)", 0},
    {R"(\x00)", "a NUL character cannot occur in PostgreSQL text", 0},
    {"[z-a]", "invalid character class range z-a", 1},
    {R"([a-\d])", R"(invalid character class range a-\d)", 1},
    {"[[:foo:]]", "invalid character class range [:foo:]", 1},
    {"(?#comment)", "invalid or unsupported Perl syntax after (?", 0},
    {"(?x)a", "invalid or unsupported Perl syntax after (?", 0},
    {"(?P<>a)", "invalid named capture group", 0},
    {R"(\p{Arabic})",
     R"(unicode class \p{Arabic} has no PostgreSQL equivalent (supported: L, Lu, Ll, Greek, )"
     "Cyrillic, Han, Hiragana, Katakana, Hangul, Hebrew, Thai)",
     0},
    {R"([^\PL])", "a negated Unicode class inside brackets has no PostgreSQL equivalent", 2},
    {"(?i)a(?-i)b",
     "turning off case-insensitivity after a leading (?i) has no PostgreSQL "
     "equivalent",
     5},
    {"(?i:é)",
     "case-insensitive matching of a non-ASCII character is supported only with a "
     "leading (?i)",
     4},
    {R"(a(?i)\pL)",
     "case-insensitive character class with non-ASCII characters is supported "
     "only with a leading (?i)",
     5},
    {"a\xff", "invalid UTF-8 in regular expression", 1},
    {"\xc3", "invalid UTF-8 in regular expression", 0},
};

INSTANTIATE_TEST_SUITE_P(Table, RegexRefuses, ::testing::ValuesIn(kRefuses));

TEST(RegexLimits, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(5000, '(') + std::string(5000, ')');
  const auto result = lqe::ConvertRe2ToPosix(deep);
  EXPECT_EQ(result.error, "regular expression nests groups too deeply (RE2 limit 1000)");
  EXPECT_EQ(result.error_offset, 1000U);
}

// Deterministic garbage (all ASCII but NUL, or only regex syntax characters) against RE2 itself,
// the dialect being converted: a pattern RE2 refuses must be refused, with an error inside the
// pattern; a pattern RE2 accepts either converts or is refused as unsupported.
TEST(RegexLimits, GarbageRe2RefusesIsRefused) {
  const std::string syntax = R"(()[]{}|*+?.^$\\-,:0123456789azAZ<>PpdDwWsSbBxQE=!#&~)";
  std::uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1103515245U + 12345U;  // a fixed LCG: the same garbage on every run
    return state >> 16;
  };
  for (bool ascii : {true, false}) {
    int accepted_by_re2 = 0;
    int refused_by_re2 = 0;
    for (int i = 0; i < 3000; ++i) {
      std::string junk;
      const std::size_t length = 1 + next() % 40;
      while (junk.size() < length) {
        junk += ascii ? static_cast<char>(1 + next() % 127) : syntax[next() % syntax.size()];
      }
      const auto result = lqe::ConvertRe2ToPosix(junk);
      const RE2 re2(junk, RE2::Quiet);
      if (re2.ok()) {
        ++accepted_by_re2;
      } else {
        ++refused_by_re2;
        ASSERT_NE(result.error, "") << "RE2 refuses (" << re2.error() << "): " << junk;
      }
      if (!result.error.empty()) {
        ASSERT_LT(result.error_offset, junk.size()) << result.error << ": " << junk;
      }
    }
    // Both verdicts occur, so neither branch above is vacuous.
    EXPECT_GT(accepted_by_re2, 100) << "ascii=" << ascii;
    EXPECT_GT(refused_by_re2, 100) << "ascii=" << ascii;
  }
}

}  // namespace
