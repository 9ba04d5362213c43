// The shared golden-file reader and writer: headers, options, line numbers, and a rewrite that
// gives back the same text.
#include "support/golden_file.h"

#include <gtest/gtest.h>

namespace lqe::testing {
namespace {

const char* kText =
    "# first case\n"
    "[stored=logs.all] [consumer]\n"
    "select 1\n"
    "from x\n"
    "--\n"
    "SELECT 1\n"
    "\n"
    "==\n"
    "\n"
    "[ctes=a,b]\n"
    "t:today\n"
    "--\n"
    "ERROR\n"
    "--\n"
    "more\n";

TEST(GoldenFileTest, ReadsHeadersOptionsAndLines) {
  const auto cases = ParseGoldenText(kText);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].header,
            (std::vector<std::string>{"# first case", "[stored=logs.all] [consumer]"}));
  EXPECT_EQ(cases[0].options.at("stored"), "logs.all");
  EXPECT_EQ(cases[0].options.at("consumer"), "");
  EXPECT_EQ(cases[0].input, "select 1\nfrom x");
  EXPECT_EQ(cases[0].expected, "SELECT 1");  // trailing blank line dropped
  EXPECT_EQ(cases[0].line, 3);
  EXPECT_EQ(cases[1].options.at("ctes"), "a,b");
  EXPECT_EQ(cases[1].input, "t:today");
  EXPECT_EQ(cases[1].expected, "ERROR\n--\nmore");  // a later "--" belongs to the output
  EXPECT_EQ(cases[1].line, 11);
}

TEST(GoldenFileTest, WithoutHeadersEveryLineIsInput) {
  const auto cases = ParseGoldenText("\n# not a comment\nselect 1\n--\nok\n", GoldenHeader::kNone);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_TRUE(cases[0].header.empty());
  EXPECT_EQ(cases[0].input, "\n# not a comment\nselect 1");
  EXPECT_EQ(cases[0].line, 1);
}

TEST(GoldenFileTest, RewriteRoundTrips) {
  const auto cases = ParseGoldenText(kText);
  const std::string text = FormatGoldenText(cases);
  EXPECT_EQ(text,
            "# first case\n[stored=logs.all] [consumer]\nselect 1\nfrom x\n--\nSELECT 1\n==\n"
            "[ctes=a,b]\nt:today\n--\nERROR\n--\nmore\n");
  EXPECT_EQ(FormatGoldenText(ParseGoldenText(text)), text);
}

}  // namespace
}  // namespace lqe::testing
