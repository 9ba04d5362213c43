// ClickHouse string functions. position, positionCaseInsensitive and length count bytes, as
// ClickHouse does; lower, upper and positionCaseInsensitive change ASCII letters only; concat
// reads every argument as text and is NULL when one is NULL; substring follows ClickHouse's
// offsets (1-based, 0 gives '', a negative offset counts from the end, a negative length stops
// that many characters before the end), counting characters (the *UTF8 forms' unit, equal to
// ClickHouse's bytes on ASCII text); like / ilike / notLike / notILike are the operators.
#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions_internal.h"

namespace lqe::clickhouse {
namespace {

constexpr const char* kUpperAscii = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr const char* kLowerAscii = "abcdefghijklmnopqrstuvwxyz";

ast::ExprPtr Fn(std::string_view name, ast::SourceSpan span, ast::ExprPtr a,
                ast::ExprPtr b = nullptr, ast::ExprPtr c = nullptr) {
  ast::ExprList args;
  args.push_back(std::move(a));
  if (b) args.push_back(std::move(b));
  if (c) args.push_back(std::move(c));
  return Call(name, span, std::move(args));
}

ast::ExprPtr AsciiCase(ast::ExprPtr s, bool to_lower, ast::SourceSpan span) {
  return Fn("TRANSLATE", span, std::move(s),
            StringLiteral(to_lower ? kUpperAscii : kLowerAscii, span),
            StringLiteral(to_lower ? kLowerAscii : kUpperAscii, span));
}

// The byte position of needle in haystack (1-based, 0 when absent, NULL for NULL): the bytes
// before its first character position, plus one.
ast::ExprPtr BytePosition(const ast::Call& call, bool fold_case) {
  const ast::SourceSpan span = call.span;
  const auto arg = [&](std::size_t i) {
    auto e = CopyOf(call, i);
    return fold_case ? AsciiCase(std::move(e), true, span) : std::move(e);
  };
  const auto chars = [&] { return Fn("STRPOS", span, arg(0), arg(1)); };
  auto before = Fn("SUBSTR", span, arg(0), IntLiteral(1, span),
                   Binary(ast::Binary::Op::kSub, chars(), IntLiteral(1, span), span));
  auto out = std::make_unique<ast::Case>(span);
  if (!NeverNull(*call.args[0]) || !NeverNull(*call.args[1])) {
    out->whens.push_back({IsNull(chars(), false, span), NullLiteral(span)});
  }
  out->whens.push_back(
      {Binary(ast::Binary::Op::kEq, chars(), IntLiteral(0, span), span), IntLiteral(0, span)});
  out->else_result = Binary(ast::Binary::Op::kAdd, Fn("BYTE_LENGTH", span, std::move(before)),
                            IntLiteral(1, span), span);
  return out;
}

ast::ExprPtr MakeLike(ast::Call& call, bool negated, bool case_insensitive) {
  auto like = std::make_unique<ast::Like>(call.span);
  like->operand = std::move(call.args[0]);
  like->pattern = std::move(call.args[1]);
  like->negated = negated;
  like->case_insensitive = case_insensitive;
  return like;
}

ast::ExprPtr Add(ast::ExprPtr a, ast::ExprPtr b, ast::SourceSpan span) {
  return Binary(ast::Binary::Op::kAdd, std::move(a), std::move(b), span);
}
ast::ExprPtr Sub(ast::ExprPtr a, ast::ExprPtr b, ast::SourceSpan span) {
  return Binary(ast::Binary::Op::kSub, std::move(a), std::move(b), span);
}

}  // namespace

ast::ExprPtr LowerPosition(ast::Call& call) {
  return BytePosition(call, false);
}

ast::ExprPtr LowerPositionCaseInsensitive(ast::Call& call) {
  return BytePosition(call, true);
}

ast::ExprPtr LowerPositionUtf8(ast::Call& call) {
  return Call("STRPOS", call.span, std::move(call.args));
}

ast::ExprPtr LowerLower(ast::Call& call) {
  return AsciiCase(std::move(call.args[0]), true, call.span);
}

ast::ExprPtr LowerUpper(ast::Call& call) {
  return AsciiCase(std::move(call.args[0]), false, call.span);
}

ast::ExprPtr LowerConcat(ast::Call& call) {
  ast::ExprList args;
  for (auto& a : call.args) args.push_back(Cast(std::move(a), TypeKind::kString, call.span));
  return Call("CONCAT", call.span, std::move(args));
}

// substring(s, offset[, length]), with n = CHAR_LENGTH(s):
// start = offset > 0 ? offset - 1 : n + offset (0-based); end = no length: n, length >= 0:
// start + length, else n + length; the characters in [max(start, 0), min(end, n)); '' when
// offset is 0.
ast::ExprPtr LowerSubstring(ast::Call& call) {
  const ast::SourceSpan span = call.span;
  const auto n = [&] { return Fn("CHAR_LENGTH", span, CopyOf(call, 0)); };
  const auto start = [&] {
    return IfThen(Binary(ast::Binary::Op::kGt, CopyOf(call, 1), IntLiteral(0, span), span),
                  Sub(CopyOf(call, 1), IntLiteral(1, span), span), Add(n(), CopyOf(call, 1), span),
                  span);
  };
  ast::ExprPtr end;
  if (call.args.size() == 3) {
    end = IfThen(Binary(ast::Binary::Op::kGe, CopyOf(call, 2), IntLiteral(0, span), span),
                 Add(start(), CopyOf(call, 2), span), Add(n(), CopyOf(call, 2), span), span);
  } else {
    end = n();
  }
  const auto from = [&] { return Fn("GREATEST", span, start(), IntLiteral(0, span)); };
  auto length = Fn("GREATEST", span, Sub(Fn("LEAST", span, std::move(end), n()), from(), span),
                   IntLiteral(0, span));
  auto piece = Fn("SUBSTR", span, CopyOf(call, 0), Add(from(), IntLiteral(1, span), span),
                  std::move(length));
  return IfThen(Binary(ast::Binary::Op::kEq, CopyOf(call, 1), IntLiteral(0, span), span),
                IfThen(IsNull(std::move(call.args[0]), false, span), NullLiteral(span),
                       StringLiteral("", span), span),
                std::move(piece), span);
}

ast::ExprPtr LowerSubstringUtf8(ast::Call& call) {
  return LowerSubstring(call);
}

// length(s): bytes; length of an array literal or of groupArray(...): its elements.
ast::ExprPtr LowerLength(ast::Call& call) {
  const ast::Expr& arg = *call.args[0];
  const bool array = arg.Is<ast::ArrayCtor>() ||
                     (arg.Is<ast::Call>() && arg.As<ast::Call>().name.name == "ARRAY_AGG");
  return Call(array ? "ARRAY_LENGTH" : "BYTE_LENGTH", call.span, std::move(call.args));
}

ast::ExprPtr LowerLengthUtf8(ast::Call& call) {
  return Call("CHAR_LENGTH", call.span, std::move(call.args));
}

ast::ExprPtr LowerLike(ast::Call& call) {
  return MakeLike(call, false, false);
}
ast::ExprPtr LowerILike(ast::Call& call) {
  return MakeLike(call, false, true);
}
ast::ExprPtr LowerNotLike(ast::Call& call) {
  return MakeLike(call, true, false);
}
ast::ExprPtr LowerNotILike(ast::Call& call) {
  return MakeLike(call, true, true);
}

}  // namespace lqe::clickhouse
