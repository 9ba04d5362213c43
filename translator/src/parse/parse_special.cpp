// Expression forms with their own syntax: calls (aggregate modifiers, OVER), CASE, CAST,
// EXTRACT, INTERVAL, ARRAY, STRUCT and EXISTS.
#include "lex/keywords.h"
#include "parse/parser_internal.h"

namespace lqe::parse {
namespace {

using lex::TokenKind;

constexpr std::string_view kIntervalUnits[] = {
    "MICROSECOND", "MILLISECOND", "SECOND", "MINUTE",  "HOUR",
    "DAY",         "WEEK",        "MONTH",  "QUARTER", "YEAR",
};

// Tokens after which INTERVAL cannot be the start of an interval literal, so it names a column.
bool EndsOperand(const lex::Token& tok) {
  switch (tok.kind) {
    case TokenKind::kEnd:
    case TokenKind::kComma:
    case TokenKind::kRParen:
    case TokenKind::kRBracket:
    case TokenKind::kSemicolon:
    case TokenKind::kDot:
    case TokenKind::kEq:
    case TokenKind::kNe:
    case TokenKind::kLt:
    case TokenKind::kLe:
    case TokenKind::kGt:
    case TokenKind::kGe:
    case TokenKind::kStar:
    case TokenKind::kSlash:
    case TokenKind::kConcat:
    case TokenKind::kDoubleColon:
      return true;
    case TokenKind::kKeyword:
      for (std::string_view kw :
           {"FROM", "AS", "AND", "OR", "IS", "IN", "LIKE", "BETWEEN", "WHERE", "GROUP", "ORDER",
            "LIMIT", "HAVING", "ASC", "DESC", "THEN", "ELSE", "END", "WHEN"}) {
        if (lex::EqualsIgnoreCase(tok.text, kw)) {
          return true;
        }
      }
      return false;
    default:
      return false;
  }
}

}  // namespace

ast::ExprPtr Parser::ParseCall(ast::Identifier name, bool safe, std::uint32_t begin) {
  auto call = std::make_unique<ast::Call>(ast::SourceSpan{begin, 0});
  call->name = std::move(name);
  call->safe = safe;
  const lex::Token& open = Next();
  if (Is(TokenKind::kStar) && Is(TokenKind::kRParen, 1)) {
    if (!lex::EqualsIgnoreCase(call->name.name, "COUNT")) {
      Fail(Peek(), "syntax error: only COUNT accepts '*' as its argument");
    }
    Next();
    call->star = true;
  } else {
    ParseCallArgs(*call);
  }
  ExpectClose(TokenKind::kRParen, open);
  // ClickHouse's parametric aggregates: quantile(0.5)(x).
  if (options_.dialect == lex::Dialect::kClickHouse && Is(TokenKind::kLParen) && !call->star &&
      !call->distinct && call->order_by.empty() && !call->limit) {
    call->parameters = std::move(call->args);
    call->args.clear();
    const lex::Token& args_open = Next();
    ParseCallArgs(*call);
    ExpectClose(TokenKind::kRParen, args_open);
  }
  if (AcceptKeyword("OVER")) {
    call->over = ParseWindowSpec(true);
  }
  call->span.end = PrevEnd();
  return call;
}

void Parser::ParseCallArgs(ast::Call& call) {
  if (Is(TokenKind::kRParen)) {
    return;
  }
  if (AcceptKeyword("DISTINCT")) {
    call.distinct = true;
  }
  do {
    call.args.push_back(ParseExpr());
    if (Is(TokenKind::kArrow)) {
      FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
             "named arguments are not supported");
    }
  } while (Accept(TokenKind::kComma));
  if (IsKeyword("IGNORE") || IsKeyword("RESPECT")) {
    call.null_handling = IsKeyword("IGNORE") ? ast::Call::NullHandling::kIgnoreNulls
                                             : ast::Call::NullHandling::kRespectNulls;
    Next();
    ExpectKeyword("NULLS");
  }
  if (AcceptKeyword("ORDER")) {
    ExpectKeyword("BY");
    call.order_by = ParseOrderByList();
  }
  if (AcceptKeyword("LIMIT")) {
    call.limit = ParseExpr();
  }
}

ast::WindowSpec Parser::ParseWindowSpec(bool allow_bare_name) {
  ast::WindowSpec spec;
  spec.span.begin = Peek().begin;
  if (allow_bare_name && IsIdentifierToken()) {
    spec.base_name = IdentifierFrom(Next());
    spec.span.end = PrevEnd();
    return spec;
  }
  const lex::Token& open = Expect(TokenKind::kLParen, "'(' or a window name");
  if (IsIdentifierToken()) {
    spec.base_name = IdentifierFrom(Next());
  }
  if (AcceptKeyword("PARTITION")) {
    ExpectKeyword("BY");
    do {
      spec.partition_by.push_back(ParseExpr());
    } while (Accept(TokenKind::kComma));
  }
  if (AcceptKeyword("ORDER")) {
    ExpectKeyword("BY");
    spec.order_by = ParseOrderByList();
  }
  if (IsKeyword("ROWS") || IsKeyword("RANGE")) {
    spec.frame = ParseWindowFrame();
  }
  ExpectClose(TokenKind::kRParen, open);
  spec.span.end = PrevEnd();
  return spec;
}

ast::WindowFrame Parser::ParseWindowFrame() {
  ast::WindowFrame frame;
  const lex::Token& unit = Next();
  frame.span.begin = unit.begin;
  frame.unit = lex::EqualsIgnoreCase(unit.text, "ROWS") ? ast::WindowFrame::Unit::kRows
                                                        : ast::WindowFrame::Unit::kRange;
  if (AcceptKeyword("BETWEEN")) {
    frame.start = ParseFrameBound();
    ExpectKeyword("AND");
    frame.end = ParseFrameBound();
  } else {
    frame.start = ParseFrameBound();
  }
  frame.span.end = PrevEnd();
  return frame;
}

ast::WindowFrame::Bound Parser::ParseFrameBound() {
  using Kind = ast::WindowFrame::BoundKind;
  ast::WindowFrame::Bound bound;
  if (AcceptKeyword("UNBOUNDED")) {
    if (AcceptKeyword("PRECEDING")) {
      bound.kind = Kind::kUnboundedPreceding;
    } else if (AcceptKeyword("FOLLOWING")) {
      bound.kind = Kind::kUnboundedFollowing;
    } else {
      Fail(Peek(),
           "syntax error: expected PRECEDING or FOLLOWING but got " + lex::DescribeToken(Peek()));
    }
    return bound;
  }
  if (AcceptKeyword("CURRENT")) {
    if (!AcceptWord("ROW")) {
      Fail(Peek(),
           "syntax error: expected ROW after CURRENT but got " + lex::DescribeToken(Peek()));
    }
    bound.kind = Kind::kCurrentRow;
    return bound;
  }
  bound.offset = ParseExprPrec(5);  // above comparisons, so AND ends the bound
  if (AcceptKeyword("PRECEDING")) {
    bound.kind = Kind::kPreceding;
  } else if (AcceptKeyword("FOLLOWING")) {
    bound.kind = Kind::kFollowing;
  } else {
    Fail(Peek(),
         "syntax error: expected PRECEDING or FOLLOWING but got " + lex::DescribeToken(Peek()));
  }
  return bound;
}

ast::ExprPtr Parser::ParseCase() {
  const lex::Token& case_tok = Next();
  DepthGuard guard(*this);
  auto expr = std::make_unique<ast::Case>(ast::SourceSpan{case_tok.begin, 0});
  if (!IsKeyword("WHEN")) {
    expr->operand = ParseExpr();
  }
  while (AcceptKeyword("WHEN")) {
    ast::Case::When when;
    when.condition = ParseExpr();
    ExpectKeyword("THEN");
    when.result = ParseExpr();
    expr->whens.push_back(std::move(when));
  }
  if (expr->whens.empty()) {
    Fail(Peek(), "syntax error: expected WHEN but got " + lex::DescribeToken(Peek()));
  }
  if (AcceptKeyword("ELSE")) {
    expr->else_result = ParseExpr();
  }
  if (!AcceptKeyword("END")) {
    Fail(Peek(), "syntax error: expected END to close CASE opened at " + Position(case_tok) +
                     " but got " + lex::DescribeToken(Peek()));
  }
  expr->span.end = PrevEnd();
  return expr;
}

ast::ExprPtr Parser::ParseCast(bool safe) {
  const lex::Token& cast_tok = Next();
  DepthGuard guard(*this);
  auto cast = std::make_unique<ast::Cast>(ast::SourceSpan{cast_tok.begin, 0});
  cast->syntax = safe ? ast::Cast::Syntax::kSafeCast : ast::Cast::Syntax::kCast;
  const lex::Token& open = Expect(TokenKind::kLParen, "'(' after CAST");
  cast->operand = ParseExpr();
  ExpectKeyword("AS");
  const std::uint32_t type_begin = Peek().begin;
  cast->target = ParseType();
  cast->target_span = {type_begin, PrevEnd()};
  if (AcceptWord("FORMAT")) {
    cast->format = ParseExpr();
    if (IsKeyword("AT")) {
      FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
             "CAST ... FORMAT ... AT TIME ZONE is not supported");
    }
  }
  ExpectClose(TokenKind::kRParen, open);
  cast->span.end = PrevEnd();
  return cast;
}

ast::ExprPtr Parser::ParseExtract() {
  const lex::Token& tok = Next();
  DepthGuard guard(*this);
  auto extract = std::make_unique<ast::Extract>(ast::SourceSpan{tok.begin, 0});
  const lex::Token& open = Expect(TokenKind::kLParen, "'(' after EXTRACT");
  if (!Is(TokenKind::kIdent)) {
    Fail(Peek(),
         "syntax error: expected a date part such as DAY but got " + lex::DescribeToken(Peek()));
  }
  extract->part = IdentifierFrom(Next());
  if (Is(TokenKind::kLParen)) {
    const lex::Token& week_open = Next();
    extract->week_start = ExpectIdentifier("a weekday such as MONDAY");
    ExpectClose(TokenKind::kRParen, week_open);
  }
  ExpectKeyword("FROM");
  extract->operand = ParseExpr();
  if (AcceptKeyword("AT")) {
    ExpectKeyword("TIME");
    ExpectKeyword("ZONE");
    extract->time_zone = ParseExpr();
  }
  ExpectClose(TokenKind::kRParen, open);
  extract->span.end = PrevEnd();
  return extract;
}

ast::ExprPtr Parser::ParseInterval() {
  const lex::Token& tok = Next();
  if (EndsOperand(Peek())) {  // `interval` used as a column name
    auto path = std::make_unique<ast::Path>(ast::SourceSpan{tok.begin, tok.end});
    path->parts.push_back(IdentifierFrom(tok));
    return path;
  }
  DepthGuard guard(*this);
  auto interval = std::make_unique<ast::Interval>(ast::SourceSpan{tok.begin, 0});
  interval->value = ParseExprPrec(9);  // additive level: INTERVAL @n + 1 DAY
  if (!Is(TokenKind::kIdent)) {
    Fail(Peek(), "syntax error: expected an interval unit such as DAY but got " +
                     lex::DescribeToken(Peek()));
  }
  bool known = false;
  for (std::string_view unit : kIntervalUnits) {
    known = known || IsWord(unit);
  }
  if (!known) {
    Fail(Peek(), "syntax error: unknown interval unit " + std::string(Peek().text),
         "Use MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER or YEAR.");
  }
  interval->unit = IdentifierFrom(Next());
  if (IsKeyword("TO")) {
    FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
           "INTERVAL ... TO ... ranges are not supported");
  }
  interval->span.end = PrevEnd();
  return interval;
}

ast::ExprPtr Parser::ParseArray() {
  const lex::Token& tok = Peek();
  DepthGuard guard(*this);
  auto array = std::make_unique<ast::ArrayCtor>(ast::SourceSpan{tok.begin, 0});
  if (Is(TokenKind::kLt, 1)) {
    const TypePtr type = ParseType();
    array->element_type = type->element;
  } else {
    Next();
  }
  if (array->element_type == nullptr && Is(TokenKind::kLParen)) {
    const lex::Token& open = Next();
    if (!StartsQuery()) {
      Fail(Peek(),
           "syntax error: expected a subquery after ARRAY( but got " + lex::DescribeToken(Peek()));
    }
    array->subquery = ParseQueryExpr();
    ExpectClose(TokenKind::kRParen, open);
    array->span.end = PrevEnd();
    return array;
  }
  if (!Is(TokenKind::kLBracket)) {
    Fail(Peek(), "syntax error: expected '[' after ARRAY but got " + lex::DescribeToken(Peek()));
  }
  return ParseArrayElements(std::move(array));
}

ast::ExprPtr Parser::ParseArrayElements(std::unique_ptr<ast::ArrayCtor> array) {
  DepthGuard guard(*this);
  const lex::Token& open = Next();
  if (!Is(TokenKind::kRBracket)) {
    do {
      array->elements.push_back(ParseExpr());
    } while (Accept(TokenKind::kComma));
  }
  ExpectClose(TokenKind::kRBracket, open);
  array->span.end = PrevEnd();
  return array;
}

ast::ExprPtr Parser::ParseStruct() {
  const lex::Token& tok = Peek();
  DepthGuard guard(*this);
  auto st = std::make_unique<ast::StructCtor>(ast::SourceSpan{tok.begin, 0});
  if (Is(TokenKind::kLt, 1)) {
    st->declared_type = ParseType();
  } else {
    Next();
  }
  const lex::Token& open = Expect(TokenKind::kLParen, "'(' after STRUCT");
  if (!Is(TokenKind::kRParen)) {
    do {
      ast::StructCtor::Field field;
      field.value = ParseExpr();
      if (AcceptKeyword("AS")) {
        field.alias = ExpectIdentifier("a field name after AS");
      }
      st->fields.push_back(std::move(field));
    } while (Accept(TokenKind::kComma));
  }
  ExpectClose(TokenKind::kRParen, open);
  st->span.end = PrevEnd();
  return st;
}

ast::ExprPtr Parser::ParseExists() {
  const lex::Token& tok = Next();
  auto exists = std::make_unique<ast::Exists>(ast::SourceSpan{tok.begin, 0});
  const lex::Token& open = Expect(TokenKind::kLParen, "'(' after EXISTS");
  if (!StartsQuery()) {
    Fail(Peek(),
         "syntax error: expected a subquery after EXISTS( but got " + lex::DescribeToken(Peek()));
  }
  exists->subquery = ParseQueryExpr();
  ExpectClose(TokenKind::kRParen, open);
  exists->span.end = PrevEnd();
  return exists;
}

}  // namespace lqe::parse
