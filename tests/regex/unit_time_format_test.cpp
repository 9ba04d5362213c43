// ConvertTimeFormat: BigQuery format strings -> PostgreSQL to_char templates, or a positioned
// error for elements to_char cannot reproduce.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pg/time_format.h"

namespace {

struct Converts {
  std::string bigquery;
  std::string pg;
};

struct Refuses {
  std::string bigquery;
  std::string error;
  std::size_t offset;
};

class TimeFormatConverts : public ::testing::TestWithParam<Converts> {};

TEST_P(TimeFormatConverts, ToExpectedTemplate) {
  const auto result = lqe::pg::ConvertTimeFormat(GetParam().bigquery);
  EXPECT_EQ(result.error, "");
  EXPECT_EQ(result.pattern, GetParam().pg);
}

const std::vector<Converts> kConverts = {
    {"%Y-%m-%d %H:%M:%S", R"(YYYY"-"MM"-"DD" "HH24":"MI":"SS)"},
    {"%F %T", R"(YYYY-MM-DD" "HH24:MI:SS)"},
    {"%Y%m%d", R"(YYYY""MM""DD)"},
    {"%y%Y", R"(YY""YYYY)"},
    {"%E3S", "SS.FF3"},
    {"%E6S", "SS.FF6"},
    {"%E1S", "SS.FF1"},
    {"%E0S", "SS"},
    {"%E4Y", "YYYY"},
    {"%D", "MM/DD/YY"},
    {"%x %X", R"(MM/DD/YY" "HH24:MI:SS)"},
    {"%R", "HH24:MI"},
    {"%j", "DDD"},
    {"%a %A", R"(Dy" "FMDay)"},
    {"%b %h %B", R"(Mon" "Mon" "FMMonth)"},
    {"%I:%M %p", R"(HH12":"MI" "AM)"},
    {"%G-W%V-%u", R"(IYYY"-W"IW"-"ID)"},
    {"%g", "IY"},
    {"Q%Q", R"("Q"Q)"},
    {"%z", "TZHTZM"},
    {"%Ez", "TZH:TZM"},
    {"%Z", "TZ"},
    {"100%%", R"("100%")"},
    {"%H%%%M", R"(HH24"%"MI)"},
    {"a%nb%tc", "\"a\nb\tc\""},
    {R"(say "hi" \o/)", R"("say \"hi\" \\o/")"},
    {"plain", R"("plain")"},
    {"", ""},
};

INSTANTIATE_TEST_SUITE_P(Table, TimeFormatConverts, ::testing::ValuesIn(kConverts));

class TimeFormatRefuses : public ::testing::TestWithParam<Refuses> {};

TEST_P(TimeFormatRefuses, WithPositionedError) {
  const auto result = lqe::pg::ConvertTimeFormat(GetParam().bigquery);
  EXPECT_EQ(result.pattern, "");
  EXPECT_EQ(result.error, GetParam().error);
  EXPECT_EQ(result.error_offset, GetParam().offset);
}

const std::vector<Refuses> kRefuses = {
    {"%E*S",
     "format element %E*S has no PostgreSQL equivalent: it prints only the significant "
     "fraction digits",
     0},
    {"%Y %e", "format element %e has no PostgreSQL equivalent: it pads the day with a space", 3},
    {"%l", "format element %l has no PostgreSQL equivalent: it pads the hour with a space", 0},
    {"%k", "format element %k has no PostgreSQL equivalent: it pads the hour with a space", 0},
    {"%C",
     "format element %C has no PostgreSQL equivalent: it is year / 100, PostgreSQL's CC "
     "is the ordinal century",
     0},
    {"%w", "format element %w has no PostgreSQL equivalent: it numbers Sunday as 0", 0},
    {"%U", "format element %U has no PostgreSQL equivalent: it counts weeks from Sunday", 0},
    {"%W",
     "format element %W has no PostgreSQL equivalent: it counts weeks from Monday outside "
     "ISO weeks",
     0},
    {"%s", "format element %s has no PostgreSQL equivalent: it prints seconds since the epoch", 0},
    {"%c", "format element %c has no PostgreSQL equivalent: it pads the day with a space", 0},
    {"x%P", "unsupported format element %P", 1},
    {"%E7S", "unsupported format element %E7", 0},
    {"%Y%", "incomplete format element % at the end of the format", 2},
};

INSTANTIATE_TEST_SUITE_P(Table, TimeFormatRefuses, ::testing::ValuesIn(kRefuses));

}  // namespace
