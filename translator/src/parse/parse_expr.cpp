// Expressions by precedence climbing. Levels follow BigQuery's operator precedence table:
// postfix > unary > * / || > + - > << >> > & > ^ > | > comparisons > NOT > AND > OR.
#include <charconv>

#include "lex/keywords.h"
#include "parse/parser_internal.h"

namespace lqe::parse {
namespace {

using lex::TokenKind;

enum Prec : int {
  kPrecNone = 0,
  kPrecOr,
  kPrecAnd,
  kPrecNot,
  kPrecCompare,
  kPrecBitOr,
  kPrecBitXor,
  kPrecBitAnd,
  kPrecShift,
  kPrecAdd,
  kPrecMul,
};

struct BinarySpelling {
  TokenKind token;
  ast::Binary::Op op;
  int prec;
};

constexpr BinarySpelling kBinaryOps[] = {
    {TokenKind::kStar, ast::Binary::Op::kMul, kPrecMul},
    {TokenKind::kSlash, ast::Binary::Op::kDiv, kPrecMul},
    {TokenKind::kConcat, ast::Binary::Op::kConcat, kPrecMul},
    {TokenKind::kPlus, ast::Binary::Op::kAdd, kPrecAdd},
    {TokenKind::kMinus, ast::Binary::Op::kSub, kPrecAdd},
    {TokenKind::kShiftLeft, ast::Binary::Op::kShiftLeft, kPrecShift},
    {TokenKind::kShiftRight, ast::Binary::Op::kShiftRight, kPrecShift},
    {TokenKind::kAmp, ast::Binary::Op::kBitAnd, kPrecBitAnd},
    {TokenKind::kCaret, ast::Binary::Op::kBitXor, kPrecBitXor},
    {TokenKind::kPipe, ast::Binary::Op::kBitOr, kPrecBitOr},
    {TokenKind::kEq, ast::Binary::Op::kEq, kPrecCompare},
    {TokenKind::kNe, ast::Binary::Op::kNe, kPrecCompare},
    {TokenKind::kLt, ast::Binary::Op::kLt, kPrecCompare},
    {TokenKind::kLe, ast::Binary::Op::kLe, kPrecCompare},
    {TokenKind::kGt, ast::Binary::Op::kGt, kPrecCompare},
    {TokenKind::kGe, ast::Binary::Op::kGe, kPrecCompare},
};

const BinarySpelling* FindBinary(TokenKind kind) {
  for (const auto& b : kBinaryOps) {
    if (b.token == kind) {
      return &b;
    }
  }
  return nullptr;
}

// Keywords that may name a function when followed by '(' (BigQuery reserves them otherwise).
constexpr std::string_view kKeywordFunctions[] = {"IF", "LEFT", "RIGHT", "COLLATE", "RANGE"};

constexpr std::string_view kBareCallFunctions[] = {"CURRENT_TIMESTAMP", "CURRENT_DATE",
                                                   "CURRENT_DATETIME", "CURRENT_TIME"};

}  // namespace

ast::ExprPtr Parser::ParseExpr() {
  return ParseExprPrec(kPrecOr);
}

ast::ExprPtr Parser::ParseExprPrec(int min_prec) {
  DepthGuard guard(*this);
  ast::ExprPtr left = ParseUnary();
  while (true) {
    int prec = kPrecNone;
    if (const auto* b = FindBinary(Peek().kind)) {
      prec = b->prec;
    } else if (IsKeyword("OR")) {
      prec = kPrecOr;
    } else if (IsKeyword("AND")) {
      prec = kPrecAnd;
    } else if (IsKeyword("IS") || IsKeyword("IN") || IsKeyword("LIKE") || IsKeyword("ILIKE") ||
               IsKeyword("BETWEEN") ||
               (IsKeyword("NOT") && (IsKeyword("IN", 1) || IsKeyword("LIKE", 1) ||
                                     IsKeyword("ILIKE", 1) || IsKeyword("BETWEEN", 1)))) {
      prec = kPrecCompare;
    }
    if (prec == kPrecNone || prec < min_prec) {
      return left;
    }
    guard.Add();  // each operator applied here nests the tree one level deeper
    left = ParseInfix(std::move(left), prec);
    if (prec == kPrecCompare) {
      const auto* next = FindBinary(Peek().kind);
      if ((next != nullptr && next->prec == kPrecCompare) || IsKeyword("IS") || IsKeyword("IN") ||
          IsKeyword("LIKE") || IsKeyword("ILIKE") || IsKeyword("BETWEEN")) {
        Unexpected(Peek(), "Comparisons cannot be chained; add parentheses.");
      }
    }
  }
}

ast::ExprPtr Parser::ParseInfix(ast::ExprPtr left, int prec) {
  const std::uint32_t begin = left->span.begin;
  const lex::Token& op_tok = Next();
  if (const auto* b = FindBinary(op_tok.kind)) {
    auto bin = std::make_unique<ast::Binary>(ast::SourceSpan{begin, 0});
    bin->op = b->op;
    bin->op_span = {op_tok.begin, op_tok.end};
    bin->left = std::move(left);
    bin->right = ParseExprPrec(prec + 1);
    bin->span.end = bin->right->span.end;
    return bin;
  }
  if (op_tok.kind == TokenKind::kKeyword) {
    if (lex::EqualsIgnoreCase(op_tok.text, "OR") || lex::EqualsIgnoreCase(op_tok.text, "AND")) {
      auto bin = std::make_unique<ast::Binary>(ast::SourceSpan{begin, 0});
      bin->op =
          lex::EqualsIgnoreCase(op_tok.text, "OR") ? ast::Binary::Op::kOr : ast::Binary::Op::kAnd;
      bin->op_span = {op_tok.begin, op_tok.end};
      bin->left = std::move(left);
      bin->right = ParseExprPrec(prec + 1);
      bin->span.end = bin->right->span.end;
      return bin;
    }
    if (lex::EqualsIgnoreCase(op_tok.text, "IS")) {
      return ParseIsTest(std::move(left));
    }
    const bool negated = lex::EqualsIgnoreCase(op_tok.text, "NOT");
    const lex::Token& what = negated ? Next() : op_tok;
    if (lex::EqualsIgnoreCase(what.text, "IN")) {
      return ParseIn(std::move(left), negated, begin);
    }
    // ILIKE is a keyword only in ClickHouse's lexical rules.
    const bool ilike = lex::EqualsIgnoreCase(what.text, "ILIKE");
    if (ilike || lex::EqualsIgnoreCase(what.text, "LIKE")) {
      if (IsKeyword("ANY") || IsKeyword("SOME") || IsKeyword("ALL")) {
        FailAt(what.begin, Peek().end - what.begin, DiagCode::kUnsupported,
               "LIKE " + lex::DescribeToken(Peek()).substr(8) + " is not supported");
      }
      auto like = std::make_unique<ast::Like>(ast::SourceSpan{begin, 0});
      like->negated = negated;
      like->case_insensitive = ilike;
      like->operand = std::move(left);
      like->pattern = ParseExprPrec(kPrecCompare + 1);
      like->span.end = PrevEnd();
      return like;
    }
    auto between = std::make_unique<ast::Between>(ast::SourceSpan{begin, 0});
    between->negated = negated;
    between->operand = std::move(left);
    between->low = ParseExprPrec(kPrecCompare + 1);
    ExpectKeyword("AND");
    between->high = ParseExprPrec(kPrecCompare + 1);
    between->span.end = PrevEnd();
    return between;
  }
  Unexpected(op_tok);
}

ast::ExprPtr Parser::ParseIsTest(ast::ExprPtr left) {
  const std::uint32_t begin = left->span.begin;
  const bool negated = AcceptKeyword("NOT");
  if (AcceptWord("DISTINCT")) {
    ExpectKeyword("FROM");
    auto bin = std::make_unique<ast::Binary>(ast::SourceSpan{begin, 0});
    bin->op = negated ? ast::Binary::Op::kIsNotDistinctFrom : ast::Binary::Op::kIsDistinctFrom;
    bin->left = std::move(left);
    bin->right = ParseExprPrec(kPrecCompare + 1);
    bin->span.end = PrevEnd();
    return bin;
  }
  auto test = std::make_unique<ast::IsTest>(ast::SourceSpan{begin, 0});
  test->negated = negated;
  test->operand = std::move(left);
  if (AcceptKeyword("NULL")) {
    test->what = ast::IsTest::What::kNull;
  } else if (AcceptKeyword("TRUE")) {
    test->what = ast::IsTest::What::kTrue;
  } else if (AcceptKeyword("FALSE")) {
    test->what = ast::IsTest::What::kFalse;
  } else if (AcceptWord("UNKNOWN")) {
    test->what = ast::IsTest::What::kUnknown;
  } else {
    Fail(Peek(), "syntax error: expected NULL, TRUE, FALSE or DISTINCT FROM after IS but got " +
                     lex::DescribeToken(Peek()));
  }
  test->span.end = PrevEnd();
  return test;
}

ast::ExprPtr Parser::ParseIn(ast::ExprPtr left, bool negated, std::uint32_t begin) {
  auto in = std::make_unique<ast::In>(ast::SourceSpan{begin, 0});
  in->negated = negated;
  in->operand = std::move(left);
  if (IsKeyword("UNNEST")) {
    Next();
    const lex::Token& open = Expect(TokenKind::kLParen, "'(' after UNNEST");
    in->unnest_array = ParseExpr();
    ExpectClose(TokenKind::kRParen, open);
  } else {
    const lex::Token& open = Expect(TokenKind::kLParen, "'(' after IN");
    if (StartsQuery()) {
      in->subquery = ParseQueryExpr();
    } else {
      if (Is(TokenKind::kRParen)) {
        Fail(Peek(), "syntax error: IN list is empty");
      }
      do {
        in->list.push_back(ParseExpr());
      } while (Accept(TokenKind::kComma));
    }
    ExpectClose(TokenKind::kRParen, open);
  }
  in->span.end = PrevEnd();
  return in;
}

ast::ExprPtr Parser::ParseUnary() {
  const lex::Token& tok = Peek();
  ast::Unary::Op op;
  if (IsKeyword("NOT")) {
    op = ast::Unary::Op::kNot;
  } else if (tok.kind == TokenKind::kMinus) {
    op = ast::Unary::Op::kNegate;
  } else if (tok.kind == TokenKind::kPlus) {
    op = ast::Unary::Op::kPlus;
  } else if (tok.kind == TokenKind::kTilde) {
    op = ast::Unary::Op::kBitNot;
  } else {
    bool parenthesized = false;
    ast::ExprPtr primary = ParsePrimary(parenthesized);
    return ParsePostfix(std::move(primary), parenthesized);
  }
  Next();
  DepthGuard guard(*this);
  // The one INT64 value whose magnitude is not itself an INT64.
  if (op == ast::Unary::Op::kNegate && Is(TokenKind::kInt) &&
      Peek().text == "9223372036854775808") {
    auto lit = std::make_unique<ast::Literal>(ast::SourceSpan{tok.begin, Next().end});
    lit->literal_kind = ast::Literal::Kind::kInt;
    lit->text = "-9223372036854775808";
    return ParsePostfix(std::move(lit), false);
  }
  auto unary = std::make_unique<ast::Unary>(ast::SourceSpan{tok.begin, 0});
  unary->op = op;
  unary->operand = op == ast::Unary::Op::kNot ? ParseExprPrec(kPrecNot) : ParseUnary();
  unary->span.end = unary->operand->span.end;
  return unary;
}

ast::ExprPtr Parser::ParsePostfix(ast::ExprPtr base, bool parenthesized) {
  DepthGuard guard(*this, 0);
  while (true) {
    if (Is(TokenKind::kDot)) {
      if (Is(TokenKind::kStar, 1)) {
        return base;  // t.* in a select list
      }
      const TokenKind k = Peek(1).kind;
      if (k != TokenKind::kIdent && k != TokenKind::kQuotedIdent && k != TokenKind::kKeyword) {
        Fail(Peek(1), "syntax error: expected a field name after '.' but got " +
                          lex::DescribeToken(Peek(1)));
      }
      Next();
      ast::Identifier field = IdentifierFrom(Next());
      if (base->Is<ast::Path>() && !parenthesized) {
        base->As<ast::Path>().parts.push_back(std::move(field));
        base->span.end = PrevEnd();
      } else {
        guard.Add();
        auto access = std::make_unique<ast::FieldAccess>(ast::SourceSpan{base->span.begin, 0});
        access->base = std::move(base);
        access->field = std::move(field);
        access->span.end = PrevEnd();
        base = std::move(access);
      }
      parenthesized = false;
    } else if (Is(TokenKind::kLParen) && base->Is<ast::Path>() && !parenthesized) {
      // A dotted function name: SAFE.f(...), NET.HOST(...), SAFE.NET.HOST(...); the resolver
      // decides whether the function exists.
      auto& parts = base->As<ast::Path>().parts;
      const bool safe = !parts[0].quoted && lex::EqualsIgnoreCase(parts[0].name, "SAFE");
      ast::Identifier name = parts[safe ? 1 : 0];
      for (std::size_t i = safe ? 2 : 1; i < parts.size(); ++i) {
        name.name += "." + parts[i].name;
        name.span.end = parts[i].span.end;
      }
      base = ParseCall(std::move(name), safe, base->span.begin);
    } else if (Is(TokenKind::kLBracket)) {
      guard.Add();
      base = ParseSubscript(std::move(base));
      parenthesized = false;
    } else if (Is(TokenKind::kDoubleColon)) {
      guard.Add();
      Next();
      auto cast = std::make_unique<ast::Cast>(ast::SourceSpan{base->span.begin, 0});
      cast->syntax = ast::Cast::Syntax::kDoubleColon;
      cast->operand = std::move(base);
      const std::uint32_t type_begin = Peek().begin;
      cast->target = ParsePgTypeName();
      cast->target_span = {type_begin, PrevEnd()};
      cast->span.end = PrevEnd();
      base = std::move(cast);
      parenthesized = false;
    } else {
      return base;
    }
  }
}

ast::ExprPtr Parser::ParseSubscript(ast::ExprPtr base) {
  const lex::Token& open = Next();
  auto sub = std::make_unique<ast::Subscript>(ast::SourceSpan{base->span.begin, 0});
  sub->base = std::move(base);
  using Mode = ast::Subscript::Mode;
  constexpr std::pair<std::string_view, Mode> kModes[] = {{"OFFSET", Mode::kOffset},
                                                          {"SAFE_OFFSET", Mode::kSafeOffset},
                                                          {"ORDINAL", Mode::kOrdinal},
                                                          {"SAFE_ORDINAL", Mode::kSafeOrdinal}};
  for (const auto& [word, mode] : kModes) {
    if (IsWord(word) && Is(TokenKind::kLParen, 1)) {
      Next();
      const lex::Token& inner_open = Next();
      sub->mode = mode;
      sub->index = ParseExpr();
      ExpectClose(TokenKind::kRParen, inner_open);
      break;
    }
  }
  if (sub->index == nullptr) {
    if (Is(TokenKind::kRBracket)) {
      Fail(Peek(), "syntax error: expected an array index");
    }
    sub->index = ParseExpr();
  }
  ExpectClose(TokenKind::kRBracket, open);
  sub->span.end = PrevEnd();
  return sub;
}

ast::ExprPtr Parser::ParsePrimary(bool& parenthesized) {
  const lex::Token& tok = Peek();
  switch (tok.kind) {
    case TokenKind::kInt:
    case TokenKind::kFloat:
    case TokenKind::kString:
    case TokenKind::kBytes:
      return MakeLiteral(Next());
    case TokenKind::kParam: {
      auto param = std::make_unique<ast::Param>(ast::SourceSpan{tok.begin, tok.end});
      param->name = Next().value;
      return param;
    }
    case TokenKind::kLParen:
      return ParseParenthesized(parenthesized);
    case TokenKind::kLBracket:
      return ParseArrayElements(std::make_unique<ast::ArrayCtor>(ast::SourceSpan{tok.begin, 0}));
    case TokenKind::kKeyword:
      return ParseKeywordExpr();
    case TokenKind::kIdent:
    case TokenKind::kQuotedIdent:
      return ParseWord();
    default:
      Unexpected(tok);
  }
}

ast::ExprPtr Parser::ParseParenthesized(bool& parenthesized) {
  const lex::Token& open = Next();  // depth is counted by the ParseExpr / ParseQueryExpr below
  if (StartsQuery()) {
    auto sub = std::make_unique<ast::ScalarSubquery>(ast::SourceSpan{open.begin, 0});
    sub->subquery = ParseQueryExpr();
    ExpectClose(TokenKind::kRParen, open);
    sub->span.end = PrevEnd();
    return sub;
  }
  if (Is(TokenKind::kRParen)) {
    Unexpected(Peek());
  }
  ast::ExprPtr first = ParseExpr();
  if (Is(TokenKind::kComma)) {
    auto tuple = std::make_unique<ast::StructCtor>(ast::SourceSpan{open.begin, 0});
    tuple->tuple_syntax = true;
    tuple->fields.push_back({std::move(first), std::nullopt});
    while (Accept(TokenKind::kComma)) {
      tuple->fields.push_back({ParseExpr(), std::nullopt});
    }
    ExpectClose(TokenKind::kRParen, open);
    tuple->span.end = PrevEnd();
    return tuple;
  }
  ExpectClose(TokenKind::kRParen, open);
  parenthesized = true;
  return first;
}

ast::ExprPtr Parser::ParseKeywordExpr() {
  const lex::Token& tok = Peek();
  const auto is = [&](std::string_view w) { return lex::EqualsIgnoreCase(tok.text, w); };
  if (is("NULL") || is("TRUE") || is("FALSE")) {
    auto lit = std::make_unique<ast::Literal>(ast::SourceSpan{tok.begin, tok.end});
    lit->literal_kind = is("NULL") ? ast::Literal::Kind::kNull : ast::Literal::Kind::kBool;
    lit->bool_value = is("TRUE");
    Next();
    return lit;
  }
  if (is("CASE")) {
    return ParseCase();
  }
  if (is("CAST")) {
    return ParseCast(false);
  }
  if (is("EXTRACT")) {
    return ParseExtract();
  }
  if (is("INTERVAL")) {
    return ParseInterval();
  }
  if (is("ARRAY")) {
    return ParseArray();
  }
  if (is("STRUCT")) {
    return ParseStruct();
  }
  if (is("EXISTS")) {
    return ParseExists();
  }
  if (Is(TokenKind::kLParen, 1)) {
    // ClickHouse names functions any(x), like(s, p) and ilike(s, p).
    const bool clickhouse_function =
        options_.dialect == lex::Dialect::kClickHouse && (is("ANY") || is("LIKE") || is("ILIKE"));
    if (clickhouse_function) {
      ast::Identifier name = IdentifierFrom(Next());
      return ParseCall(std::move(name), false, tok.begin);
    }
    for (std::string_view fn : kKeywordFunctions) {
      if (is(fn)) {
        ast::Identifier name = IdentifierFrom(Next());
        return ParseCall(std::move(name), false, tok.begin);
      }
    }
  }
  Unexpected(tok);
}

ast::ExprPtr Parser::ParseWord() {
  const lex::Token& tok = Peek();
  if (tok.kind == TokenKind::kIdent) {
    const auto is = [&](std::string_view w) { return lex::EqualsIgnoreCase(tok.text, w); };
    if (Is(TokenKind::kString, 1)) {
      for (std::string_view t :
           {"DATE", "TIMESTAMP", "DATETIME", "TIME", "NUMERIC", "BIGNUMERIC", "JSON"}) {
        if (is(t)) {
          return ParseTypedLiteral(ParseScalarTypeName(t));
        }
      }
    }
    if (is("SAFE_CAST") && Is(TokenKind::kLParen, 1)) {
      return ParseCast(true);
    }
    if (!Is(TokenKind::kLParen, 1) && !Is(TokenKind::kDot, 1)) {
      for (std::string_view fn : kBareCallFunctions) {
        if (is(fn)) {
          auto call = std::make_unique<ast::Call>(ast::SourceSpan{tok.begin, tok.end});
          call->name = IdentifierFrom(Next());
          return call;
        }
      }
    }
  }
  ast::Identifier name = IdentifierFrom(Next());
  if (Is(TokenKind::kLParen)) {
    return ParseCall(std::move(name), false, tok.begin);
  }
  auto path = std::make_unique<ast::Path>(ast::SourceSpan{tok.begin, tok.end});
  path->parts.push_back(std::move(name));
  return path;
}

ast::ExprPtr Parser::MakeLiteral(const lex::Token& tok) {
  auto lit = std::make_unique<ast::Literal>(ast::SourceSpan{tok.begin, tok.end});
  switch (tok.kind) {
    case TokenKind::kInt: {
      lit->literal_kind = ast::Literal::Kind::kInt;
      lit->text = std::string(tok.text);
      const bool hex = tok.text.size() > 2 && (tok.text[1] == 'x' || tok.text[1] == 'X');
      const std::string_view digits = hex ? tok.text.substr(2) : tok.text;
      std::int64_t value = 0;
      const auto res =
          std::from_chars(digits.data(), digits.data() + digits.size(), value, hex ? 16 : 10);
      if (res.ec != std::errc() || res.ptr != digits.data() + digits.size()) {
        FailAt(tok.begin, tok.end - tok.begin, DiagCode::kSyntax,
               "integer literal " + std::string(tok.text) + " is out of range for INT64",
               "Write a FLOAT64 literal such as 1e20, or a NUMERIC literal: NUMERIC '...'.");
      }
      lit->text = std::to_string(value);  // hex and leading zeros normalised to plain decimal
      break;
    }
    case TokenKind::kFloat:
      lit->literal_kind = ast::Literal::Kind::kFloat;
      lit->text = std::string(tok.text);
      break;
    case TokenKind::kString:
      lit->literal_kind = ast::Literal::Kind::kString;
      lit->text = tok.value;
      break;
    default:
      lit->literal_kind = ast::Literal::Kind::kBytes;
      lit->text = tok.value;
      break;
  }
  return lit;
}

ast::ExprPtr Parser::ParseTypedLiteral(TypeKind kind) {
  const lex::Token& type_tok = Next();
  const lex::Token& value = Next();
  auto lit = std::make_unique<ast::Literal>(ast::SourceSpan{type_tok.begin, value.end});
  lit->literal_kind = ast::Literal::Kind::kTyped;
  lit->typed_kind = kind;
  lit->text = value.value;
  return lit;
}

}  // namespace lqe::parse
