// Size and depth limits turn pathological input into kLimit diagnostics, never a crash.
#include <gtest/gtest.h>

#include <string>

#include "ast/ast_dump.h"
#include "parse/parser.h"

namespace lqe::parse {
namespace {

Diagnostic ParseError(const std::string& sql, ParseOptions options = {}) {
  auto result = ParseQuery(sql, options);
  if (const auto* diag = std::get_if<Diagnostic>(&result)) return *diag;
  ADD_FAILURE() << "expected an error for: " << sql.substr(0, 80);
  return {};
}

bool Parses(const std::string& sql, ParseOptions options = {}) {
  return std::holds_alternative<ast::QueryPtr>(ParseQuery(sql, options));
}

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(ParseLimitsTest, TooLong) {
  ParseOptions options;
  options.max_query_bytes = 20;
  options.source = DiagSource::kConsumerSql;
  const Diagnostic d = ParseError("select 1 from t where x = 'long enough'", options);
  EXPECT_EQ(d.code, DiagCode::kLimit);
  EXPECT_EQ(d.message, "query is too long");
  EXPECT_EQ(d.hint, "Queries are limited to 20 bytes.");
  EXPECT_EQ(d.source, DiagSource::kConsumerSql);
  EXPECT_TRUE(Parses("select 1", options));
}

TEST(ParseLimitsTest, DeepParentheses) {
  const std::string sql = "select " + Repeat("(", 1000) + "1" + Repeat(")", 1000);
  const Diagnostic d = ParseError(sql);
  EXPECT_EQ(d.code, DiagCode::kLimit);
  EXPECT_EQ(d.message, "query is too deeply nested");
  EXPECT_EQ(RenderOneLine(d, sql).substr(0, 30), "query is too deeply nested at ");
  EXPECT_TRUE(Parses("select " + Repeat("(", 40) + "1" + Repeat(")", 40)));
}

TEST(ParseLimitsTest, UnclosedParenthesesAtDepth) {
  // Enormous unbalanced input stops at the depth limit, not at the stack's end.
  const Diagnostic d = ParseError("select " + Repeat("(", 100000));
  EXPECT_EQ(d.code, DiagCode::kLimit);
}

TEST(ParseLimitsTest, DeepSubqueries) {
  const std::string sql = Repeat("select (", 300) + "1" + Repeat(")", 300);
  EXPECT_EQ(ParseError(sql).message, "query is too deeply nested");
  const std::string from = Repeat("select * from (", 300) + "select 1" + Repeat(")", 300);
  EXPECT_EQ(ParseError(from).message, "query is too deeply nested");
}

TEST(ParseLimitsTest, LongOperatorChainsNestTheTree) {
  // a + a + ... builds a left-deep tree; its depth counts too.
  EXPECT_EQ(ParseError("select " + Repeat("a + ", 5000) + "a").code, DiagCode::kLimit);
  EXPECT_EQ(ParseError("select 1 from t where " + Repeat("a = 1 and ", 500) + "true").code,
            DiagCode::kLimit);
  EXPECT_TRUE(Parses("select " + Repeat("a + ", 50) + "a"));
}

TEST(ParseLimitsTest, LongJoinChainsAndSetOperations) {
  EXPECT_EQ(ParseError("select 1 from t" + Repeat(", t", 500)).code, DiagCode::kLimit);
  EXPECT_EQ(ParseError("select 1" + Repeat(" union all select 1", 500)).code, DiagCode::kLimit);
  EXPECT_EQ(ParseError("select a" + Repeat("[0]", 500)).code, DiagCode::kLimit);
  EXPECT_EQ(ParseError("select f(x)" + Repeat(".a", 500)).code, DiagCode::kLimit);
  EXPECT_EQ(ParseError("select " + Repeat("- ", 500) + "1").code, DiagCode::kLimit);
  EXPECT_EQ(ParseError("select " + Repeat("not ", 500) + "true").code, DiagCode::kLimit);
  EXPECT_EQ(ParseError("select x" + Repeat("::text", 500)).code, DiagCode::kLimit);
  EXPECT_EQ(
      ParseError("select cast(x as " + Repeat("array<", 500) + "int64" + Repeat(">", 500) + ")")
          .code,
      DiagCode::kLimit);
}

TEST(ParseLimitsTest, CustomDepth) {
  ParseOptions options;
  options.max_nesting_depth = 8;
  EXPECT_EQ(ParseError("select ((((((((1))))))))", options).code, DiagCode::kLimit);
  EXPECT_NE(ParseError("select ((((((((1))))))))", options).hint.find("8 levels"),
            std::string::npos);
  EXPECT_TRUE(Parses("select (1)", options));
}

TEST(ParseLimitsTest, LongFlatListsAreFine) {
  std::string list = "1";
  for (int i = 0; i < 5000; ++i) list += ", 1";
  EXPECT_TRUE(Parses("select x in (" + list + ") from t"));
  EXPECT_TRUE(Parses("select " + list));
  EXPECT_TRUE(Parses("select a" + Repeat(".b", 2000)));  // a path is one flat node
}

TEST(ParseLimitsTest, ByteDumpUsesOffsets) {
  auto result = ParseQuery("select 1", {});
  ASSERT_TRUE(std::holds_alternative<ast::QueryPtr>(result));
  EXPECT_EQ(ast::DumpAst(*std::get<ast::QueryPtr>(result)),
            "Query [0-8)\n  Select [0-8)\n    Item [7-8)\n      Literal INT64 1 [7-8)\n");
}

}  // namespace
}  // namespace lqe::parse

namespace lqe::parse {
namespace {

Diagnostic ErrorFrom(const std::string& sql) {
  ParseOptions options;
  options.source = DiagSource::kConsumerSql;
  auto result = ParseQuery(sql, options);
  if (const auto* diag = std::get_if<Diagnostic>(&result)) {
    EXPECT_EQ(diag->source, DiagSource::kConsumerSql) << sql;
    return *diag;
  }
  ADD_FAILURE() << "expected an error for: " << sql;
  return {};
}

TEST(ParseDiagnosticsTest, CodesAndPositions) {
  const Diagnostic dml = ErrorFrom("  delete from t");
  EXPECT_EQ(dml.code, DiagCode::kUnsupported);
  EXPECT_EQ(dml.offset, 2u);
  EXPECT_EQ(dml.length, 6u);
  EXPECT_EQ(ErrorFrom("select 1 from t for update").code, DiagCode::kUnsupported);
  EXPECT_EQ(ErrorFrom("with recursive a as (select 1) select 1").code, DiagCode::kUnsupported);
  EXPECT_EQ(ErrorFrom("select a from t group by all").code, DiagCode::kUnsupported);
  const Diagnostic syntax = ErrorFrom("select (1 + 2");
  EXPECT_EQ(syntax.code, DiagCode::kSyntax);
  EXPECT_EQ(syntax.offset, 13u);
  const Diagnostic lexical = ErrorFrom("select 'x");
  EXPECT_EQ(lexical.code, DiagCode::kSyntax);
  EXPECT_EQ(lexical.offset, 7u);
  const Diagnostic union_error = ErrorFrom("select 1 union select 2");
  EXPECT_EQ(union_error.offset, 15u);
  EXPECT_EQ(union_error.hint, "BigQuery requires UNION ALL or UNION DISTINCT.");
}

}  // namespace
}  // namespace lqe::parse
