// Golden AST dumps for tests/parse/*.test, plus invariants checked on every case: parsing twice
// gives the same output, and CRLF line endings give the same output. UPDATE_GOLDEN=1 rewrites
// the expected sections from the actual output (review the diff).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ast/ast_dump.h"
#include "parse/parser.h"
#include "support/golden_file.h"

namespace lqe::parse {
namespace {

namespace fs = std::filesystem;

std::string Render(std::string_view sql, lex::Dialect dialect = lex::Dialect::kBigQuery) {
  ParseOptions options;
  options.dialect = dialect;
  auto result = ParseQuery(sql, options);
  if (const auto* diag = std::get_if<Diagnostic>(&result)) {
    return "ERROR: " + RenderCaret(*diag, sql);
  }
  std::string dump = ast::DumpAst(*std::get<ast::QueryPtr>(result), sql);
  while (!dump.empty() && dump.back() == '\n') dump.pop_back();
  return dump;
}

std::string WithCrlf(std::string_view sql) {
  std::string out;
  for (const char c : sql) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

std::vector<fs::path> GoldenFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(LQE_SOURCE_DIR) / "tests/parse")) {
    if (entry.path().extension() == ".test") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ParseGoldenTest, AllFiles) {
  const bool update = std::getenv("UPDATE_GOLDEN") != nullptr;
  const auto files = GoldenFiles();
  ASSERT_FALSE(files.empty());
  std::size_t total = 0;
  for (const fs::path& file : files) {
    auto cases = lqe::testing::ReadGoldenFile(file.string(), lqe::testing::GoldenHeader::kNone);
    for (auto& c : cases) {
      ++total;
      const std::string where = file.filename().string() + ":" + std::to_string(c.line);
      const std::string actual = Render(c.input);
      EXPECT_EQ(Render(c.input), actual) << where << ": parsing twice differs";
      // Triple-quoted strings keep their line endings, so their values change with CRLF.
      if (c.input.find("'''") == std::string::npos && c.input.find("\"\"\"") == std::string::npos) {
        EXPECT_EQ(Render(WithCrlf(c.input)), actual) << where << ": CRLF input differs";
      }
      if (update) {
        c.expected = actual;
      } else {
        EXPECT_EQ(actual, c.expected) << where << "\n" << c.input;
      }
    }
    if (update) lqe::testing::WriteGoldenFile(file.string(), cases);
  }
  std::cout << "golden cases: " << total << "\n";
}

// The language an endpoint's YAML beside `sql_file` declares (BigQuery when it says none).
lex::Dialect DialectOf(const fs::path& sql_file) {
  fs::path yaml = sql_file;
  yaml.replace_extension(".yaml");
  std::ifstream in(yaml);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("language:", 0) == 0 && line.find("clickhouse") != std::string::npos) {
      return lex::Dialect::kClickHouse;
    }
  }
  return lex::Dialect::kBigQuery;
}

// The stored endpoint queries must parse, each in its endpoint's language.
TEST(ParseGoldenTest, StoredQueriesParse) {
  std::size_t n = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(LQE_SOURCE_DIR) / "sql")) {
    if (entry.path().extension() != ".sql") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string sql = ss.str();
    const lex::Dialect dialect = DialectOf(entry.path());
    const std::string out = Render(sql, dialect);
    EXPECT_EQ(out.rfind("Query ", 0), 0u) << entry.path() << "\n" << out;
    EXPECT_EQ(Render(WithCrlf(sql), dialect), out) << entry.path();
    ++n;
  }
  EXPECT_GE(n, 2u);
}

}  // namespace
}  // namespace lqe::parse
