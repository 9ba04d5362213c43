// Regular expression functions: RE2 patterns converted to PG's ARE (literal patterns here,
// parameter patterns by the gateway when it binds them). REGEXP_REPLACE replaces as RE2's
// GlobalReplace does (bq.regexp_replace); REGEXP_INSTR is bq.regexp_instr (migration 066).
#include "lqe/regex.h"
#include "pg/function_table.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

std::string Pattern(Emitter& e, const ast::Call& call, std::size_t i, int max_groups = -1) {
  const ast::Expr& arg = *call.args[i];
  if (arg.Is<ast::Param>()) return e.BindParam(arg.As<ast::Param>(), ParamTransform::kRegexPattern);
  if (!arg.Is<ast::Literal>() ||
      arg.As<ast::Literal>().literal_kind != ast::Literal::Kind::kString) {
    Fail(DiagCode::kUnsupported, arg.span,
         Upper(call.name.name) + " needs a literal or parameter pattern",
         "Patterns computed at run time cannot be checked and converted from RE2.");
  }
  const RegexConversion conv = ConvertRe2ToPosix(arg.As<ast::Literal>().text);
  if (!conv.error.empty()) {
    Fail(DiagCode::kUnsupported, arg.span, "unsupported regular expression: " + conv.error);
  }
  if (max_groups >= 0 && conv.capturing_groups > max_groups) {
    // BigQuery's own error for REGEXP_EXTRACT / REGEXP_EXTRACT_ALL.
    Fail(DiagCode::kType, arg.span,
         "Regular expressions passed into extraction functions must not have more than 1 "
         "capturing group");
  }
  return QuoteLiteral(conv.pattern);
}

std::string StringArg(Emitter& e, const ast::Call& call, std::size_t i) {
  const Value v = e.EmitExpr(*call.args[i]);
  if (!IsKind(v.type, K::kString) && !IsKind(v.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[i]->span,
         Upper(call.name.name) + " expects STRING, got " + TypeName(*v.type));
  }
  return v.sql;
}

}  // namespace

Value EmitRegexpContains(Emitter& e, const ast::Call& call) {
  const std::string s = StringArg(e, call, 0);
  return MakeValue("(" + s + " ~ " + Pattern(e, call, 1) + ")", K::kBool);
}

Value EmitRegexpExtract(Emitter& e, const ast::Call& call) {
  const std::string s = StringArg(e, call, 0);
  // regexp_match gives the first capture group, or the whole match when there is none.
  return MakeValue("(regexp_match(" + s + ", " + Pattern(e, call, 1, 1) + "))[1]", K::kString);
}

Value EmitRegexpExtractAll(Emitter& e, const ast::Call& call) {
  const std::string s = StringArg(e, call, 0);
  return MakeValue("ARRAY(SELECT _m[1] FROM regexp_matches(" + s + ", " + Pattern(e, call, 1, 1) +
                       ", 'g') AS _m)",
                   Type::Array(Type::Scalar(K::kString)));
}

Value EmitRegexpReplace(Emitter& e, const ast::Call& call) {
  const std::string s = StringArg(e, call, 0);
  const std::string pattern = Pattern(e, call, 1);
  std::string replacement;
  const ast::Expr& rep = *call.args[2];
  if (rep.Is<ast::Literal>() &&
      rep.As<ast::Literal>().literal_kind == ast::Literal::Kind::kString) {
    // RE2's \0 (whole match) is PG's \&; \1..\9 are the same.
    const std::string& r = rep.As<ast::Literal>().text;
    std::string out;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (r[i] == '\\' && i + 1 < r.size() && r[i + 1] == '0') {
        out += "\\&";
        ++i;
      } else if (r[i] == '\\' && i + 1 < r.size()) {
        out += r.substr(i, 2);
        ++i;
      } else {
        out += r[i];
      }
    }
    replacement = QuoteLiteral(out);
  } else {
    replacement = e.EmitExpr(rep).sql;
  }
  // RE2's global replace skips an empty match where the previous match ended (migrations 062,
  // 064); only a pattern that can match empty needs it, which PG decides at plan time for a
  // literal pattern, so the usual pattern costs nothing more than PG's own global replace.
  return MakeValue("(CASE WHEN bq.regexp_may_match_empty(" + pattern + ") THEN bq.regexp_replace(" +
                       s + ", " + pattern + ", " + replacement + ") ELSE regexp_replace(" + s +
                       ", " + pattern + ", " + replacement + ", 'g') END)",
                   K::kString);
}

Value EmitRegexpInstr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kString}, "STRING");
  const ast::Literal& lit = StringLiteralArg(call, 1, "pattern");
  const RegexConversion conv = ConvertRe2ToPosix(lit.text);
  if (!conv.error.empty()) {
    Fail(DiagCode::kUnsupported, lit.span, "unsupported regular expression: " + conv.error);
  }
  if (conv.capturing_groups > 1) {  // BigQuery's own error
    Fail(DiagCode::kType, lit.span,
         "Regular expressions passed into extraction functions must not have more than 1 "
         "capturing group");
  }
  return MakeValue("bq.regexp_instr(" + args[0].sql + ", " + QuoteLiteral(conv.pattern) + ", " +
                       BigintArgOr(call, args, 2, "1") + ", " + BigintArgOr(call, args, 3, "1") +
                       ", " + BigintArgOr(call, args, 4, "0") + ", " +
                       std::to_string(conv.capturing_groups) + ")",
                   K::kInt64);
}

}  // namespace lqe::pg
