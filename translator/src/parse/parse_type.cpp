// Type names: BigQuery's (INT64, ARRAY<T>, STRUCT<a T>, STRING(10)) and, after `::`, the
// PostgreSQL names clients send (text, integer, double precision, timestamptz, jsonb, ...).
#include "lex/keywords.h"
#include "parse/parser_internal.h"

namespace lqe::parse {
namespace {

using lex::TokenKind;

struct PgTypeName {
  std::string_view name;
  TypeKind kind;
};

constexpr PgTypeName kPgTypes[] = {
    {"TEXT", TypeKind::kString},
    {"VARCHAR", TypeKind::kString},
    {"CHAR", TypeKind::kString},
    {"INT", TypeKind::kInt64},
    {"INTEGER", TypeKind::kInt64},
    {"BIGINT", TypeKind::kInt64},
    {"SMALLINT", TypeKind::kInt64},
    {"INT2", TypeKind::kInt64},
    {"INT4", TypeKind::kInt64},
    {"INT8", TypeKind::kInt64},
    {"FLOAT", TypeKind::kFloat64},
    {"FLOAT4", TypeKind::kFloat64},
    {"FLOAT8", TypeKind::kFloat64},
    {"REAL", TypeKind::kFloat64},
    {"BOOL", TypeKind::kBool},
    {"BOOLEAN", TypeKind::kBool},
    {"TIMESTAMPTZ", TypeKind::kTimestamp},
    {"DATE", TypeKind::kDate},
    {"NUMERIC", TypeKind::kNumeric},
    {"DECIMAL", TypeKind::kNumeric},
    {"JSONB", TypeKind::kJson},
    {"JSON", TypeKind::kJson},
    {"BYTEA", TypeKind::kBytes},
};

}  // namespace

TypePtr Parser::ParseType() {
  DepthGuard guard(*this);
  const lex::Token& tok = Peek();
  if (tok.kind != TokenKind::kIdent && tok.kind != TokenKind::kKeyword) {
    Fail(tok, "syntax error: expected a type name but got " + lex::DescribeToken(tok));
  }
  if (lex::EqualsIgnoreCase(tok.text, "ARRAY")) {
    Next();
    Expect(TokenKind::kLt, "'<' after ARRAY");
    TypePtr element = ParseType();
    ExpectCloseAngle();
    return Type::Array(std::move(element));
  }
  if (lex::EqualsIgnoreCase(tok.text, "STRUCT")) {
    Next();
    Expect(TokenKind::kLt, "'<' after STRUCT");
    std::vector<StructField> fields;
    if (!Is(TokenKind::kGt)) {
      do {
        StructField field;
        // `name TYPE` when a word follows the first word; a bare type otherwise.
        const TokenKind after = Peek(1).kind;
        if (IsIdentifierToken() && (after == TokenKind::kIdent || after == TokenKind::kKeyword)) {
          field.name = ExpectIdentifier("a field name").name;
        }
        field.type = ParseType();
        fields.push_back(std::move(field));
      } while (Accept(TokenKind::kComma));
    }
    ExpectCloseAngle();
    return Type::Record(std::move(fields));
  }
  const TypeKind kind = ParseScalarTypeName(tok.text);
  if (kind == TypeKind::kUnknown || kind == TypeKind::kRecord || kind == TypeKind::kArray) {
    Fail(tok, "syntax error: unknown type " + std::string(tok.text));
  }
  Next();
  SkipTypeParameters();
  return Type::Scalar(kind);
}

// STRING(10), NUMERIC(10, 2): parameters are accepted and ignored.
void Parser::SkipTypeParameters() {
  if (!Is(TokenKind::kLParen)) {
    return;
  }
  const lex::Token& open = Next();
  do {
    if (!Is(TokenKind::kInt) && !IsWord("MAX")) {
      Fail(Peek(), "syntax error: expected a type parameter but got " + lex::DescribeToken(Peek()));
    }
    Next();
  } while (Accept(TokenKind::kComma));
  ExpectClose(TokenKind::kRParen, open);
}

void Parser::ExpectCloseAngle() {
  if (Accept(TokenKind::kGt)) {
    return;
  }
  if (Is(TokenKind::kShiftRight)) {
    // `>>` closing two nested type parameter lists: consume one '>' and leave the other.
    lex::Token& tok = tokens_[pos_];
    tok.begin += 1;
    tok.text = tok.text.substr(1);
    tok.kind = TokenKind::kGt;
    return;
  }
  Fail(Peek(), "syntax error: expected '>' but got " + lex::DescribeToken(Peek()));
}

TypePtr Parser::ParsePgTypeName() {
  const lex::Token& tok = Peek();
  if (tok.kind != TokenKind::kIdent && tok.kind != TokenKind::kKeyword) {
    Fail(tok, "syntax error: expected a type name after '::' but got " + lex::DescribeToken(tok));
  }
  if (IsWord("DOUBLE") && IsWord("PRECISION", 1)) {
    Next();
    Next();
    return Type::Scalar(TypeKind::kFloat64);
  }
  if (IsWord("CHARACTER")) {
    Next();
    AcceptWord("VARYING");
    SkipTypeParameters();
    return Type::Scalar(TypeKind::kString);
  }
  if (IsWord("TIMESTAMP")) {
    Next();
    if (AcceptKeyword("WITH") || AcceptWord("WITHOUT")) {
      const bool with = lex::EqualsIgnoreCase(tokens_[pos_ - 1].text, "WITH");
      ExpectKeyword("TIME");
      ExpectKeyword("ZONE");
      return Type::Scalar(with ? TypeKind::kTimestamp : TypeKind::kDatetime);
    }
    return Type::Scalar(TypeKind::kTimestamp);
  }
  for (const auto& pg : kPgTypes) {
    if (lex::EqualsIgnoreCase(tok.text, pg.name)) {
      Next();
      SkipTypeParameters();
      return Type::Scalar(pg.kind);
    }
  }
  const TypeKind kind = ParseScalarTypeName(tok.text);
  if (kind == TypeKind::kUnknown) {
    Fail(tok, "syntax error: unknown type " + std::string(tok.text),
         "Use a BigQuery type such as STRING, INT64, FLOAT64, BOOL or TIMESTAMP.");
  }
  Next();
  SkipTypeParameters();
  return Type::Scalar(kind);
}

}  // namespace lqe::parse
