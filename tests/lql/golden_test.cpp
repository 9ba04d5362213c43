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
#include "lqe/base/ascii.h"
#include "lqe/lql.h"
#include "lql/timestamp.h"
#include "support/golden_file.h"
#include "support/test_database.h"
#include "test_ctes.h"

namespace lqe::lql {
namespace {

using Case = testing::GoldenCase;

std::string Option(const Case& c, const std::string& key, const std::string& fallback) {
  const auto it = c.options.find(key);
  return it == c.options.end() ? fallback : it->second;
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

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, MatchesExpected) {
  const std::string path = testing::SourcePath("tests/lql/" + GetParam());
  auto cases = testing::ReadGoldenFile(path);
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
    testing::WriteGoldenFile(path, cases);
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
    ch = ascii::IsAlnum(ch) ? ch : '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Lql, GoldenTest, ::testing::ValuesIn(GoldenFiles()), FileTestName);

}  // namespace
}  // namespace lqe::lql
