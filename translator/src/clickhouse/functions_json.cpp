// ClickHouse's JSONExtract* and JSONHas over JSON text, by string keys (nested keys as further
// arguments). A missing key, JSON null or a value of another kind reads ClickHouse's default:
// '' for strings, 0 for numbers and booleans. Numbers in strings count ("13" is 13 for
// JSONExtractInt), as in ClickHouse; integers are truncated from floats.
#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions_internal.h"
#include "functions/internal_call.h"
#include "translate_error.h"

namespace lqe::clickhouse {
namespace {

using translator::Fail;

constexpr const char* kNumber = "^-?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$";
constexpr const char* kInteger = "^-?[0-9]+$";

// $."k1"."k2" from the key arguments (string literals).
std::string JsonPath(const ast::Call& call) {
  if (call.args.size() < 2) {
    Fail(DiagCode::kUnsupported, call.span, call.name.name + " needs at least one key");
  }
  std::string path = "$";
  for (std::size_t i = 1; i < call.args.size(); ++i) {
    const std::string& key = StringArg(call, i);
    for (const char c : key) {
      if (c == '"' || c == '\\') {
        Fail(DiagCode::kUnsupported, call.args[i]->span,
             call.name.name + " keys with quotes or backslashes are not supported");
      }
    }
    path += ".\"" + key + "\"";
  }
  return path;
}

// JSON_VALUE(json, path) or JSON_QUERY(json, path).
ast::ExprPtr Read(const ast::Call& call, std::string_view fn) {
  ast::ExprList args;
  args.push_back(CopyOf(call, 0));
  args.push_back(StringLiteral(JsonPath(call), call.span));
  return Call(fn, call.span, std::move(args));
}

ast::ExprPtr Matches(ast::ExprPtr s, const char* pattern, ast::SourceSpan span) {
  ast::ExprList args;
  args.push_back(std::move(s));
  args.push_back(StringLiteral(pattern, span));
  return Call("REGEXP_CONTAINS", span, std::move(args));
}

ast::ExprPtr Coalesce(ast::ExprPtr value, ast::ExprPtr fallback, ast::SourceSpan span) {
  ast::ExprList args;
  args.push_back(std::move(value));
  args.push_back(std::move(fallback));
  return Call("COALESCE", span, std::move(args));
}

// The call's value when its JSON argument is not NULL (ClickHouse: NULL in, NULL out).
ast::ExprPtr UnlessNull(ast::Call& call, ast::ExprPtr value) {
  return IfThen(IsNull(CopyOf(call, 0), false, call.span), NullLiteral(call.span), std::move(value),
                call.span);
}

}  // namespace

// The value's text for a scalar ('' for null and missing keys).
ast::ExprPtr LowerJsonExtractString(ast::Call& call) {
  const ast::SourceSpan span = call.span;
  return UnlessNull(call, Coalesce(Read(call, "JSON_VALUE"), StringLiteral("", span), span));
}

ast::ExprPtr LowerJsonExtractInt(ast::Call& call) {
  const ast::SourceSpan span = call.span;
  ast::ExprList trunc_args;
  trunc_args.push_back(SafeCast(Read(call, "JSON_VALUE"), TypeKind::kFloat64, span));
  auto out = std::make_unique<ast::Case>(span);
  out->whens.push_back({Matches(Read(call, "JSON_VALUE"), kInteger, span),
                        SafeCast(Read(call, "JSON_VALUE"), TypeKind::kInt64, span)});
  out->whens.push_back(
      {Matches(Read(call, "JSON_VALUE"), kNumber, span),
       SafeCast(Call("TRUNC", span, std::move(trunc_args)), TypeKind::kInt64, span)});
  return UnlessNull(call, Coalesce(std::move(out), IntLiteral(0, span), span));
}

ast::ExprPtr LowerJsonExtractFloat(ast::Call& call) {
  const ast::SourceSpan span = call.span;
  auto value =
      IfThen(Matches(Read(call, "JSON_VALUE"), kNumber, span),
             SafeCast(Read(call, "JSON_VALUE"), TypeKind::kFloat64, span), NullLiteral(span), span);
  return UnlessNull(call, Coalesce(std::move(value), FloatLiteral("0.0", span), span));
}

// true, or a non-zero number (not a string).
ast::ExprPtr LowerJsonExtractBool(ast::Call& call) {
  const ast::SourceSpan span = call.span;
  auto is_true =
      Binary(ast::Binary::Op::kEq, Read(call, "JSON_QUERY"), StringLiteral("true", span), span);
  auto non_zero = Binary(
      ast::Binary::Op::kAnd, Matches(Read(call, "JSON_QUERY"), kNumber, span),
      Binary(ast::Binary::Op::kNe, SafeCast(Read(call, "JSON_QUERY"), TypeKind::kFloat64, span),
             FloatLiteral("0.0", span), span),
      span);
  return UnlessNull(
      call, Coalesce(Binary(ast::Binary::Op::kOr, std::move(is_true), std::move(non_zero), span),
                     BoolLiteral(false, span), span));
}

// JSONExtractUInt: JSONExtractInt's number, 0 when negative.
ast::ExprPtr LowerJsonExtractUInt(ast::Call& call) {
  const ast::SourceSpan span = call.span;
  ast::ExprList args;
  args.push_back(LowerJsonExtractInt(call));
  args.push_back(IntLiteral(0, span));
  return Call("GREATEST", span, std::move(args));
}

// The value at the key path as ClickHouse writes it back (pg/internal_calls.cpp); '' for a
// missing key or text that is not JSON. No key: the whole document.
ast::ExprPtr LowerJsonExtractRaw(ast::Call& call) {
  for (std::size_t i = 1; i < call.args.size(); ++i) StringArg(call, i);
  return Call(functions::kJsonExtractRaw, call.span, std::move(call.args));
}

ast::ExprPtr LowerJsonHas(ast::Call& call) {
  return UnlessNull(call, IsNull(Read(call, "JSON_QUERY"), true, call.span));
}

}  // namespace lqe::clickhouse
