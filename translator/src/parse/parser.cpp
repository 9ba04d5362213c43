#include "parse/parser.h"

#include <utility>

#include "lex/keywords.h"
#include "lex/lexer.h"
#include "parse/parser_internal.h"

namespace lqe::parse {
namespace {

using lex::TokenKind;

// Statements BigQuery has but a read-only endpoint never runs.
constexpr std::string_view kStatementKeywords[] = {
    "INSERT",   "UPDATE", "DELETE",  "MERGE",   "CREATE",   "DROP", "ALTER", "TRUNCATE",
    "GRANT",    "REVOKE", "CALL",    "EXECUTE", "DECLARE",  "SET",  "BEGIN", "COMMIT",
    "ROLLBACK", "EXPORT", "LOAD",    "ASSERT",  "IF",       "LOOP", "WHILE", "REPEAT",
    "FOR",      "RETURN", "RAISE",   "EXPLAIN", "DESCRIBE", "SHOW", "COPY",  "VACUUM",
    "ANALYZE",  "LOCK",   "REFRESH", "RESET",   "START",    "END",  "ABORT", "DO",
};

const char* TokenSpelling(TokenKind kind) {
  switch (kind) {
    case TokenKind::kLParen:
      return "'('";
    case TokenKind::kRParen:
      return "')'";
    case TokenKind::kLBracket:
      return "'['";
    case TokenKind::kRBracket:
      return "']'";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kDot:
      return "'.'";
    case TokenKind::kGt:
      return "'>'";
    case TokenKind::kLt:
      return "'<'";
    default:
      return "a token";
  }
}

}  // namespace

Parser::Parser(std::string_view text, std::vector<lex::Token> tokens, const ParseOptions& options)
    : text_(text), tokens_(std::move(tokens)), options_(options) {}

const lex::Token& Parser::Peek(std::size_t ahead) const {
  const std::size_t i = pos_ + ahead;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const lex::Token& Parser::Next() {
  const lex::Token& tok = Peek();
  if (pos_ + 1 < tokens_.size()) {
    ++pos_;
  }
  return tok;
}

bool Parser::Is(TokenKind kind, std::size_t ahead) const {
  return Peek(ahead).kind == kind;
}

bool Parser::IsKeyword(std::string_view word, std::size_t ahead) const {
  const lex::Token& tok = Peek(ahead);
  return tok.kind == TokenKind::kKeyword && lex::EqualsIgnoreCase(tok.text, word);
}

bool Parser::IsWord(std::string_view word, std::size_t ahead) const {
  const lex::Token& tok = Peek(ahead);
  return (tok.kind == TokenKind::kKeyword || tok.kind == TokenKind::kIdent) &&
         lex::EqualsIgnoreCase(tok.text, word);
}

bool Parser::Accept(TokenKind kind) {
  if (!Is(kind)) {
    return false;
  }
  Next();
  return true;
}

bool Parser::AcceptKeyword(std::string_view word) {
  if (!IsKeyword(word)) {
    return false;
  }
  Next();
  return true;
}

bool Parser::AcceptWord(std::string_view word) {
  if (!IsWord(word)) {
    return false;
  }
  Next();
  return true;
}

const lex::Token& Parser::Expect(TokenKind kind, std::string_view what) {
  if (!Is(kind)) {
    Fail(Peek(),
         "syntax error: expected " + std::string(what) + " but got " + lex::DescribeToken(Peek()));
  }
  return Next();
}

void Parser::ExpectKeyword(std::string_view word) {
  if (!IsKeyword(word) && !IsWord(word)) {
    Fail(Peek(), "syntax error: expected keyword " + std::string(word) + " but got " +
                     lex::DescribeToken(Peek()));
  }
  Next();
}

const lex::Token& Parser::ExpectClose(TokenKind kind, const lex::Token& open) {
  if (!Is(kind)) {
    Fail(Peek(), "syntax error: expected " + std::string(TokenSpelling(kind)) + " to close " +
                     TokenSpelling(open.kind) + " opened at " + Position(open) + " but got " +
                     lex::DescribeToken(Peek()));
  }
  return Next();
}

bool Parser::IsIdentifierToken(std::size_t ahead) const {
  const TokenKind k = Peek(ahead).kind;
  return k == TokenKind::kIdent || k == TokenKind::kQuotedIdent;
}

ast::Identifier Parser::IdentifierFrom(const lex::Token& tok) const {
  ast::Identifier id;
  id.quoted = tok.kind == TokenKind::kQuotedIdent;
  id.name = id.quoted ? tok.value : std::string(tok.text);
  id.span = {tok.begin, tok.end};
  return id;
}

ast::Identifier Parser::ExpectIdentifier(std::string_view what) {
  if (!IsIdentifierToken()) {
    std::string hint;
    if (Is(TokenKind::kKeyword)) {
      hint = "Reserved keywords must be quoted with backticks to be used as names.";
    }
    Fail(Peek(),
         "syntax error: expected " + std::string(what) + " but got " + lex::DescribeToken(Peek()),
         hint);
  }
  return IdentifierFrom(Next());
}

bool Parser::StartsQuery(std::size_t ahead) const {
  return IsKeyword("SELECT", ahead) || IsKeyword("WITH", ahead);
}

std::string Parser::Position(const lex::Token& tok) const {
  const LineColumn lc = LocateOffset(text_, tok.begin);
  return std::to_string(lc.line) + ":" + std::to_string(lc.column);
}

std::uint32_t Parser::PrevEnd() const {
  return pos_ > 0 ? tokens_[pos_ - 1].end : 0;
}

void Parser::FailAt(std::uint32_t offset, std::uint32_t length, DiagCode code, std::string message,
                    std::string hint) const {
  throw ParseError{
      Diagnostic{code, std::move(message), std::move(hint), offset, length, options_.source}};
}

void Parser::Fail(const lex::Token& tok, std::string message, std::string hint) const {
  FailAt(tok.begin, tok.end - tok.begin, DiagCode::kSyntax, std::move(message), std::move(hint));
}

std::string Parser::KeywordHint(const lex::Token& tok) const {
  // A misspelled keyword usually surfaces as an identifier at or just before the error.
  for (const lex::Token* t : {&tok, pos_ > 0 ? &tokens_[pos_ - 1] : &tok}) {
    if (t->kind != TokenKind::kIdent) {
      continue;
    }
    const std::string_view kw = lex::NearestKeyword(t->text);
    if (!kw.empty()) {
      return "Did you mean " + std::string(kw) + "?";
    }
  }
  return {};
}

void Parser::Unexpected(const lex::Token& tok, std::string hint) const {
  if (hint.empty()) {
    hint = KeywordHint(tok);
  }
  Fail(tok, "syntax error: unexpected " + lex::DescribeToken(tok), std::move(hint));
}

Parser::DepthGuard::DepthGuard(Parser& parser, std::uint32_t levels) : parser_(parser) {
  Add(levels);
}

Parser::DepthGuard::~DepthGuard() {
  parser_.depth_ -= levels_;
}

void Parser::DepthGuard::Add(std::uint32_t levels) {
  parser_.depth_ += levels;
  levels_ += levels;
  if (parser_.depth_ > parser_.options_.max_nesting_depth) {
    const lex::Token& tok = parser_.Peek();
    parser_.FailAt(tok.begin, tok.end - tok.begin, DiagCode::kLimit, "query is too deeply nested",
                   "Nesting is limited to " + std::to_string(parser_.options_.max_nesting_depth) +
                       " levels of parentheses, subqueries, joins and operators.");
  }
}

ast::QueryPtr Parser::ParseStatement() {
  const lex::Token& first = Peek();
  if (first.kind == TokenKind::kKeyword || first.kind == TokenKind::kIdent) {
    for (std::string_view kw : kStatementKeywords) {
      if (lex::EqualsIgnoreCase(first.text, kw)) {
        FailAt(first.begin, first.end - first.begin, DiagCode::kUnsupported,
               "only SELECT queries are allowed",
               "Statements that change data or settings cannot run through this API.");
      }
    }
  }
  if (first.kind == TokenKind::kEnd) {
    Fail(first, "syntax error: empty query");
  }
  if (!StartsQuery() && !Is(TokenKind::kLParen)) {
    Fail(first, "syntax error: expected SELECT or WITH but got " + lex::DescribeToken(first),
         KeywordHint(first));
  }
  ast::QueryPtr query = ParseQueryExpr();
  if (IsKeyword("FOR") && IsWord("UPDATE", 1)) {
    FailAt(Peek().begin, Peek(1).end - Peek().begin, DiagCode::kUnsupported,
           "locking clauses are not allowed");
  }
  if (Accept(TokenKind::kSemicolon)) {
    if (!Is(TokenKind::kEnd)) {
      Fail(Peek(), "syntax error: only one statement is allowed",
           "Remove everything after the first ';'.");
    }
  }
  if (!Is(TokenKind::kEnd)) {
    Unexpected(Peek());
  }
  return query;
}

std::variant<ast::QueryPtr, Diagnostic> ParseQuery(std::string_view text,
                                                   const ParseOptions& options) {
  if (text.size() > options.max_query_bytes) {
    return Diagnostic{
        DiagCode::kLimit,
        "query is too long",
        "Queries are limited to " + std::to_string(options.max_query_bytes) + " bytes.",
        0,
        0,
        options.source};
  }
  auto lexed = lex::Tokenize(text, options.source, options.dialect);
  if (auto* diag = std::get_if<Diagnostic>(&lexed)) {
    return std::move(*diag);
  }
  Parser parser(text, std::move(std::get<std::vector<lex::Token>>(lexed)), options);
  try {
    return parser.ParseStatement();
  } catch (ParseError& e) {
    return std::move(e.diag);
  }
}

}  // namespace lqe::parse
