// Redaction driven by tests/gateway/redact_cases.tsv, plus JSON traversal and the header switch.
#include "lqe/gateway/redact.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <fstream>

namespace lqe::gateway {
namespace {

std::string Unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() &&
        (s[i + 1] == 't' || s[i + 1] == 'n' || s[i + 1] == 'v')) {
      out.push_back(s[i + 1] == 't' ? '\t' : s[i + 1] == 'n' ? '\n' : '\v');
      ++i;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

TEST(RedactTest, CaseTable) {
  std::ifstream in(std::string(LQE_GATEWAY_TEST_DIR) + "/redact_cases.tsv");
  ASSERT_TRUE(in);
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    EXPECT_EQ(RedactString(Unescape(line.substr(0, tab))), Unescape(line.substr(tab + 1)))
        << "input: " << line.substr(0, tab);
    ++cases;
  }
  EXPECT_GE(cases, 25);
}

TEST(RedactTest, JsonValuesNotKeys) {
  auto v = boost::json::parse(
      R"({"10.0.0.1":"from 10.0.0.1","n":5,"nested":[{"ip":"::1","ok":true},["a@b.io"]]})");
  RedactJson(v);
  EXPECT_EQ(
      boost::json::serialize(v),
      R"({"10.0.0.1":"from REDACTED","n":5,"nested":[{"ip":"REDACTED","ok":true},["REDACTED"]]})");
}

TEST(RedactTest, HeaderSwitch) {
  std::string t = "TRUE", f = "1", empty;
  EXPECT_TRUE(RedactionEnabled(&t, false));
  EXPECT_FALSE(RedactionEnabled(&f, true));
  EXPECT_FALSE(RedactionEnabled(&empty, true));
  EXPECT_TRUE(RedactionEnabled(nullptr, true));
  EXPECT_FALSE(RedactionEnabled(nullptr, false));
}

}  // namespace
}  // namespace lqe::gateway
