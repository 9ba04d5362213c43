// Query expressions: WITH, set operations, SELECT and its clauses, FROM items and joins.
#include "lex/keywords.h"
#include "parse/parser_internal.h"

namespace lqe::parse {
namespace {

using lex::TokenKind;

// Keywords that end a select list; a comma right before one is a misplaced trailing comma.
constexpr std::string_view kSelectListEnders[] = {
    "WHERE", "GROUP", "HAVING",    "QUALIFY", "WINDOW", "ORDER",
    "LIMIT", "UNION", "INTERSECT", "EXCEPT",  "ON",     "USING",
};

}  // namespace

ast::QueryPtr Parser::ParseQueryExpr() {
  DepthGuard guard(*this);
  auto query = std::make_unique<ast::Query>(ast::SourceSpan{Peek().begin, Peek().begin});
  if (IsKeyword("WITH")) {
    Next();
    if (IsKeyword("RECURSIVE")) {
      FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
             "WITH RECURSIVE is not supported");
    }
    do {
      ast::Cte cte;
      cte.name = ExpectIdentifier("a name for the WITH clause");
      ExpectKeyword("AS");
      const lex::Token& open = Expect(TokenKind::kLParen, "'(' after AS");
      cte.query = ParseQueryExpr();
      ExpectClose(TokenKind::kRParen, open);
      cte.span = {cte.name.span.begin, PrevEnd()};
      query->with.push_back(std::move(cte));
    } while (Accept(TokenKind::kComma));
  }
  ast::QueryNodePtr body = ParseSetOperand();
  const lex::Token* first_op = nullptr;
  bool first_all = false;
  while (IsKeyword("UNION") || IsKeyword("INTERSECT") || IsKeyword("EXCEPT")) {
    const lex::Token& op_tok = Next();
    auto set_op = std::make_unique<ast::SetOp>(ast::SourceSpan{body->span.begin, 0});
    if (lex::EqualsIgnoreCase(op_tok.text, "INTERSECT")) {
      set_op->op = ast::SetOp::Op::kIntersect;
    }
    if (lex::EqualsIgnoreCase(op_tok.text, "EXCEPT")) {
      set_op->op = ast::SetOp::Op::kExcept;
    }
    const std::string op_name = lex::DescribeToken(op_tok).substr(8);  // drop "keyword "
    if (AcceptKeyword("ALL")) {
      set_op->all = true;
      if (set_op->op != ast::SetOp::Op::kUnion) {
        FailAt(op_tok.begin, PrevEnd() - op_tok.begin, DiagCode::kUnsupported,
               op_name + " ALL is not supported", "Use " + op_name + " DISTINCT.");
      }
    } else if (!AcceptKeyword("DISTINCT")) {
      std::string hint = "BigQuery requires " + op_name;
      hint += " ALL or " + op_name + " DISTINCT.";
      Fail(Peek(), "syntax error: expected ALL or DISTINCT after " + op_name, hint);
    }
    if (first_op == nullptr) {
      first_op = &op_tok;
      first_all = set_op->all;
    } else if (!lex::EqualsIgnoreCase(first_op->text, op_tok.text) || first_all != set_op->all) {
      Fail(op_tok, "syntax error: different set operations must be parenthesized",
           "Wrap one side in parentheses to say which operation applies first.");
    }
    guard.Add();
    set_op->left = std::move(body);
    set_op->right = ParseSetOperand();
    set_op->span.end = PrevEnd();
    body = std::move(set_op);
  }
  query->body = std::move(body);
  if (AcceptKeyword("ORDER")) {
    ExpectKeyword("BY");
    query->order_by = ParseOrderByList();
  }
  ParseLimit(*query);
  query->span.end = PrevEnd();
  return query;
}

ast::QueryNodePtr Parser::ParseSetOperand() {
  if (Is(TokenKind::kLParen)) {
    const lex::Token& open = Next();
    ast::QueryPtr inner = ParseQueryExpr();
    ExpectClose(TokenKind::kRParen, open);
    inner->span = {open.begin, PrevEnd()};
    return inner;
  }
  if (!IsKeyword("SELECT")) {
    Fail(Peek(), "syntax error: expected SELECT but got " + lex::DescribeToken(Peek()));
  }
  return ParseSelect();
}

std::unique_ptr<ast::Select> Parser::ParseSelect() {
  const lex::Token& select_tok = Next();
  auto select = std::make_unique<ast::Select>(ast::SourceSpan{select_tok.begin, 0});
  if (!AcceptKeyword("ALL") && AcceptKeyword("DISTINCT")) {
    select->distinct = true;
  }
  if (IsKeyword("AS") && IsKeyword("STRUCT", 1)) {
    Next();
    Next();
    select->as_struct = true;
  } else if (IsKeyword("AS") && IsWord("VALUE", 1)) {
    FailAt(Peek().begin, Peek(1).end - Peek().begin, DiagCode::kUnsupported,
           "SELECT AS VALUE is not supported");
  }
  ParseSelectList(*select);
  if (AcceptKeyword("FROM")) {
    select->from = ParseFromClause();
  }
  if (AcceptKeyword("WHERE")) {
    select->where = ParseExpr();
  }
  if (AcceptKeyword("GROUP")) {
    ParseGroupBy(*select);
  }
  if (AcceptKeyword("HAVING")) {
    select->having = ParseExpr();
  }
  if (AcceptKeyword("QUALIFY")) {
    select->qualify = ParseExpr();
  }
  if (AcceptKeyword("WINDOW")) {
    ParseWindowClause(*select);
  }
  select->span.end = PrevEnd();
  return select;
}

void Parser::ParseSelectList(ast::Select& select) {
  while (true) {
    select.items.push_back(ParseSelectItem());
    if (!Is(TokenKind::kComma)) {
      return;
    }
    Next();
    if (IsKeyword("FROM")) {
      return;  // BigQuery allows one trailing comma before FROM
    }
    bool ends_list = Is(TokenKind::kEnd) || Is(TokenKind::kRParen) || Is(TokenKind::kSemicolon);
    for (std::string_view kw : kSelectListEnders) {
      ends_list = ends_list || IsKeyword(kw);
    }
    if (ends_list) {
      Unexpected(Peek(), "A trailing comma is only allowed before FROM.");
    }
  }
}

ast::SelectItem Parser::ParseSelectItem() {
  ast::SelectItem item;
  const std::uint32_t begin = Peek().begin;
  if (Accept(TokenKind::kStar)) {
    item.kind = ast::SelectItem::Kind::kStar;
    ParseStarModifiers(item);
  } else {
    item.expr = ParseExpr();
    if (Is(TokenKind::kDot) && Is(TokenKind::kStar, 1)) {
      Next();
      Next();
      item.kind = ast::SelectItem::Kind::kPathStar;
      ParseStarModifiers(item);
    } else if (AcceptKeyword("AS")) {
      item.alias = ExpectIdentifier("an alias after AS");
    } else if (IsIdentifierToken()) {
      item.alias = IdentifierFrom(Next());
    }
  }
  item.span = {begin, PrevEnd()};
  return item;
}

void Parser::ParseStarModifiers(ast::SelectItem& item) {
  if (IsKeyword("EXCEPT") && Is(TokenKind::kLParen, 1)) {
    Next();
    const lex::Token& open = Next();
    do {
      item.except.push_back(ExpectIdentifier("a column name"));
    } while (Accept(TokenKind::kComma));
    ExpectClose(TokenKind::kRParen, open);
  }
  if (IsWord("REPLACE") && Is(TokenKind::kLParen, 1)) {
    Next();
    const lex::Token& open = Next();
    do {
      ast::SelectItem::Replacement r;
      r.expr = ParseExpr();
      ExpectKeyword("AS");
      r.name = ExpectIdentifier("a column name");
      item.replace.push_back(std::move(r));
    } while (Accept(TokenKind::kComma));
    ExpectClose(TokenKind::kRParen, open);
  }
}

ast::FromPtr Parser::ParseFromClause() {
  DepthGuard guard(*this);
  ast::FromPtr left = ParseFromPrimary();
  while (true) {
    using Kind = ast::Join::Kind;
    Kind kind = Kind::kInner;
    if (Accept(TokenKind::kComma)) {
      kind = Kind::kComma;
    } else if (AcceptKeyword("CROSS")) {
      kind = Kind::kCross;
      ExpectKeyword("JOIN");
    } else if (AcceptKeyword("INNER") || IsKeyword("JOIN")) {
      ExpectKeyword("JOIN");
    } else if (IsKeyword("LEFT") || IsKeyword("RIGHT") || IsKeyword("FULL")) {
      const lex::Token& side = Next();
      kind = lex::EqualsIgnoreCase(side.text, "LEFT")    ? Kind::kLeft
             : lex::EqualsIgnoreCase(side.text, "RIGHT") ? Kind::kRight
                                                         : Kind::kFull;
      AcceptKeyword("OUTER");
      ExpectKeyword("JOIN");
    } else if (IsKeyword("NATURAL")) {
      FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
             "NATURAL JOIN is not supported", "Use JOIN ... USING (columns).");
    } else {
      return left;
    }
    guard.Add();
    auto join = std::make_unique<ast::Join>(ast::SourceSpan{left->span.begin, 0});
    join->join_kind = kind;
    join->left = std::move(left);
    join->right = ParseFromPrimary();
    if (kind == Kind::kComma || kind == Kind::kCross) {
      if (IsKeyword("ON") || IsKeyword("USING")) {
        Fail(Peek(), "syntax error: a CROSS JOIN or comma join cannot have a join condition",
             "Use INNER JOIN or LEFT JOIN with a join condition.");
      }
    } else {
      ParseJoinCondition(*join);
    }
    join->span.end = PrevEnd();
    left = std::move(join);
  }
}

void Parser::ParseJoinCondition(ast::Join& join) {
  if (AcceptKeyword("ON")) {
    join.on = ParseExpr();
  } else if (AcceptKeyword("USING")) {
    const lex::Token& open = Expect(TokenKind::kLParen, "'(' after USING");
    do {
      join.using_columns.push_back(ExpectIdentifier("a column name"));
    } while (Accept(TokenKind::kComma));
    ExpectClose(TokenKind::kRParen, open);
  } else if (!join.right->Is<ast::UnnestRef>()) {
    Fail(Peek(), "syntax error: expected ON or USING but got " + lex::DescribeToken(Peek()),
         "A JOIN needs a join condition; use CROSS JOIN for a cartesian product.");
  }
}

ast::FromPtr Parser::ParseFromPrimary() {
  if (Is(TokenKind::kLParen)) {
    return ParseParenthesizedFrom();
  }
  if (IsKeyword("UNNEST")) {
    return ParseUnnestRef();
  }
  if (IsIdentifierToken()) {
    return ParseTableRef();
  }
  if (IsKeyword("LATERAL")) {
    FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
           "LATERAL is not supported");
  }
  Fail(Peek(), "syntax error: expected a table name, UNNEST or a subquery but got " +
                   lex::DescribeToken(Peek()));
}

ast::FromPtr Parser::ParseTableRef() {
  auto table = std::make_unique<ast::TableRef>(ast::SourceSpan{Peek().begin, 0});
  table->name.push_back(IdentifierFrom(Next()));
  while (Is(TokenKind::kDot)) {
    Next();
    if (!IsIdentifierToken() && !Is(TokenKind::kKeyword)) {
      Fail(Peek(), "syntax error: expected a name after '.' but got " + lex::DescribeToken(Peek()));
    }
    table->name.push_back(IdentifierFrom(Next()));
  }
  if (Is(TokenKind::kLParen)) {
    FailAt(table->span.begin, PrevEnd() - table->span.begin, DiagCode::kUnsupported,
           "table-valued functions are not supported");
  }
  if (IsKeyword("FOR") && IsWord("SYSTEM_TIME", 1)) {
    FailAt(Peek().begin, Peek(1).end - Peek().begin, DiagCode::kUnsupported,
           "FOR SYSTEM_TIME AS OF is not supported");
  }
  table->alias = ParseOptionalAlias();
  if (IsKeyword("TABLESAMPLE")) {
    FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
           "TABLESAMPLE is not supported");
  }
  table->span.end = PrevEnd();
  return table;
}

std::optional<ast::Identifier> Parser::ParseOptionalAlias() {
  if (AcceptKeyword("AS")) {
    return ExpectIdentifier("an alias after AS");
  }
  if (IsIdentifierToken()) {
    return IdentifierFrom(Next());
  }
  return std::nullopt;
}

ast::FromPtr Parser::ParseUnnestRef() {
  auto unnest = std::make_unique<ast::UnnestRef>(ast::SourceSpan{Next().begin, 0});
  const lex::Token& open = Expect(TokenKind::kLParen, "'(' after UNNEST");
  unnest->array = ParseExpr();
  ExpectClose(TokenKind::kRParen, open);
  unnest->alias = ParseOptionalAlias();
  if (IsKeyword("WITH") && IsWord("OFFSET", 1)) {
    Next();
    Next();
    unnest->with_offset = true;
    unnest->offset_alias = ParseOptionalAlias();
  }
  unnest->span.end = PrevEnd();
  return unnest;
}

ast::FromPtr Parser::ParseParenthesizedFrom() {
  const lex::Token& open = Next();
  std::size_t k = 0;
  while (Is(TokenKind::kLParen, k)) {
    ++k;
  }
  if (StartsQuery(k)) {
    auto sub = std::make_unique<ast::SubqueryRef>(ast::SourceSpan{open.begin, 0});
    sub->query = ParseQueryExpr();
    ExpectClose(TokenKind::kRParen, open);
    sub->alias = ParseOptionalAlias();
    sub->span.end = PrevEnd();
    return sub;
  }
  ast::FromPtr inner = ParseFromClause();
  ExpectClose(TokenKind::kRParen, open);
  if (inner->Is<ast::Join>()) {
    inner->As<ast::Join>().parenthesized = true;
    inner->span = {open.begin, PrevEnd()};
  }
  return inner;
}

void Parser::ParseGroupBy(ast::Select& select) {
  ExpectKeyword("BY");
  for (std::string_view kw : {"ALL", "ROLLUP", "CUBE", "GROUPING"}) {
    if (IsWord(kw)) {
      FailAt(Peek().begin, Peek().end - Peek().begin, DiagCode::kUnsupported,
             "GROUP BY " + lex::DescribeToken(Peek()).substr(8) + " is not supported",
             "List the grouping expressions explicitly.");
    }
  }
  do {
    select.group_by.push_back(ParseExpr());
  } while (Accept(TokenKind::kComma));
}

void Parser::ParseWindowClause(ast::Select& select) {
  do {
    ast::NamedWindow window;
    window.name = ExpectIdentifier("a window name");
    ExpectKeyword("AS");
    window.spec = ParseWindowSpec(true);
    select.windows.push_back(std::move(window));
  } while (Accept(TokenKind::kComma));
}

std::vector<ast::OrderItem> Parser::ParseOrderByList() {
  std::vector<ast::OrderItem> items;
  do {
    ast::OrderItem item;
    item.expr = ParseExpr();
    if (AcceptKeyword("DESC")) {
      item.descending = true;
    } else {
      AcceptKeyword("ASC");
    }
    if (AcceptKeyword("NULLS")) {
      if (AcceptWord("FIRST")) {
        item.nulls = ast::OrderItem::Nulls::kFirst;
      } else if (AcceptWord("LAST")) {
        item.nulls = ast::OrderItem::Nulls::kLast;
      } else {
        Fail(Peek(), "syntax error: expected FIRST or LAST after NULLS but got " +
                         lex::DescribeToken(Peek()));
      }
    }
    items.push_back(std::move(item));
  } while (Accept(TokenKind::kComma));
  return items;
}

void Parser::ParseLimit(ast::Query& query) {
  if (AcceptKeyword("LIMIT")) {
    query.limit = ParseExpr();
    // ClickHouse: LIMIT n BY e1, e2 [LIMIT m [OFFSET k]].
    if (options_.dialect == lex::Dialect::kClickHouse && AcceptKeyword("BY")) {
      query.limit_by_count = std::move(query.limit);
      do {
        query.limit_by.push_back(ParseExpr());
      } while (Accept(TokenKind::kComma));
      if (!AcceptKeyword("LIMIT")) return;
      query.limit = ParseExpr();
    }
    if (AcceptWord("OFFSET")) {
      query.offset = ParseExpr();
    }
  } else if (IsWord("OFFSET") && !Is(TokenKind::kDot, 1)) {
    Fail(Peek(), "syntax error: OFFSET must follow LIMIT");
  }
}

}  // namespace lqe::parse
