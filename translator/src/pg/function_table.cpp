// The call dispatcher: checks a call against its row of functions/function_list.def (arity,
// kind, modifiers) and runs the row's emitter.
#include "pg/function_table.h"

#include <algorithm>
#include <unordered_map>

#include "functions/internal_call.h"
#include "lqe/base/ascii.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using functions::Arity;
using translator::Fail;

constexpr EmitFn kEmitters[] = {
#define LQE_FUNCTION(name, min, max, kind, safe_ok, emitter) emitter,
#include "functions/function_list.def"
#undef LQE_FUNCTION
};

std::string ArityText(Arity a) {
  if (a.max < 0) return "at least " + std::to_string(a.min);
  if (a.min == a.max) return std::to_string(a.min);
  return std::to_string(a.min) + " to " + std::to_string(a.max);
}

}  // namespace

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) { return ascii::ToUpper(c); });
  return out;
}

std::string LowerName(const ast::Call& call) {
  return ascii::Lower(call.name.name);
}

TypeKind KindOf(const Value& v) {
  return v.type ? v.type->kind : TypeKind::kUnknown;
}

void RequireArg(const ast::Call& call, const std::vector<Value>& args, std::size_t i,
                std::initializer_list<TypeKind> kinds, std::string_view what) {
  const TypeKind k = KindOf(args[i]);
  if (k == TypeKind::kUnknown) return;  // NULL
  for (const TypeKind ok : kinds) {
    if (k == ok) return;
  }
  translator::Fail(
      DiagCode::kType, call.args[i]->span,
      Upper(call.name.name) + " expects " + std::string(what) + ", got " + TypeName(*args[i].type));
}

void RequireNumberArgs(const ast::Call& call, const std::vector<Value>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    RequireArg(call, args, i, {TypeKind::kInt64, TypeKind::kFloat64, TypeKind::kNumeric},
               "a number");
  }
}

TypePtr Common(const std::vector<Value>& args, std::size_t from) {
  TypePtr t;
  for (std::size_t i = from; i < args.size(); ++i) t = CommonType(t, args[i].type);
  return t ? t : Type::Scalar(TypeKind::kUnknown);
}

Value Typed(std::string sql, const std::vector<Value>& args, std::size_t from) {
  Value v = MakeValue(std::move(sql), Common(args, from));
  bool loose = true;
  bool json_array = false;
  for (std::size_t i = from; i < args.size(); ++i) {
    loose = loose && (args[i].loose_int || args[i].sql == "NULL");
    json_array = json_array || args[i].json_array;
  }
  v.loose_int = loose && IsKind(v.type, TypeKind::kInt64);
  v.json_array = json_array;
  return v;
}

std::string AsBigint(const Value& v) {
  return "(" + v.sql + ")::bigint";
}

std::string AsDouble(const Value& v) {
  return "(" + v.sql + ")::double precision";
}

std::string BigintArgOr(const ast::Call& call, const std::vector<Value>& args, std::size_t i,
                        std::string_view fallback) {
  if (i >= args.size()) return std::string(fallback);
  RequireArg(call, args, i, {TypeKind::kInt64}, "INT64");
  return AsBigint(args[i]);
}

EmitFn EmitterFor(const functions::Signature& f) {
  return kEmitters[f.index];
}

Value Emitter::EmitCall(const ast::Call& call) {
  if (functions::IsInternalCall(call)) return EmitInternalCall(*this, call);
  const functions::Signature* f = functions::Find(call.name.name);
  const std::string name = Upper(call.name.name);
  if (!f) {
    Fail(DiagCode::kUnsupported, call.name.span, "unsupported function " + name,
         functions::UnsupportedHint(name));
  }
  const int n = static_cast<int>(call.args.size()) + (call.star ? 1 : 0);
  if (n < f->arity.min || (f->arity.max >= 0 && n > f->arity.max)) {
    Fail(DiagCode::kType, call.span,
         "function " + name + " expects " + ArityText(f->arity) + " argument" +
             (f->arity.min == 1 && f->arity.max == 1 ? "" : "s") + ", got " + std::to_string(n));
  }
  if (call.star && name != "COUNT") {
    Fail(DiagCode::kSyntax, call.span, "only COUNT accepts *");
  }
  if (call.safe && !f->safe_ok) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported SAFE. prefix on " + name);
  }
  const bool agg_modifiers = call.distinct || !call.order_by.empty() || call.limit ||
                             call.null_handling != ast::Call::NullHandling::kDefault;
  if (agg_modifiers && f->kind != FnKind::kAggregate) {
    Fail(DiagCode::kUnsupported, call.span,
         "unsupported DISTINCT, ORDER BY, LIMIT or NULLS modifier in " + name);
  }
  // PostgreSQL has no DISTINCT, ORDER BY or LIMIT inside a window aggregate (it would fail
  // with 0A000), so these are refused here, pointing at the modifier.
  if (call.over && call.distinct) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported DISTINCT in analytic " + name,
         "Aggregate the distinct values in a subquery, then join or window over that.");
  }
  if (call.over && !call.order_by.empty()) {
    Fail(DiagCode::kUnsupported, call.order_by.front().expr->span,
         "unsupported ORDER BY inside analytic " + name,
         "Order the rows in the OVER clause instead: OVER (... ORDER BY ...).");
  }
  if (call.over && call.limit) {
    Fail(DiagCode::kUnsupported, call.limit->span, "unsupported LIMIT in analytic " + name);
  }
  if (call.over && f->kind == FnKind::kScalar) {
    Fail(DiagCode::kSyntax, call.span, name + " is not an analytic function");
  }
  if (!call.over && f->kind == FnKind::kWindow) {
    Fail(DiagCode::kSyntax, call.span, name + " needs an OVER clause");
  }
  if (call.over || f->kind != FnKind::kScalar) ++grouped_calls_;
  Value v = EmitterFor(*f)(*this, call);
  if ((name == "REGEXP_CONTAINS" || name == "STARTS_WITH" || name == "ENDS_WITH") &&
      call.args.size() == 2 && !call.safe &&
      (call.args[0]->Is<ast::Path>() || call.args[0]->Is<ast::FieldAccess>()) &&
      (call.args[1]->Is<ast::Literal>() || call.args[1]->Is<ast::Param>())) {
    // A match on a promoted element field (reading a path again has no side effects).
    v.implied = RowImpliedByMatch(EmitExpr(*call.args[0]), v.sql);
    v.implied_for = v.sql;
  }
  return v;
}

std::vector<Value> EmitArgs(Emitter& e, const ast::Call& call) {
  std::vector<Value> out;
  out.reserve(call.args.size());
  for (const auto& a : call.args) out.push_back(e.EmitExpr(*a));
  return out;
}

std::string JoinSql(const std::vector<Value>& args, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < args.size(); ++i) out += (i > from ? ", " : "") + args[i].sql;
  return out;
}

Value MakeValue(std::string sql, TypeKind kind) {
  return MakeValue(std::move(sql), Type::Scalar(kind));
}

Value MakeValue(std::string sql, TypePtr type) {
  Value v;
  v.sql = std::move(sql);
  v.type = std::move(type);
  return v;
}

std::string Over(Emitter& e, const ast::Call& call) {
  if (!call.over) return "";
  const ast::WindowSpec& w = *call.over;
  // OVER w names the window; PG refuses OVER (w) when w has a frame.
  if (w.base_name && w.partition_by.empty() && w.order_by.empty() && !w.frame) {
    return " OVER " + e.EmitWindowSpec(w);
  }
  return " OVER (" + e.EmitWindowSpec(w) + ")";
}

DatePart ReadDatePart(const ast::Expr& arg) {
  static constexpr std::string_view kDays[] = {"SUNDAY",   "MONDAY", "TUESDAY", "WEDNESDAY",
                                               "THURSDAY", "FRIDAY", "SATURDAY"};
  if (arg.Is<ast::Path>() && arg.As<ast::Path>().parts.size() == 1) {
    return {Upper(arg.As<ast::Path>().parts[0].name), -1};
  }
  if (arg.Is<ast::Call>() && arg.As<ast::Call>().args.size() == 1 &&
      Upper(arg.As<ast::Call>().name.name) == "WEEK") {
    const auto& day = *arg.As<ast::Call>().args[0];
    if (day.Is<ast::Path>() && day.As<ast::Path>().parts.size() == 1) {
      const std::string d = Upper(day.As<ast::Path>().parts[0].name);
      for (int i = 0; i < 7; ++i) {
        if (kDays[i] == d) return {"WEEK", i};
      }
    }
    Fail(DiagCode::kSyntax, day.span, "WEEK(...) expects a weekday such as MONDAY");
  }
  Fail(DiagCode::kSyntax, arg.span, "expected a date part such as DAY or HOUR");
}

const ast::Literal& StringLiteralArg(const ast::Call& call, std::size_t i, std::string_view what) {
  const ast::Expr& arg = *call.args[i];
  if (!arg.Is<ast::Literal>() ||
      arg.As<ast::Literal>().literal_kind != ast::Literal::Kind::kString) {
    Fail(DiagCode::kUnsupported, arg.span,
         Upper(call.name.name) + " needs a literal " + std::string(what));
  }
  return arg.As<ast::Literal>();
}

}  // namespace lqe::pg
