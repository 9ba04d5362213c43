// Data-driven LQL tests: tests/lql/*.test hold cases "LQL input, --, expected", separated by
// "==". The expected text is the lowered query rendered as BigQuery SQL, or the error with its
// caret, hint and code. Lines before the input may be "# comments" or "[ctes=a,b]" /
// "[now=<ISO datetime>]" options. UPDATE_GOLDEN=1 rewrites the files with the actual output.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bq_render.h"
#include "lqe/lql.h"
#include "lql/timestamp.h"
#include "support/test_database.h"
#include "test_ctes.h"

namespace lqe::lql {
namespace {

struct Case {
  std::vector<std::string> header;  // comments and options, verbatim
  std::string input;
  std::string expected;
  int line = 0;
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
  }
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    out += (i > from ? "\n" : "") + lines[i];
  }
  return out;
}

std::vector<Case> ParseCases(const std::string& text) {
  const auto lines = Lines(text);
  std::vector<Case> cases;
  std::size_t i = 0;
  while (i < lines.size()) {
    Case c;
    while (i < lines.size() &&
           (lines[i].starts_with("#") || lines[i].starts_with("[") || lines[i].empty())) {
      if (!lines[i].empty()) {
        c.header.push_back(lines[i]);
      }
      ++i;
    }
    if (i >= lines.size()) {
      break;
    }
    c.line = static_cast<int>(i + 1);
    std::size_t sep = i;
    while (sep < lines.size() && lines[sep] != "--") {
      ++sep;
    }
    c.input = JoinLines(lines, i, sep);
    std::size_t end = sep + 1;
    while (end < lines.size() && lines[end] != "==") {
      ++end;
    }
    c.expected = sep < lines.size() ? JoinLines(lines, sep + 1, std::min(end, lines.size())) : "";
    cases.push_back(std::move(c));
    i = end + 1;
  }
  return cases;
}

std::string Option(const Case& c, const std::string& key, const std::string& fallback) {
  for (const auto& h : c.header) {
    const std::string prefix = "[" + key + "=";
    if (h.starts_with(prefix) && h.ends_with("]")) {
      return h.substr(prefix.size(), h.size() - prefix.size() - 1);
    }
  }
  return fallback;
}

LowerContext ContextFor(const Case& c) {
  LowerContext context;
  context.ctes = testing::CtesNamed(Option(c, "ctes", "edge_logs"));
  const auto now = ParseTimeValue(Option(c, "now", "2024-05-15T12:34:56.789012Z"), 0);
  context.now = std::chrono::system_clock::time_point(
      std::chrono::microseconds(std::get<TimeValue>(now).point.micros));
  return context;
}

std::string LowerAndRender(const std::string& input, const LowerContext& context) {
  auto result = Lower(input, context);
  if (auto* query = std::get_if<ast::QueryPtr>(&result)) {
    return RenderBigQuery(**query);
  }
  const Diagnostic& d = std::get<Diagnostic>(result);
  return "ERROR: " + RenderCaret(d, input) + "\nCODE: " + std::string(DiagCodeName(d.code));
}

std::string Serialize(const std::vector<Case>& cases) {
  std::string out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (i) {
      out += "==\n";
    }
    for (const auto& h : cases[i].header) {
      out += h + "\n";
    }
    out += cases[i].input + "\n--\n" + cases[i].expected + "\n";
  }
  return out;
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, MatchesExpected) {
  const std::string path = testing::SourcePath("tests/lql/" + GetParam());
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  auto cases = ParseCases(text.str());
  ASSERT_FALSE(cases.empty());
  const bool update = std::getenv("UPDATE_GOLDEN") != nullptr;
  for (auto& c : cases) {
    const LowerContext context = ContextFor(c);
    const std::string actual = LowerAndRender(c.input, context);
    EXPECT_EQ(actual, LowerAndRender(c.input, context)) << "not deterministic: " << c.input;
    if (update) {
      c.expected = actual;
    } else {
      EXPECT_EQ(c.expected, actual) << GetParam() << ":" << c.line << ": " << c.input;
    }
  }
  if (update) {
    std::ofstream(path) << Serialize(cases);
  }
}

std::vector<std::string> GoldenFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourcePath("tests/lql"))) {
    if (entry.path().extension() == ".test") {
      files.push_back(entry.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string FileTestName(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param.substr(0, param.param.find('.'));
  for (char& ch : name) {
    ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Lql, GoldenTest, ::testing::ValuesIn(GoldenFiles()), FileTestName);

}  // namespace
}  // namespace lqe::lql
