#include "lex/lexer.h"

#include <cstdint>
#include <string>

#include "lex/keywords.h"
#include "lex/string_decoder.h"
#include "lqe/base/ascii.h"

namespace lqe::lex {
namespace {

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentChar(char c) {
  return IsIdentStart(c) || ascii::IsDigit(c);
}
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Lexer {
 public:
  Lexer(std::string_view text, DiagSource source, Dialect dialect)
      : text_(text), source_(source), clickhouse_(dialect == Dialect::kClickHouse) {}

  std::variant<std::vector<Token>, Diagnostic> Run() {
    std::vector<Token> tokens;
    tokens.reserve(text_.size() / 4 + 2);
    while (true) {
      if (!SkipSpaceAndComments()) {
        return error_;
      }
      Token tok;
      tok.begin = static_cast<std::uint32_t>(pos_);
      if (pos_ >= text_.size()) {
        tok.kind = TokenKind::kEnd;
        tok.end = tok.begin;
        tokens.push_back(std::move(tok));
        return tokens;
      }
      if (!LexOne(tok, tokens.empty() ? nullptr : &tokens.back())) {
        return error_;
      }
      tok.end = static_cast<std::uint32_t>(pos_);
      tok.text = text_.substr(tok.begin, tok.end - tok.begin);
      tokens.push_back(std::move(tok));
    }
  }

 private:
  bool Fail(std::size_t offset, std::size_t length, std::string message, std::string hint = {}) {
    error_ = Diagnostic{DiagCode::kSyntax,
                        std::move(message),
                        std::move(hint),
                        static_cast<std::uint32_t>(offset),
                        static_cast<std::uint32_t>(length),
                        source_};
    return false;
  }

  char At(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  bool SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (IsSpace(c)) {
        ++pos_;
      } else if (c == '#' || (c == '-' && At(pos_ + 1) == '-')) {
        while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') {
          ++pos_;
        }
      } else if (c == '/' && At(pos_ + 1) == '*') {
        const std::size_t close = text_.find("*/", pos_ + 2);
        if (close == std::string_view::npos) {
          return Fail(pos_, 2, "unterminated comment");
        }
        pos_ = close + 2;
      } else {
        return true;
      }
    }
    return true;
  }

  bool LexOne(Token& tok, const Token* prev) {
    const char c = text_[pos_];
    if (IsIdentStart(c)) {
      return LexWordOrPrefixedString(tok);
    }
    if (ascii::IsDigit(c)) {
      return LexNumber(tok);
    }
    if (c == '.' && ascii::IsDigit(At(pos_ + 1)) && !FollowsOperand(prev)) {
      return LexNumber(tok);
    }
    if (c == '"' && clickhouse_) {
      return LexQuotedIdent(tok);
    }
    if (c == '\'' || c == '"') {
      return LexString(tok, false, false);
    }
    if (c == '`') {
      return LexQuotedIdent(tok);
    }
    if (c == '{' && clickhouse_) {
      return LexClickHouseParam(tok);
    }
    if (c == '@') {
      return LexParam(tok);
    }
    return LexOperator(tok);
  }

  // A '.' right after an identifier, ')' or ']' is field access, not the start of ".5".
  static bool FollowsOperand(const Token* prev) {
    if (prev == nullptr) {
      return false;
    }
    switch (prev->kind) {
      case TokenKind::kIdent:
      case TokenKind::kQuotedIdent:
      case TokenKind::kRParen:
      case TokenKind::kRBracket:
        return true;
      default:
        return false;
    }
  }

  bool LexWordOrPrefixedString(Token& tok) {
    // r'..', b'..', rb'..', br'..' in any case.
    std::size_t p = pos_;
    bool raw = false;
    bool bytes = false;
    for (int i = 0; i < 2 && p < text_.size(); ++i, ++p) {
      const char u = static_cast<char>(text_[p] | 0x20);
      if (u == 'r' && !raw) {
        raw = true;
      } else if (u == 'b' && !bytes) {
        bytes = true;
      } else {
        break;
      }
    }
    if ((raw || bytes) && (At(p) == '\'' || At(p) == '"')) {
      pos_ = p;
      return LexString(tok, raw, bytes);
    }
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) {
      ++pos_;
    }
    const std::string_view word = text_.substr(tok.begin, pos_ - tok.begin);
    tok.kind = IsReservedKeyword(word) || (clickhouse_ && EqualsIgnoreCase(word, "ILIKE"))
                   ? TokenKind::kKeyword
                   : TokenKind::kIdent;
    return true;
  }

  bool LexNumber(Token& tok) {
    if (text_[pos_] == '0' && (At(pos_ + 1) == 'x' || At(pos_ + 1) == 'X')) {
      pos_ += 2;
      const std::size_t digits = pos_;
      while (pos_ < text_.size() && ascii::IsHexDigit(text_[pos_])) {
        ++pos_;
      }
      if (pos_ == digits) {
        return Fail(tok.begin, pos_ - tok.begin, "invalid hex literal");
      }
      tok.kind = TokenKind::kInt;
      return CheckNumberEnd(tok);
    }
    bool is_float = false;
    while (pos_ < text_.size() && ascii::IsDigit(text_[pos_])) {
      ++pos_;
    }
    if (At(pos_) == '.') {
      is_float = true;
      ++pos_;
      while (pos_ < text_.size() && ascii::IsDigit(text_[pos_])) {
        ++pos_;
      }
    }
    if (At(pos_) == 'e' || At(pos_) == 'E') {
      std::size_t p = pos_ + 1;
      if (At(p) == '+' || At(p) == '-') {
        ++p;
      }
      if (!ascii::IsDigit(At(p))) {
        return Fail(tok.begin, p - tok.begin, "invalid floating point literal");
      }
      is_float = true;
      pos_ = p;
      while (pos_ < text_.size() && ascii::IsDigit(text_[pos_])) {
        ++pos_;
      }
    }
    tok.kind = is_float ? TokenKind::kFloat : TokenKind::kInt;
    return CheckNumberEnd(tok);
  }

  // "123abc" is one bad token, not a number and an alias.
  bool CheckNumberEnd(Token& tok) {
    if (pos_ < text_.size() && IsIdentChar(text_[pos_])) {
      std::size_t end = pos_;
      while (end < text_.size() && IsIdentChar(text_[end])) {
        ++end;
      }
      return Fail(tok.begin, end - tok.begin,
                  "invalid number '" + std::string(text_.substr(tok.begin, end - tok.begin)) + "'");
    }
    return true;
  }

  bool LexString(Token& tok, bool raw, bool bytes) {
    const char quote = text_[pos_];
    const bool triple = At(pos_ + 1) == quote && At(pos_ + 2) == quote;
    const std::size_t body = pos_ + (triple ? 3 : 1);
    std::size_t p = body;
    while (true) {
      if (p >= text_.size() || (!triple && (text_[p] == '\n' || text_[p] == '\r'))) {
        return Fail(tok.begin, p - tok.begin,
                    bytes ? "unterminated bytes literal" : "unterminated string literal");
      }
      if (text_[p] == '\\') {
        p += 2;  // the escaped character never ends the literal (raw strings too)
        continue;
      }
      if (text_[p] == quote && !triple && quote == '\'' && At(p + 1) == quote) {
        p += 2;  // 'it''s': a doubled quote inside a single-quoted literal
        continue;
      }
      if (text_[p] == quote && (!triple || (At(p + 1) == quote && At(p + 2) == quote))) {
        break;
      }
      ++p;
    }
    const std::string_view content = text_.substr(body, p - body);
    pos_ = p + (triple ? 3 : 1);
    tok.kind = bytes ? TokenKind::kBytes : TokenKind::kString;
    const char doubled = !triple && quote == '\'' ? quote : '\0';
    if (raw) {
      for (std::size_t i = 0; i < content.size(); ++i) {
        tok.value += content[i];
        if (content[i] == '\\' && i + 1 < content.size()) {
          tok.value += content[++i];
        } else if (doubled != '\0' && content[i] == doubled && i + 1 < content.size()) {
          ++i;
        }
      }
    } else if (!Decode(content, body, bytes, doubled, tok.value)) {
      return false;
    }
    if (!bytes && !IsValidUtf8(tok.value)) {
      return Fail(tok.begin, pos_ - tok.begin, "string literal is not valid UTF-8");
    }
    return true;
  }

  bool Decode(std::string_view content, std::size_t offset, bool bytes, char doubled,
              std::string& out) {
    const DecodeError err = DecodeEscapes(content, bytes, doubled, out);
    if (err.message.empty()) {
      return true;
    }
    return Fail(offset + err.offset, err.length, err.message);
  }

  bool LexQuotedIdent(Token& tok) {
    const char quote = text_[pos_];
    std::size_t p = pos_ + 1;
    while (true) {
      if (p >= text_.size()) {
        return Fail(tok.begin, 1, "unterminated quoted identifier");
      }
      if (text_[p] == '\\') {
        p += 2;
        continue;
      }
      if (text_[p] == quote) {
        break;
      }
      ++p;
    }
    const std::string_view content = text_.substr(pos_ + 1, p - pos_ - 1);
    if (content.empty()) {
      return Fail(tok.begin, 2, "empty quoted identifier");
    }
    const std::size_t body = pos_ + 1;
    pos_ = p + 1;
    tok.kind = TokenKind::kQuotedIdent;
    if (!Decode(content, body, false, '\0', tok.value)) {
      return false;
    }
    if (!IsValidUtf8(tok.value)) {
      return Fail(tok.begin, pos_ - tok.begin, "quoted identifier is not valid UTF-8");
    }
    return true;
  }

  bool LexParam(Token& tok) {
    if (At(pos_ + 1) == '@') {
      return Fail(pos_, 2, "system variables are not supported",
                  "Use a named query parameter such as @project.");
    }
    std::size_t p = pos_ + 1;
    if (!IsIdentStart(At(p))) {
      return Fail(pos_, 1, "expected a parameter name after '@'");
    }
    while (p < text_.size() && IsIdentChar(text_[p])) {
      ++p;
    }
    tok.kind = TokenKind::kParam;
    tok.value = std::string(text_.substr(pos_ + 1, p - pos_ - 1));
    pos_ = p;
    return true;
  }

  // ClickHouse's {name:Type}: the name becomes the parameter; the type is checked against the
  // declared one by whoever binds it, so it is only required to be there.
  bool LexClickHouseParam(Token& tok) {
    const std::size_t close = text_.find('}', pos_);
    const std::string_view inner = close == std::string_view::npos
                                       ? std::string_view{}
                                       : text_.substr(pos_ + 1, close - pos_ - 1);
    const std::size_t colon = inner.find(':');
    std::size_t name_end = 0;
    while (name_end < inner.size() && IsIdentChar(inner[name_end])) {
      ++name_end;
    }
    if (close == std::string_view::npos || colon == std::string_view::npos || colon == 0 ||
        name_end != colon || !IsIdentStart(inner[0]) || colon + 1 >= inner.size()) {
      return Fail(pos_, close == std::string_view::npos ? 1 : close - pos_ + 1,
                  "expected a query parameter {name:Type}");
    }
    tok.kind = TokenKind::kParam;
    tok.value = std::string(inner.substr(0, colon));
    pos_ = close + 1;
    return true;
  }

  bool LexOperator(Token& tok);

  std::string_view text_;
  DiagSource source_;
  bool clickhouse_ = false;
  std::size_t pos_ = 0;
  Diagnostic error_;
};

struct OperatorSpelling {
  std::string_view text;
  TokenKind kind;
};

// Longest spellings first.
constexpr OperatorSpelling kOperators[] = {
    {"<<", TokenKind::kShiftLeft}, {">>", TokenKind::kShiftRight},  {"<=", TokenKind::kLe},
    {">=", TokenKind::kGe},        {"<>", TokenKind::kNe},          {"!=", TokenKind::kNe},
    {"||", TokenKind::kConcat},    {"::", TokenKind::kDoubleColon}, {"=>", TokenKind::kArrow},
    {"(", TokenKind::kLParen},     {")", TokenKind::kRParen},       {"[", TokenKind::kLBracket},
    {"]", TokenKind::kRBracket},   {",", TokenKind::kComma},        {";", TokenKind::kSemicolon},
    {".", TokenKind::kDot},        {"+", TokenKind::kPlus},         {"-", TokenKind::kMinus},
    {"*", TokenKind::kStar},       {"/", TokenKind::kSlash},        {"~", TokenKind::kTilde},
    {"&", TokenKind::kAmp},        {"|", TokenKind::kPipe},         {"^", TokenKind::kCaret},
    {"=", TokenKind::kEq},         {"<", TokenKind::kLt},           {">", TokenKind::kGt},
};

bool Lexer::LexOperator(Token& tok) {
  const std::string_view rest = text_.substr(pos_);
  for (const auto& op : kOperators) {
    if (op.text[0] == rest[0] && rest.substr(0, op.text.size()) == op.text) {
      tok.kind = op.kind;
      pos_ += op.text.size();
      return true;
    }
  }
  const char c = text_[pos_];
  if (c == '?') {
    return Fail(pos_, 1, "positional parameters are not supported",
                "Use a named query parameter such as @project.");
  }
  if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F) {
    return Fail(pos_, 1, std::string("syntax error: unexpected character '") + c + "'");
  }
  return Fail(pos_, 1, "syntax error: unexpected character");
}

}  // namespace

std::variant<std::vector<Token>, Diagnostic> Tokenize(std::string_view text, DiagSource source,
                                                      Dialect dialect) {
  return Lexer(text, source, dialect).Run();
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of query";
    case TokenKind::kIdent:
      return "identifier " + std::string(token.text);
    case TokenKind::kKeyword: {
      std::string upper(token.text);
      for (char& ch : upper) {
        if (ch >= 'a' && ch <= 'z') {
          ch = static_cast<char>(ch - 'a' + 'A');
        }
      }
      return "keyword " + upper;
    }
    case TokenKind::kQuotedIdent:
      return "identifier `" + token.value + "`";
    case TokenKind::kInt:
    case TokenKind::kFloat:
      return "number " + std::string(token.text);
    case TokenKind::kString:
      return "string literal";
    case TokenKind::kBytes:
      return "bytes literal";
    case TokenKind::kParam:
      return "parameter @" + token.value;
    default:
      return "'" + std::string(token.text) + "'";
  }
}

}  // namespace lqe::lex
