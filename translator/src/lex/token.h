// Tokens of BigQuery's lexical grammar, each with its byte span in the source text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lqe::lex {

enum class TokenKind : std::uint8_t {
  kEnd,          // end of input
  kIdent,        // unquoted identifier or non-reserved keyword (text as written)
  kKeyword,      // reserved keyword (text as written; compare case-insensitively)
  kQuotedIdent,  // `...`: value holds the decoded name
  kInt,          // decimal or 0x hex digits as written
  kFloat,        // 1.5, .5, 1e10
  kString,       // value holds the decoded string
  kBytes,        // value holds the decoded bytes
  kParam,        // @name: value holds name
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
  kSemicolon,
  kDot,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kTilde,
  kAmp,
  kPipe,
  kCaret,
  kConcat,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kShiftLeft,
  kShiftRight,
  kDoubleColon,
  kArrow,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::uint32_t begin = 0;  // byte offset of the first character
  std::uint32_t end = 0;    // byte offset one past the last character
  std::string_view text;    // the source slice [begin, end)
  std::string value;        // decoded value (strings, bytes, quoted identifiers, params)
};

// "')'", "keyword FROM", "identifier foo", "end of query", ... for error messages.
std::string DescribeToken(const Token& token);

}  // namespace lqe::lex
