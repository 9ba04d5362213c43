#include "lql/ast_build.h"

#include <memory>
#include <utility>

namespace lqe::lql::build {
namespace {

std::unique_ptr<ast::Literal> Lit(ast::Literal::Kind kind, std::string text, SourceSpan span) {
  auto lit = std::make_unique<ast::Literal>(span);
  lit->literal_kind = kind;
  lit->text = std::move(text);
  return lit;
}

}  // namespace

ExprPtr Path(const std::vector<std::string>& parts, SourceSpan span) {
  auto path = std::make_unique<ast::Path>(span);
  for (const auto& part : parts) {
    path->parts.push_back(ast::Identifier{part, false, span});
  }
  return path;
}

ExprPtr Null(SourceSpan span) {
  return Lit(ast::Literal::Kind::kNull, "", span);
}
ExprPtr String(std::string value, SourceSpan span) {
  return Lit(ast::Literal::Kind::kString, std::move(value), span);
}
ExprPtr Int(std::string digits, SourceSpan span) {
  return Lit(ast::Literal::Kind::kInt, std::move(digits), span);
}
ExprPtr Float(std::string text, SourceSpan span) {
  return Lit(ast::Literal::Kind::kFloat, std::move(text), span);
}

ExprPtr Bool(bool value, SourceSpan span) {
  auto lit = Lit(ast::Literal::Kind::kBool, value ? "true" : "false", span);
  lit->bool_value = value;
  return lit;
}

ExprPtr Typed(TypeKind kind, std::string text, SourceSpan span) {
  auto lit = Lit(ast::Literal::Kind::kTyped, std::move(text), span);
  lit->typed_kind = kind;
  return lit;
}

ExprPtr Binary(ast::Binary::Op op, ExprPtr left, ExprPtr right, SourceSpan span) {
  auto bin = std::make_unique<ast::Binary>(span);
  bin->op = op;
  bin->left = std::move(left);
  bin->right = std::move(right);
  bin->op_span = span;
  return bin;
}

ExprPtr Not(ExprPtr operand, SourceSpan span) {
  auto un = std::make_unique<ast::Unary>(span);
  un->op = ast::Unary::Op::kNot;
  un->operand = std::move(operand);
  return un;
}

ExprPtr Negate(ExprPtr operand, SourceSpan span) {
  auto un = std::make_unique<ast::Unary>(span);
  un->op = ast::Unary::Op::kNegate;
  un->operand = std::move(operand);
  return un;
}

ExprPtr IsNull(ExprPtr operand, bool negated, SourceSpan span) {
  auto test = std::make_unique<ast::IsTest>(span);
  test->operand = std::move(operand);
  test->what = ast::IsTest::What::kNull;
  test->negated = negated;
  return test;
}

ExprPtr Between(ExprPtr operand, ExprPtr low, ExprPtr high, SourceSpan span) {
  auto between = std::make_unique<ast::Between>(span);
  between->operand = std::move(operand);
  between->low = std::move(low);
  between->high = std::move(high);
  return between;
}

ExprPtr Call(std::string name, ast::ExprList args, SourceSpan span) {
  auto call = std::make_unique<ast::Call>(span);
  call->name = ast::Identifier{std::move(name), false, span};
  call->args = std::move(args);
  return call;
}

ExprPtr InUnnest(ExprPtr value, ExprPtr array, SourceSpan span) {
  auto in = std::make_unique<ast::In>(span);
  in->operand = std::move(value);
  in->unnest_array = std::move(array);
  return in;
}

ExprPtr InList(ExprPtr operand, ast::ExprList list, SourceSpan span) {
  auto in = std::make_unique<ast::In>(span);
  in->operand = std::move(operand);
  in->list = std::move(list);
  return in;
}

ExprPtr ExistsInUnnest(ExprPtr array, const std::string& alias, ExprPtr condition,
                       SourceSpan span) {
  auto unnest = std::make_unique<ast::UnnestRef>(span);
  unnest->array = std::move(array);
  unnest->alias = ast::Identifier{alias, false, span};
  auto select = std::make_unique<ast::Select>(span);
  ast::SelectItem one;
  one.expr = Int("1", span);
  one.span = span;
  select->items.push_back(std::move(one));
  select->from = std::move(unnest);
  select->where = std::move(condition);
  auto query = std::make_unique<ast::Query>(span);
  query->body = std::move(select);
  auto exists = std::make_unique<ast::Exists>(span);
  exists->subquery = std::move(query);
  return exists;
}

ExprPtr AndAll(ast::ExprList conditions) {
  ExprPtr result;
  for (auto& c : conditions) {
    if (!result) {
      result = std::move(c);
      continue;
    }
    const SourceSpan span{result->span.begin, c->span.end};
    result = Binary(ast::Binary::Op::kAnd, std::move(result), std::move(c), span);
  }
  return result;
}

}  // namespace lqe::lql::build
