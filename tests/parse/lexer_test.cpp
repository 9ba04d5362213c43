// Lexer: every literal form, escape and lexical error.
#include "lex/lexer.h"

#include <gtest/gtest.h>

#include "lex/keywords.h"

namespace lqe::lex {
namespace {

std::vector<Token> Lex(std::string_view text) {
  auto result = Tokenize(text, DiagSource::kStored);
  if (const auto* d = std::get_if<Diagnostic>(&result)) {
    ADD_FAILURE() << "unexpected error: " << RenderOneLine(*d, text);
    return {};
  }
  return std::get<std::vector<Token>>(result);
}

Token One(std::string_view text) {
  auto tokens = Lex(text);
  EXPECT_EQ(tokens.size(), 2u) << text;
  return tokens.empty() ? Token{} : tokens[0];
}

std::string Error(std::string_view text) {
  auto result = Tokenize(text, DiagSource::kConsumerSql);
  if (const auto* d = std::get_if<Diagnostic>(&result)) {
    EXPECT_EQ(d->code, DiagCode::kSyntax);
    EXPECT_EQ(d->source, DiagSource::kConsumerSql);
    return RenderOneLine(*d, text);
  }
  ADD_FAILURE() << "expected an error for " << text;
  return {};
}

std::string Str(std::string_view text) {
  const Token t = One(text);
  EXPECT_TRUE(t.kind == TokenKind::kString || t.kind == TokenKind::kBytes) << text;
  return t.value;
}

TEST(LexerTest, IdentifiersAndKeywords) {
  auto t = Lex("SELECT select timestamp _a1 `logs.edge` `a`.`b`");
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[0].kind, TokenKind::kKeyword);
  EXPECT_EQ(t[1].kind, TokenKind::kKeyword);
  EXPECT_EQ(t[2].kind, TokenKind::kIdent);  // timestamp is not reserved
  EXPECT_EQ(t[3].kind, TokenKind::kIdent);
  EXPECT_EQ(t[4].kind, TokenKind::kQuotedIdent);
  EXPECT_EQ(t[4].value, "logs.edge");
  EXPECT_EQ(t[4].begin, 28u);
  EXPECT_EQ(t[4].end, 39u);
  EXPECT_EQ(t[5].value, "a");
  EXPECT_EQ(t[6].kind, TokenKind::kDot);
  EXPECT_EQ(t[7].value, "b");
  EXPECT_EQ(t[8].kind, TokenKind::kEnd);
  EXPECT_EQ(One("`a\\`b`").value, "a`b");
}

TEST(LexerTest, ReservedKeywordTable) {
  for (auto kw : {"select", "From", "UNNEST", "interval", "IF", "left", "QUALIFY", "window"}) {
    EXPECT_TRUE(IsReservedKeyword(kw)) << kw;
  }
  for (auto w : {"timestamp", "date", "offset", "replace", "value", "safe_cast", "x"}) {
    EXPECT_FALSE(IsReservedKeyword(w)) << w;
  }
  EXPECT_EQ(NearestKeyword("form"), "FROM");
  EXPECT_EQ(NearestKeyword("selct"), "SELECT");
  EXPECT_EQ(NearestKeyword("metadata"), "");
}

TEST(LexerTest, Strings) {
  EXPECT_EQ(Str("'abc'"), "abc");
  EXPECT_EQ(Str("\"abc\""), "abc");
  EXPECT_EQ(Str("'it''s'"), "it's");  // the doubled quote clients send
  EXPECT_EQ(Str("''"), "");
  EXPECT_EQ(Str("'a'''"), "a'");
  EXPECT_EQ(Str("r'it''s'"), "it's");
  EXPECT_EQ(Str("'''a'b\nc'''"), "a'b\nc");
  EXPECT_EQ(Str("\"\"\"a\"b\"\"\""), "a\"b");
  EXPECT_EQ(Str("r'a\\nb'"), "a\\nb");
  EXPECT_EQ(Str("R\"a\\\"b\""), "a\\\"b");
  EXPECT_EQ(Str("r'''x\\y'''"), "x\\y");
  EXPECT_EQ(One("b'ab'").kind, TokenKind::kBytes);
  EXPECT_EQ(Str("B'\\x00\\xff'"), std::string("\x00\xff", 2));
  EXPECT_EQ(Str("rb'\\x'"), "\\x");
  EXPECT_EQ(Str("BR'\\x'"), "\\x");
  EXPECT_EQ(One("rb'x'").kind, TokenKind::kBytes);
}

TEST(LexerTest, DoubledQuotesOnlyInSingleQuotes) {
  auto t = Lex(R"("a""b" 'x')");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].value, "a");
  EXPECT_EQ(t[1].value, "b");
  EXPECT_EQ(t[2].value, "x");
}

TEST(LexerTest, Escapes) {
  EXPECT_EQ(Str(R"('\n\t\r\\\'\"\?\a\b\f\v\`')"), "\n\t\r\\'\"?\a\b\f\v`");
  EXPECT_EQ(Str(R"('\x41\X42')"), "AB");
  EXPECT_EQ(Str(R"('\u00e9')"), "\xC3\xA9");
  EXPECT_EQ(Str(R"('\U0001F600')"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(Str(R"('\101\060')"), "A0");
  EXPECT_EQ(Str(R"('\xc3\xa9')"), "\xC3\xA9");  // bytes that form UTF-8
}

TEST(LexerTest, EscapeErrors) {
  EXPECT_EQ(Error(R"(select '\q')"), "invalid escape sequence \\q at 1:9");
  EXPECT_EQ(Error(R"('\x4')"), "invalid hex escape: expected two hex digits after \\x at 1:2");
  EXPECT_EQ(Error(R"('\u12')"),
            "invalid unicode escape: expected four hex digits after \\u at 1:2");
  EXPECT_EQ(Error(R"('\U1234')"),
            "invalid unicode escape: expected eight hex digits after \\U at 1:2");
  EXPECT_EQ(Error(R"('\uD800')"), "invalid unicode escape: not a valid code point at 1:2");
  EXPECT_EQ(Error(R"('\U00110000')"), "invalid unicode escape: not a valid code point at 1:2");
  EXPECT_EQ(Error(R"('\19')"),
            "invalid octal escape: expected three octal digits up to \\377 at 1:2");
  EXPECT_EQ(Error(R"('\400')"),
            "invalid octal escape: expected three octal digits up to \\377 at 1:2");
  EXPECT_EQ(Error(R"(b'\u0041')"), "unicode escapes are not allowed in bytes literals at 1:3");
  EXPECT_EQ(Error(R"('\xff')"), "string literal is not valid UTF-8 at 1:1");
  EXPECT_EQ(Error("`a\\xff`"), "quoted identifier is not valid UTF-8 at 1:1");
}

TEST(LexerTest, UnterminatedLiterals) {
  EXPECT_EQ(Error("select 'abc"), "unterminated string literal at 1:8");
  EXPECT_EQ(Error("select 'ab\ncd'"), "unterminated string literal at 1:8");
  EXPECT_EQ(Error("select '''abc''"), "unterminated string literal at 1:8");
  EXPECT_EQ(Error("select b\"x"), "unterminated bytes literal at 1:8");
  EXPECT_EQ(Error("select 'a\\"), "unterminated string literal at 1:8");
  EXPECT_EQ(Error("select `abc"), "unterminated quoted identifier at 1:8");
  EXPECT_EQ(Error("select ``"), "empty quoted identifier at 1:8");
  EXPECT_EQ(Error("select 1 /* never closed"), "unterminated comment at 1:10");
}

TEST(LexerTest, Numbers) {
  EXPECT_EQ(One("42").kind, TokenKind::kInt);
  EXPECT_EQ(One("0x1F").kind, TokenKind::kInt);
  EXPECT_EQ(One("0X1f").text, "0X1f");
  for (auto f : {"1.5", ".5", "1.", "1e10", "1E-3", "2.5e+2"}) {
    EXPECT_EQ(One(f).kind, TokenKind::kFloat) << f;
    EXPECT_EQ(One(f).text, f);
  }
  EXPECT_EQ(Error("select 0x"), "invalid hex literal at 1:8");
  EXPECT_EQ(Error("select 1e"), "invalid floating point literal at 1:8");
  EXPECT_EQ(Error("select 123abc"), "invalid number '123abc' at 1:8");
  // After a name, '.' is field access: t.5 is not a float.
  auto t = Lex("a.b");
  EXPECT_EQ(t[1].kind, TokenKind::kDot);
}

TEST(LexerTest, Parameters) {
  const Token p = One("@project_ref");
  EXPECT_EQ(p.kind, TokenKind::kParam);
  EXPECT_EQ(p.value, "project_ref");
  EXPECT_EQ(Error("select @@version"), "system variables are not supported at 1:8");
  EXPECT_EQ(Error("select @ x"), "expected a parameter name after '@' at 1:8");
  EXPECT_EQ(Error("select ?"), "positional parameters are not supported at 1:8");
}

TEST(LexerTest, Operators) {
  auto t = Lex(":: || <> != << >> => <= >= = < > + - * / ~ & | ^ ( ) [ ] , ; .");
  const TokenKind expected[] = {
      TokenKind::kDoubleColon, TokenKind::kConcat,     TokenKind::kNe,       TokenKind::kNe,
      TokenKind::kShiftLeft,   TokenKind::kShiftRight, TokenKind::kArrow,    TokenKind::kLe,
      TokenKind::kGe,          TokenKind::kEq,         TokenKind::kLt,       TokenKind::kGt,
      TokenKind::kPlus,        TokenKind::kMinus,      TokenKind::kStar,     TokenKind::kSlash,
      TokenKind::kTilde,       TokenKind::kAmp,        TokenKind::kPipe,     TokenKind::kCaret,
      TokenKind::kLParen,      TokenKind::kRParen,     TokenKind::kLBracket, TokenKind::kRBracket,
      TokenKind::kComma,       TokenKind::kSemicolon,  TokenKind::kDot,      TokenKind::kEnd};
  ASSERT_EQ(t.size(), std::size(expected));
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t[i].kind, expected[i]) << i;
  EXPECT_EQ(Error("select 1 $ 2"), "syntax error: unexpected character '$' at 1:10");
  EXPECT_EQ(Error("select 1 ! 2"), "syntax error: unexpected character '!' at 1:10");
  EXPECT_EQ(Error("select \x01"), "syntax error: unexpected character at 1:8");
}

TEST(LexerTest, Comments) {
  auto t = Lex("-- top — em dash\nselect # hash\n 1 /* block\n */ + 2 -- end");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].text, "select");
  EXPECT_EQ(t[1].text, "1");
  EXPECT_EQ(t[2].kind, TokenKind::kPlus);
  EXPECT_EQ(t[3].text, "2");
  EXPECT_EQ(Lex("select 1--x").size(), 3u);
}

TEST(LexerTest, SpansAreBytes) {
  auto u = Lex("select\r\n  x");
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(u[1].begin, 10u);
  EXPECT_EQ(u[1].end, 11u);
}

}  // namespace
}  // namespace lqe::lex
