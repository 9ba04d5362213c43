// Expressions: the NodeKind switch, literals, parameters, operators, CASE and constructors.
#include <algorithm>
#include <cstdlib>

#include "pg/datetime_words.h"
#include "pg/emitter.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;

TypePtr T(TypeKind k) {
  return Type::Scalar(k);
}

Value Make(std::string sql, TypePtr type) {
  Value v;
  v.sql = std::move(sql);
  v.type = std::move(type);
  return v;
}

std::string CastTo(const std::string& sql, TypeKind k) {
  return "CAST(" + sql + " AS " + std::string(PgTypeName(k)) + ")";
}

}  // namespace

TypePtr CommonType(const TypePtr& a, const TypePtr& b) {
  if (!a || a->kind == TypeKind::kUnknown) return b ? b : a;
  if (!b || b->kind == TypeKind::kUnknown) return a;
  if (a->kind == b->kind) return a;
  if (a->IsNumeric() && b->IsNumeric()) {
    if (a->kind == TypeKind::kFloat64 || b->kind == TypeKind::kFloat64) {
      return T(TypeKind::kFloat64);
    }
    return T(TypeKind::kNumeric);
  }
  return a;
}

Value Emitter::EmitExpr(const ast::Expr& expr) {
  switch (expr.kind) {
    case ast::NodeKind::kLiteral:
      return EmitLiteral(expr.As<ast::Literal>());
    case ast::NodeKind::kParam:
      return EmitParam(expr.As<ast::Param>());
    case ast::NodeKind::kPath:
      return EmitPath(expr.As<ast::Path>());
    case ast::NodeKind::kFieldAccess:
      return EmitFieldAccess(expr.As<ast::FieldAccess>());
    case ast::NodeKind::kSubscript:
      return EmitSubscript(expr.As<ast::Subscript>());
    case ast::NodeKind::kUnary:
      return EmitUnary(expr.As<ast::Unary>());
    case ast::NodeKind::kBinary:
      return EmitBinary(expr.As<ast::Binary>());
    case ast::NodeKind::kIsTest:
      return EmitIsTest(expr.As<ast::IsTest>());
    case ast::NodeKind::kIn:
      return EmitIn(expr.As<ast::In>());
    case ast::NodeKind::kBetween:
      return EmitBetween(expr.As<ast::Between>());
    case ast::NodeKind::kLike:
      return EmitLike(expr.As<ast::Like>());
    case ast::NodeKind::kCase:
      return EmitCase(expr.As<ast::Case>());
    case ast::NodeKind::kCast:
      return EmitCast(expr.As<ast::Cast>());
    case ast::NodeKind::kExtract:
      return EmitExtract(expr.As<ast::Extract>());
    case ast::NodeKind::kInterval:
      return EmitInterval(expr.As<ast::Interval>());
    case ast::NodeKind::kCall:
      return EmitCall(expr.As<ast::Call>());
    case ast::NodeKind::kArrayCtor:
      return EmitArrayCtor(expr.As<ast::ArrayCtor>());
    case ast::NodeKind::kStructCtor:
      return EmitStructCtor(expr.As<ast::StructCtor>());
    case ast::NodeKind::kExists:
      return EmitExists(expr.As<ast::Exists>());
    case ast::NodeKind::kScalarSubquery:
      return EmitScalarSubquery(expr.As<ast::ScalarSubquery>());
    case ast::NodeKind::kQuery:
    case ast::NodeKind::kSelect:
    case ast::NodeKind::kSetOp:
    case ast::NodeKind::kTableRef:
    case ast::NodeKind::kJoin:
    case ast::NodeKind::kUnnestRef:
    case ast::NodeKind::kSubqueryRef:
      break;
  }
  Fail(DiagCode::kUnsupported, expr.span, "unsupported expression");
}

Value Emitter::EmitLiteral(const ast::Literal& lit) {
  using K = ast::Literal::Kind;
  switch (lit.literal_kind) {
    case K::kNull:
      return Make("NULL", T(TypeKind::kUnknown));
    case K::kBool:
      return Make(lit.bool_value ? "true" : "false", T(TypeKind::kBool));
    case K::kInt: {
      std::string digits = lit.text;
      if (digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X')) {
        digits = std::to_string(std::strtoull(digits.c_str() + 2, nullptr, 16));
      }
      Value v = Make(digits, T(TypeKind::kInt64));
      v.loose_int = true;
      return v;
    }
    case K::kFloat:
      return Make(lit.text + "::double precision", T(TypeKind::kFloat64));
    case K::kString:
      return Make(QuoteLiteral(lit.text), T(TypeKind::kString));
    case K::kBytes: {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string hex;
      for (unsigned char c : lit.text) {
        hex += kHex[c >> 4];
        hex += kHex[c & 15];
      }
      return Make("decode('" + hex + "', 'hex')", T(TypeKind::kBytes));
    }
    case K::kTyped: {
      if (lit.typed_kind == TypeKind::kUnknown || lit.typed_kind == TypeKind::kInterval) {
        Fail(DiagCode::kUnsupported, lit.span, "unsupported typed literal");
      }
      RefuseSpecialDateTimeLiteral(lit, lit.typed_kind, lit.span);
      return Make(CastTo(QuoteLiteral(lit.text), lit.typed_kind), T(lit.typed_kind));
    }
  }
  Fail(DiagCode::kUnsupported, lit.span, "unsupported literal");
}

std::string Emitter::BindParam(const ast::Param& param, ParamTransform transform) {
  auto it = options_.params.find(param.name);
  if (it == options_.params.end()) {
    for (auto i = options_.params.begin(); i != options_.params.end(); ++i) {
      if (names::EqualsIgnoreCase(i->first, param.name)) it = i;
    }
  }
  if (it == options_.params.end()) {
    std::string declared;
    std::vector<std::string> names;
    for (const auto& [name, type] : options_.params) {
      declared += (declared.empty() ? "@" : ", @") + name;
      names.push_back(name);
    }
    std::string hint = declared.empty() ? "This query declares no parameters."
                                        : "Declared parameters: " + declared + ".";
    const std::string close = names::Suggest(param.name, names);
    if (!close.empty()) hint = "Did you mean @" + close + "? " + hint;
    Fail(DiagCode::kUnknownName, param.span, "unknown parameter @" + param.name, hint);
  }
  const auto key = std::make_pair(it->first, transform);
  auto [pos, inserted] = param_index_.emplace(key, params_.size() + 1);
  if (inserted) params_.push_back({it->first, it->second, transform});
  reads_.params.insert(pos->second);
  const TypePtr& type = it->second;
  const std::string pg_type = type ? PgStorageType(*type) : "text";
  return "$" + std::to_string(pos->second) + "::" + pg_type;
}

Value Emitter::EmitParam(const ast::Param& param) {
  const std::string sql = BindParam(param, ParamTransform::kNone);
  for (const auto& p : params_) {
    if (names::EqualsIgnoreCase(p.name, param.name)) {
      Value v = Make(sql, p.type ? p.type : T(TypeKind::kString));
      v.json_array = false;
      return v;
    }
  }
  return Make(sql, T(TypeKind::kString));
}

Value Emitter::EmitUnary(const ast::Unary& unary) {
  Value v = EmitExpr(*unary.operand);
  switch (unary.op) {
    case ast::Unary::Op::kNot:
      return Make("(NOT " + v.sql + ")", T(TypeKind::kBool));
    case ast::Unary::Op::kNegate:
      v.sql = "(- " + v.sql + ")";
      return v;
    case ast::Unary::Op::kPlus:
      return v;
    case ast::Unary::Op::kBitNot:
      v.sql = "(~ " + v.sql + ")";
      return v;
  }
  return v;
}

Value Emitter::EmitIsTest(const ast::IsTest& test) {
  const Value v = EmitExpr(*test.operand);
  static constexpr const char* kWhat[] = {"NULL", "TRUE", "FALSE", "UNKNOWN"};
  return Make(
      "(" + v.sql + (test.negated ? " IS NOT " : " IS ") + kWhat[static_cast<int>(test.what)] + ")",
      T(TypeKind::kBool));
}

Value Emitter::EmitBetween(const ast::Between& between) {
  const Value v = EmitExpr(*between.operand);
  const Value lo = EmitExpr(*between.low);
  const Value hi = EmitExpr(*between.high);
  CheckComparable(v, lo, "BETWEEN", between.low->span);
  CheckComparable(v, hi, "BETWEEN", between.high->span);
  if (v.type) {
    RefuseSpecialDateTimeLiteral(*between.low, v.type->kind, between.low->span);
    RefuseSpecialDateTimeLiteral(*between.high, v.type->kind, between.high->span);
  }
  const bool strings = IsKind(v.type, TypeKind::kString) &&
                       !IsKind(lo.type, TypeKind::kTimestamp) &&
                       (IsKind(lo.type, TypeKind::kString) || IsKind(lo.type, TypeKind::kUnknown));
  const std::string collate = strings ? " COLLATE \"C\"" : "";
  return Make("(" + v.sql + collate + (between.negated ? " NOT BETWEEN " : " BETWEEN ") + lo.sql +
                  " AND " + hi.sql + ")",
              T(TypeKind::kBool));
}

Value Emitter::EmitLike(const ast::Like& like) {
  const Value v = EmitExpr(*like.operand);
  const Value p = EmitExpr(*like.pattern);
  const char* op = like.case_insensitive ? (like.negated ? " NOT ILIKE " : " ILIKE ")
                                         : (like.negated ? " NOT LIKE " : " LIKE ");
  Value out = Make("(" + v.sql + op + p.sql + ")", T(TypeKind::kBool));
  if (like.pattern->Is<ast::Literal>() || like.pattern->Is<ast::Param>()) {
    out.implied = RowImpliedByMatch(v, out.sql);
    out.implied_for = out.sql;
  }
  return out;
}

Value Emitter::EmitIn(const ast::In& in) {
  const Value v = EmitExpr(*in.operand);
  const std::string op = in.negated ? " NOT IN " : " IN ";
  if (in.subquery) {
    QueryOut q = EmitQuery(*in.subquery, false);
    return Make("(" + v.sql + op + "(" + q.sql + "))", T(TypeKind::kBool));
  }
  if (in.unnest_array) {
    const Value a = EmitExpr(*in.unnest_array);
    if (!IsKind(a.type, TypeKind::kArray)) {
      Fail(DiagCode::kType, in.unnest_array->span, "IN UNNEST needs an array");
    }
    if (!a.json_array) {
      return Make(std::string(in.negated ? "(NOT " : "(") + v.sql + " = ANY(" + a.sql + "))",
                  T(TypeKind::kBool));
    }
    const Value e = FromJson("_e.value", a.type->element, "");
    return Make("(" + v.sql + op + "(SELECT " + e.sql +
                    " FROM jsonb_array_elements(bq.json_array(" + a.sql + ")) AS _e(value)))",
                T(TypeKind::kBool));
  }
  std::string list;
  for (const auto& e : in.list) {
    const Value item = EmitExpr(*e);
    CheckComparable(v, item, "IN", e->span);
    if (v.type) RefuseSpecialDateTimeLiteral(*e, v.type->kind, e->span);
    list += (list.empty() ? "" : ", ") + item.sql;
  }
  return Make("(" + v.sql + op + "(" + list + "))", T(TypeKind::kBool));
}

Value Emitter::EmitCase(const ast::Case& c) {
  std::string sql = "CASE";
  if (c.operand) sql += " " + EmitExpr(*c.operand).sql;
  TypePtr type;
  bool loose = true;
  for (const auto& w : c.whens) {
    const std::string cond =
        c.operand ? EmitExpr(*w.condition).sql : EmitBool(*w.condition, "WHEN");
    const Value r = EmitExpr(*w.result);
    type = CommonType(type, r.type);
    loose = loose && (r.loose_int || r.sql == "NULL");
    sql += " WHEN " + cond + " THEN " + r.sql;
  }
  if (c.else_result) {
    const Value r = EmitExpr(*c.else_result);
    type = CommonType(type, r.type);
    loose = loose && (r.loose_int || r.sql == "NULL");
    sql += " ELSE " + r.sql;
  }
  Value v = Make(sql + " END", type ? type : T(TypeKind::kUnknown));
  v.loose_int = loose && IsKind(v.type, TypeKind::kInt64);
  return v;
}

Value Emitter::EmitInterval(const ast::Interval& interval) {
  struct Unit {
    std::string_view bq;
    std::string_view pg;
    int factor;
  };
  static constexpr Unit kUnits[] = {{"MICROSECOND", "microsecond", 1},
                                    {"MILLISECOND", "millisecond", 1},
                                    {"SECOND", "second", 1},
                                    {"MINUTE", "minute", 1},
                                    {"HOUR", "hour", 1},
                                    {"DAY", "day", 1},
                                    {"WEEK", "week", 1},
                                    {"MONTH", "month", 1},
                                    {"QUARTER", "month", 3},
                                    {"YEAR", "year", 1}};
  const Unit* unit = nullptr;
  for (const auto& u : kUnits) {
    if (names::EqualsIgnoreCase(u.bq, interval.unit.name)) unit = &u;
  }
  if (!unit) {
    Fail(DiagCode::kUnsupported, interval.unit.span,
         "unsupported interval unit " + interval.unit.name);
  }
  const Value n = EmitExpr(*interval.value);
  if (!IsKind(n.type, TypeKind::kInt64)) {
    Fail(DiagCode::kType, interval.value->span, "INTERVAL expects an INT64 value");
  }
  const std::string pg_unit(unit->pg);
  if (interval.value->Is<ast::Literal>() && n.sql.size() < 15) {
    const long long count = std::stoll(n.sql) * unit->factor;
    return Make("interval '" + std::to_string(count) + " " + pg_unit + "'", T(TypeKind::kInterval));
  }
  return Make("(" + n.sql + " * interval '" + std::to_string(unit->factor) + " " + pg_unit + "')",
              T(TypeKind::kInterval));
}

Value Emitter::EmitArrayCtor(const ast::ArrayCtor& ctor) {
  if (ctor.subquery) {
    QueryOut q = EmitQuery(*ctor.subquery, false);
    if (q.columns.size() != 1) {
      Fail(DiagCode::kType, ctor.span, "ARRAY subquery must return one column");
    }
    return Make("ARRAY(" + q.sql + ")", Type::Array(q.columns[0].type));
  }
  TypePtr elem = ctor.element_type;
  std::string list;
  for (const auto& e : ctor.elements) {
    const bool renamed = e->Is<ast::StructCtor>() && elem && IsKind(elem, TypeKind::kRecord);
    const Value v = renamed ? EmitStructCtor(e->As<ast::StructCtor>(), elem.get()) : EmitExpr(*e);
    if (!ctor.element_type) elem = CommonType(elem, v.type);
    list += (list.empty() ? "" : ", ") + v.sql;
  }
  if (!elem) elem = T(TypeKind::kInt64);
  std::string sql = "ARRAY[" + list + "]";
  if (ctor.elements.empty() || ctor.element_type) {
    sql += "::" + std::string(PgTypeName(elem->kind)) + "[]";
  }
  return Make(sql, Type::Array(elem));
}

Value Emitter::EmitStructCtor(const ast::StructCtor& ctor, const Type* names_from) {
  if (names_from && names_from->fields.size() != ctor.fields.size()) names_from = nullptr;
  std::vector<StructField> fields;
  std::string args;
  for (std::size_t i = 0; i < ctor.fields.size(); ++i) {
    const auto& f = ctor.fields[i];
    const Value v = EmitExpr(*f.value);
    std::string name;
    if (ctor.declared_type && i < ctor.declared_type->fields.size()) {
      name = ctor.declared_type->fields[i].name;
    } else if (names_from) {
      name = names_from->fields[i].name;
    } else if (f.alias) {
      name = f.alias->name;
    } else if (f.value->Is<ast::Path>()) {
      name = f.value->As<ast::Path>().parts.back().name;
    } else {
      name = "_field_" + std::to_string(i + 1);
    }
    fields.push_back({name, v.type ? v.type : T(TypeKind::kUnknown)});
    // A quoted literal is of unknown type to jsonb_build_object: it is text.
    const bool quoted = !v.sql.empty() && (v.sql[0] == '\'' || v.sql.rfind("E'", 0) == 0);
    args += (args.empty() ? "" : ", ") + QuoteLiteral(name) + ", " +
            (quoted && IsKind(v.type, TypeKind::kString) ? "(" + v.sql + ")::text" : v.sql);
  }
  return Make("jsonb_build_object(" + args + ")", Type::Record(std::move(fields)));
}

namespace {

// EXISTS over a plain filter of rows (no grouping, aggregates or WITH): true only when a row
// passes its WHERE, so the conditions that WHERE implies on an outer row hold for EXISTS too.
bool FiltersOnly(const ast::Query& q) {
  if (!q.with.empty() || !q.order_by.empty() || !q.body || !q.body->Is<ast::Select>()) {
    return false;
  }
  const auto& s = q.body->As<ast::Select>();
  if (!s.group_by.empty() || s.having || s.qualify || !s.windows.empty()) return false;
  return std::all_of(s.items.begin(), s.items.end(), [](const ast::SelectItem& item) {
    return item.kind == ast::SelectItem::Kind::kStar ||
           (item.kind == ast::SelectItem::Kind::kExpr && item.expr->Is<ast::Literal>());
  });
}

}  // namespace

Value Emitter::EmitExists(const ast::Exists& exists) {
  lifted_implied_.clear();
  Value v = Make("EXISTS (" + EmitQuery(*exists.subquery, false).sql + ")", T(TypeKind::kBool));
  if (FiltersOnly(*exists.subquery)) {
    v.implied = std::move(lifted_implied_);
    v.implied_for = v.sql;
  }
  lifted_implied_.clear();
  return v;
}

Value Emitter::EmitScalarSubquery(const ast::ScalarSubquery& sub) {
  QueryOut q = EmitQuery(*sub.subquery, false);
  if (q.columns.size() != 1) {
    Fail(DiagCode::kType, sub.span, "scalar subquery must return one column");
  }
  Value v = Make("(" + q.sql + ")", q.columns[0].type);
  v.json_array = q.columns[0].json_array;
  return v;
}

}  // namespace lqe::pg
