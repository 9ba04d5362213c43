// Converted patterns run on the real cluster match exactly the strings RE2 (BigQuery's
// REGEXP_CONTAINS) matches. Expected values are RE2 semantics, written by hand.
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "lqe/regex.h"
#include "support/test_database.h"

namespace {

struct Case {
  std::string re2;
  std::string subject;
  bool matches;  // REGEXP_CONTAINS(subject, re2) in BigQuery
};

const std::vector<Case> kCases = {
    {R"(\bauth\b)", "/auth/v1/token", true},
    {R"(\bauth\b)", "/oauth/v1", false},
    {R"(\Bauth)", "/oauth/v1", true},
    {"(?i)select", "SeLeCt 1", true},
    {"(?i)ÉTÉ", "été", true},
    {"a(?i)bc", "aBC", true},
    {"a(?i)bc", "ABC", false},
    {"(?i:ab)c", "ABc", true},
    {"(?i:ab)c", "ABC", false},
    {"(?i:[a-c])x", "Bx", true},
    {"(?i:[^a])", "A", false},
    {"a.c", "a\nc", false},
    {"a.c", "a-c", true},
    {"(?s)a.c", "a\nc", true},
    {"a[^x]c", "a\nc", true},
    {"^b", "a\nb", false},
    {"(?m)^b", "a\nb", true},
    {"a$", "a\nb", false},
    {"(?m)a$", "a\nb", true},
    {"a$", "ba", true},
    {"a$", "a\n", false},
    {R"(\Aa)", "ba", false},
    {R"(a\z)", "ba", true},
    {R"(a\z)", "a\n", false},
    {R"(^\d+$)", "123", true},
    {R"(^\d+$)", "١٢٣", false},  // Arabic-Indic digits are not \d in RE2
    {R"(^\w+$)", "été", false},  // nor are accented letters \w
    {R"(^\w+$)", "snake_case9", true},
    {R"(\s)", "\v", false},  // RE2's \s has no vertical tab
    {R"(\s)", "a b", true},
    {"^[[:alpha:]]+$", "abcXYZ", true},
    {"^[[:alpha:]]+$", "é", false},
    {R"(^\pL+$)", "été", true},
    {R"(^\p{Greek}+$)", "αβγ", true},
    {R"(^\p{Greek}+$)", "abc", false},
    {R"(\p{Cyrillic})", "привет", true},
    {R"(\Qa.b\E)", "a.b", true},
    {R"(\Qa.b\E)", "axb", false},
    {R"(\x{41}\x42\101)", "ABA", true},
    {"^a{300}$", std::string(300, 'a'), true},
    {"^a{300}$", std::string(299, 'a'), false},
    {"^(?:ab){2,260}$", "abababab", true},
    {"^a{256,}$", std::string(256, 'a'), true},
    {"^a{256,}$", std::string(255, 'a'), false},
    {"(?P<year>\\d{4})-(?P<m>\\d{2})", "on 2025-01-15", true},
    {"[]a]+", "]]a", true},
    {"[a-]", "-", true},
    {R"([\]\\^])", "\\", true},
    {"a{,3}", "a{,3}", true},
    {"x{", "x{", true},
    {"/rest|/storage", "/storage/v1/object", true},
    {"(?U)a+", "aaa", true},
    {"^a+?$", "aaa", true},
};

class RegexOnPostgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new lqe::testing::TestDatabase("regex");
    conn_ = new pqxx::connection(db_->dsn());
  }
  static void TearDownTestSuite() {
    delete conn_;
    delete db_;
  }
  static lqe::testing::TestDatabase* db_;
  static pqxx::connection* conn_;
};

lqe::testing::TestDatabase* RegexOnPostgres::db_ = nullptr;
pqxx::connection* RegexOnPostgres::conn_ = nullptr;

TEST_F(RegexOnPostgres, ConvertedPatternsMatchAsRe2Does) {
  pqxx::nontransaction tx(*conn_);
  for (const auto& c : kCases) {
    const auto converted = lqe::ConvertRe2ToPosix(c.re2);
    ASSERT_EQ(converted.error, "") << c.re2;
    const bool got = tx.exec_params1("SELECT $1::text ~ $2::text", c.subject, converted.pattern)
                         .front()
                         .as<bool>();
    EXPECT_EQ(got, c.matches) << "RE2 " << c.re2 << " as ARE " << converted.pattern << " on '"
                              << c.subject << "'";
  }
}

TEST_F(RegexOnPostgres, CapturingGroupsKeepTheirNumbers) {
  pqxx::nontransaction tx(*conn_);
  const auto converted = lqe::ConvertRe2ToPosix(R"((?P<user>\w+)@(?:[a-z]+)\.(com|org))");
  ASSERT_EQ(converted.error, "");
  const auto row = tx.exec_params1("SELECT (regexp_match($1, $2))[1], (regexp_match($1, $2))[2]",
                                   "mail bob_1@example.org now", converted.pattern);
  EXPECT_EQ(row[0].as<std::string>(), "bob_1");
  EXPECT_EQ(row[1].as<std::string>(), "org");
}

}  // namespace
