// The recursive-descent parser behind ParseQuery: a token cursor, error helpers and a depth
// guard, with one method per grammar construct (queries in parse_query.cpp, expressions in
// parse_expr.cpp, types in parse_type.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ast/query.h"
#include "lex/token.h"
#include "lqe/diagnostic.h"
#include "parse/parser.h"

namespace lqe::parse {

// Thrown inside the parser, caught only by ParseQuery.
struct ParseError {
  Diagnostic diag;
};

class Parser {
 public:
  Parser(std::string_view text, std::vector<lex::Token> tokens, const ParseOptions& options);

  ast::QueryPtr ParseStatement();

  // Queries (parse_query.cpp).
  ast::QueryPtr ParseQueryExpr();
  ast::QueryNodePtr ParseSetOperand();
  std::unique_ptr<ast::Select> ParseSelect();
  void ParseSelectList(ast::Select& select);
  ast::SelectItem ParseSelectItem();
  void ParseStarModifiers(ast::SelectItem& item);
  ast::FromPtr ParseFromClause();
  ast::FromPtr ParseFromPrimary();
  ast::FromPtr ParseTableRef();
  ast::FromPtr ParseUnnestRef();
  ast::FromPtr ParseParenthesizedFrom();
  void ParseJoinCondition(ast::Join& join);
  std::optional<ast::Identifier> ParseOptionalAlias();
  void ParseGroupBy(ast::Select& select);
  void ParseWindowClause(ast::Select& select);
  std::vector<ast::OrderItem> ParseOrderByList();
  void ParseLimit(ast::Query& query);

  // Expressions (parse_expr.cpp).
  ast::ExprPtr ParseExpr();
  ast::ExprPtr ParseExprPrec(int min_prec);
  ast::ExprPtr ParseUnary();
  ast::ExprPtr ParsePostfix(ast::ExprPtr base, bool parenthesized);
  ast::ExprPtr ParsePrimary(bool& parenthesized);
  ast::ExprPtr ParseParenthesized(bool& parenthesized);
  ast::ExprPtr ParseWord();
  ast::ExprPtr ParseKeywordExpr();
  ast::ExprPtr ParseCall(ast::Identifier name, bool safe, std::uint32_t begin);
  void ParseCallArgs(ast::Call& call);
  ast::WindowSpec ParseWindowSpec(bool allow_bare_name);
  ast::WindowFrame ParseWindowFrame();
  ast::WindowFrame::Bound ParseFrameBound();
  ast::ExprPtr ParseCase();
  ast::ExprPtr ParseCast(bool safe);
  ast::ExprPtr ParseExtract();
  ast::ExprPtr ParseInterval();
  ast::ExprPtr ParseArray();
  ast::ExprPtr ParseArrayElements(std::unique_ptr<ast::ArrayCtor> array);
  ast::ExprPtr ParseStruct();
  ast::ExprPtr ParseExists();
  ast::ExprPtr ParseTypedLiteral(TypeKind kind);
  ast::ExprPtr ParseSubscript(ast::ExprPtr base);
  ast::ExprPtr ParseInfix(ast::ExprPtr left, int prec);
  ast::ExprPtr ParseIn(ast::ExprPtr left, bool negated, std::uint32_t begin);
  ast::ExprPtr ParseIsTest(ast::ExprPtr left);
  ast::ExprPtr MakeLiteral(const lex::Token& tok);

  // Types (parse_type.cpp).
  TypePtr ParseType();
  TypePtr ParsePgTypeName();
  void SkipTypeParameters();
  void ExpectCloseAngle();

  // Token cursor.
  const lex::Token& Peek(std::size_t ahead = 0) const;
  const lex::Token& Next();
  bool Is(lex::TokenKind kind, std::size_t ahead = 0) const;
  bool IsKeyword(std::string_view word, std::size_t ahead = 0) const;  // reserved keyword
  bool IsWord(std::string_view word, std::size_t ahead = 0) const;     // any unquoted word
  bool Accept(lex::TokenKind kind);
  bool AcceptKeyword(std::string_view word);
  bool AcceptWord(std::string_view word);
  const lex::Token& Expect(lex::TokenKind kind, std::string_view what);
  void ExpectKeyword(std::string_view word);
  const lex::Token& ExpectClose(lex::TokenKind kind, const lex::Token& open);
  bool IsIdentifierToken(std::size_t ahead = 0) const;  // unquoted non-reserved or quoted
  ast::Identifier ExpectIdentifier(std::string_view what);
  ast::Identifier IdentifierFrom(const lex::Token& tok) const;
  bool StartsQuery(std::size_t ahead = 0) const;  // SELECT or WITH

  // Errors.
  [[noreturn]] void Fail(const lex::Token& tok, std::string message, std::string hint = {}) const;
  [[noreturn]] void FailAt(std::uint32_t offset, std::uint32_t length, DiagCode code,
                           std::string message, std::string hint = {}) const;
  [[noreturn]] void Unexpected(const lex::Token& tok, std::string hint = {}) const;
  std::string KeywordHint(const lex::Token& tok) const;  // "Did you mean FROM?" or empty
  std::string Position(const lex::Token& tok) const;
  std::uint32_t PrevEnd() const;

  // Depth: every recursion and every left-nested node counts one level.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser& parser, std::uint32_t levels = 1);
    ~DepthGuard();
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    void Add(std::uint32_t levels = 1);

   private:
    Parser& parser_;
    std::uint32_t levels_ = 0;
  };

 private:
  std::string_view text_;
  std::vector<lex::Token> tokens_;
  std::size_t pos_ = 0;
  std::uint32_t depth_ = 0;
  const ParseOptions& options_;
};

}  // namespace lqe::parse
