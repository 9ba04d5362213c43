#include "clickhouse/build.h"

#include <utility>

namespace lqe::clickhouse {

ast::ExprPtr Call(std::string_view name, ast::SourceSpan span, ast::ExprList args) {
  auto call = std::make_unique<ast::Call>(span);
  call->name.name = std::string(name);
  call->name.span = span;
  call->args = std::move(args);
  return call;
}

ast::ExprPtr DatePart(std::string_view part, ast::SourceSpan span) {
  auto path = std::make_unique<ast::Path>(span);
  path->parts.push_back({std::string(part), false, span});
  return path;
}

ast::ExprPtr IntLiteral(long long value, ast::SourceSpan span) {
  auto lit = std::make_unique<ast::Literal>(span);
  lit->literal_kind = ast::Literal::Kind::kInt;
  lit->text = std::to_string(value);
  return lit;
}

ast::ExprPtr StringLiteral(std::string value, ast::SourceSpan span) {
  auto lit = std::make_unique<ast::Literal>(span);
  lit->literal_kind = ast::Literal::Kind::kString;
  lit->text = std::move(value);
  return lit;
}

ast::ExprPtr BoolLiteral(bool value, ast::SourceSpan span) {
  auto lit = std::make_unique<ast::Literal>(span);
  lit->literal_kind = ast::Literal::Kind::kBool;
  lit->bool_value = value;
  return lit;
}

ast::ExprPtr FloatLiteral(std::string text, ast::SourceSpan span) {
  auto lit = std::make_unique<ast::Literal>(span);
  lit->literal_kind = ast::Literal::Kind::kFloat;
  lit->text = std::move(text);
  return lit;
}

ast::ExprPtr NullLiteral(ast::SourceSpan span) {
  auto lit = std::make_unique<ast::Literal>(span);
  lit->literal_kind = ast::Literal::Kind::kNull;
  return lit;
}

ast::ExprPtr IsNull(ast::ExprPtr operand, bool negated, ast::SourceSpan span) {
  auto test = std::make_unique<ast::IsTest>(span);
  test->operand = std::move(operand);
  test->what = ast::IsTest::What::kNull;
  test->negated = negated;
  return test;
}

ast::ExprPtr IfThen(ast::ExprPtr condition, ast::ExprPtr then, ast::ExprPtr otherwise,
                    ast::SourceSpan span) {
  auto out = std::make_unique<ast::Case>(span);
  out->whens.push_back({std::move(condition), std::move(then)});
  out->else_result = std::move(otherwise);
  return out;
}

namespace {

ast::ExprPtr MakeCast(ast::ExprPtr operand, TypeKind kind, ast::SourceSpan span,
                      ast::Cast::Syntax syntax) {
  auto cast = std::make_unique<ast::Cast>(span);
  cast->operand = std::move(operand);
  cast->target = Type::Scalar(kind);
  cast->target_span = span;
  cast->syntax = syntax;
  return cast;
}

}  // namespace

ast::ExprPtr SafeCast(ast::ExprPtr operand, TypeKind kind, ast::SourceSpan span) {
  return MakeCast(std::move(operand), kind, span, ast::Cast::Syntax::kSafeCast);
}

ast::ExprPtr Cast(ast::ExprPtr operand, TypeKind kind, ast::SourceSpan span) {
  return MakeCast(std::move(operand), kind, span, ast::Cast::Syntax::kCast);
}

ast::ExprPtr Multiply(ast::ExprPtr left, ast::ExprPtr right, ast::SourceSpan span) {
  return Binary(ast::Binary::Op::kMul, std::move(left), std::move(right), span);
}

ast::ExprPtr Binary(ast::Binary::Op op, ast::ExprPtr left, ast::ExprPtr right,
                    ast::SourceSpan span) {
  auto bin = std::make_unique<ast::Binary>(span);
  bin->op = op;
  bin->op_span = span;
  bin->left = std::move(left);
  bin->right = std::move(right);
  return bin;
}

ast::ExprPtr Clone(const ast::Expr& e) {
  switch (e.kind) {
    case ast::NodeKind::kLiteral: {
      const auto& from = e.As<ast::Literal>();
      auto lit = std::make_unique<ast::Literal>(from.span);
      lit->literal_kind = from.literal_kind;
      lit->text = from.text;
      lit->bool_value = from.bool_value;
      lit->typed_kind = from.typed_kind;
      return lit;
    }
    case ast::NodeKind::kParam: {
      auto param = std::make_unique<ast::Param>(e.span);
      param->name = e.As<ast::Param>().name;
      return param;
    }
    case ast::NodeKind::kPath: {
      auto path = std::make_unique<ast::Path>(e.span);
      path->parts = e.As<ast::Path>().parts;
      return path;
    }
    case ast::NodeKind::kSubscript: {
      const auto& from = e.As<ast::Subscript>();
      auto base = Clone(*from.base);
      auto index = Clone(*from.index);
      if (!base || !index) return nullptr;
      auto sub = std::make_unique<ast::Subscript>(from.span);
      sub->base = std::move(base);
      sub->index = std::move(index);
      sub->mode = from.mode;
      return sub;
    }
    case ast::NodeKind::kUnary: {
      const auto& from = e.As<ast::Unary>();
      auto operand = Clone(*from.operand);
      if (!operand) return nullptr;
      auto u = std::make_unique<ast::Unary>(from.span);
      u->op = from.op;
      u->operand = std::move(operand);
      return u;
    }
    case ast::NodeKind::kInterval: {
      const auto& from = e.As<ast::Interval>();
      auto value = Clone(*from.value);
      if (!value) return nullptr;
      auto out = std::make_unique<ast::Interval>(from.span);
      out->value = std::move(value);
      out->unit = from.unit;
      return out;
    }
    case ast::NodeKind::kBinary: {
      const auto& from = e.As<ast::Binary>();
      auto left = Clone(*from.left);
      auto right = Clone(*from.right);
      if (!left || !right) return nullptr;
      return Binary(from.op, std::move(left), std::move(right), from.span);
    }
    case ast::NodeKind::kCast: {
      const auto& from = e.As<ast::Cast>();
      auto operand = Clone(*from.operand);
      if (!operand || from.format) return nullptr;
      auto cast = std::make_unique<ast::Cast>(from.span);
      cast->operand = std::move(operand);
      cast->target = from.target;
      cast->target_span = from.target_span;
      cast->syntax = from.syntax;
      return cast;
    }
    case ast::NodeKind::kCall: {
      const auto& from = e.As<ast::Call>();
      if (from.over || !from.order_by.empty() || from.limit || from.distinct) return nullptr;
      ast::ExprList args;
      for (const auto& a : from.args) {
        args.push_back(Clone(*a));
        if (!args.back()) return nullptr;
      }
      ast::ExprList parameters;
      for (const auto& p : from.parameters) {
        parameters.push_back(Clone(*p));
        if (!parameters.back()) return nullptr;
      }
      auto out = Call(from.name.name, from.span, std::move(args));
      out->As<ast::Call>().parameters = std::move(parameters);
      out->As<ast::Call>().star = from.star;
      out->As<ast::Call>().safe = from.safe;
      return out;
    }
    case ast::NodeKind::kCase: {
      const auto& from = e.As<ast::Case>();
      auto out = std::make_unique<ast::Case>(from.span);
      if (from.operand && !(out->operand = Clone(*from.operand))) return nullptr;
      for (const auto& w : from.whens) {
        auto condition = Clone(*w.condition);
        auto result = Clone(*w.result);
        if (!condition || !result) return nullptr;
        out->whens.push_back({std::move(condition), std::move(result)});
      }
      if (from.else_result && !(out->else_result = Clone(*from.else_result))) return nullptr;
      return out;
    }
    case ast::NodeKind::kIsTest: {
      const auto& from = e.As<ast::IsTest>();
      auto operand = Clone(*from.operand);
      if (!operand) return nullptr;
      auto out = std::make_unique<ast::IsTest>(from.span);
      out->operand = std::move(operand);
      out->what = from.what;
      out->negated = from.negated;
      return out;
    }
    case ast::NodeKind::kBetween: {
      const auto& from = e.As<ast::Between>();
      auto out = std::make_unique<ast::Between>(from.span);
      out->operand = Clone(*from.operand);
      out->low = Clone(*from.low);
      out->high = Clone(*from.high);
      if (!out->operand || !out->low || !out->high) return nullptr;
      out->negated = from.negated;
      return out;
    }
    case ast::NodeKind::kIn: {
      const auto& from = e.As<ast::In>();
      if (from.subquery || from.unnest_array) return nullptr;
      auto out = std::make_unique<ast::In>(from.span);
      out->operand = Clone(*from.operand);
      if (!out->operand) return nullptr;
      for (const auto& x : from.list) {
        out->list.push_back(Clone(*x));
        if (!out->list.back()) return nullptr;
      }
      out->negated = from.negated;
      return out;
    }
    case ast::NodeKind::kLike: {
      const auto& from = e.As<ast::Like>();
      auto out = std::make_unique<ast::Like>(from.span);
      out->operand = Clone(*from.operand);
      out->pattern = Clone(*from.pattern);
      if (!out->operand || !out->pattern) return nullptr;
      out->negated = from.negated;
      out->case_insensitive = from.case_insensitive;
      return out;
    }
    default:
      return nullptr;
  }
}

}  // namespace lqe::clickhouse
