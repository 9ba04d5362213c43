// Lexer in ClickHouse's rules: {name:Type} parameters, "..." identifiers, ILIKE; BigQuery's rules
// unchanged for the same text.
#include <gtest/gtest.h>

#include "lex/lexer.h"

namespace lqe::lex {
namespace {

std::vector<Token> LexClickHouse(std::string_view text) {
  auto result = Tokenize(text, DiagSource::kConsumerSql, Dialect::kClickHouse);
  if (const auto* d = std::get_if<Diagnostic>(&result)) {
    ADD_FAILURE() << "unexpected error: " << RenderOneLine(*d, text);
    return {};
  }
  return std::get<std::vector<Token>>(result);
}

std::string ClickHouseError(std::string_view text) {
  auto result = Tokenize(text, DiagSource::kConsumerSql, Dialect::kClickHouse);
  if (const auto* d = std::get_if<Diagnostic>(&result)) return RenderOneLine(*d, text);
  ADD_FAILURE() << "expected an error for " << text;
  return {};
}

TEST(LexerClickHouse, TypedParameterIsANamedParameter) {
  const auto tokens = LexClickHouse("source = {source:String} AND t < {end:DateTime64(6)}");
  ASSERT_EQ(tokens.size(), 8U);
  EXPECT_EQ(tokens[2].kind, TokenKind::kParam);
  EXPECT_EQ(tokens[2].value, "source");
  EXPECT_EQ(tokens[2].text, "{source:String}");
  EXPECT_EQ(tokens[6].kind, TokenKind::kParam);
  EXPECT_EQ(tokens[6].value, "end");
}

TEST(LexerClickHouse, MalformedParametersAreRefusedWhereTheyStand) {
  EXPECT_EQ(ClickHouseError("x = {source}"), "expected a query parameter {name:Type} at 1:5");
  EXPECT_EQ(ClickHouseError("x = {:String}"), "expected a query parameter {name:Type} at 1:5");
  EXPECT_EQ(ClickHouseError("x = {a:"), "expected a query parameter {name:Type} at 1:5");
  EXPECT_EQ(ClickHouseError("x = {a b:String}"), "expected a query parameter {name:Type} at 1:5");
}

TEST(LexerClickHouse, DoubleQuotesNameAnIdentifier) {
  const auto tokens = LexClickHouse("\"log attributes\"");
  ASSERT_EQ(tokens.size(), 2U);
  EXPECT_EQ(tokens[0].kind, TokenKind::kQuotedIdent);
  EXPECT_EQ(tokens[0].value, "log attributes");
}

TEST(LexerClickHouse, IlikeIsAnOperatorKeywordOnlyInClickHouse) {
  EXPECT_EQ(LexClickHouse("a ILIKE b")[1].kind, TokenKind::kKeyword);
  auto bigquery = Tokenize("a ILIKE \"b\"", DiagSource::kStored);
  const auto& tokens = std::get<std::vector<Token>>(bigquery);
  EXPECT_EQ(tokens[1].kind, TokenKind::kIdent);
  EXPECT_EQ(tokens[2].kind, TokenKind::kString);
}

}  // namespace
}  // namespace lqe::lex
