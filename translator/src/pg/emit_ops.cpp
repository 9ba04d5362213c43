// Binary operators and casts, with BigQuery's typing (INT64 / INT64 is FLOAT64, byte-wise string
// order) and SAFE_CAST's NULL on failure.
#include "ast/row_free.h"
#include "pg/datetime_words.h"
#include "pg/emitter.h"
#include "pg/quoting.h"
#include "pg/text_render.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using Op = ast::Binary::Op;

Value Make(std::string sql, TypePtr type) {
  Value v;
  v.sql = std::move(sql);
  v.type = std::move(type);
  return v;
}

// PostgreSQL spells two operators differently from BigQuery; the rest are the same.
std::string_view OpText(Op op) {
  switch (op) {
    case Op::kNe:
      return "<>";
    case Op::kBitXor:
      return "#";
    default:
      return ast::BinaryOpText(op);
  }
}

bool IsComparison(Op op) {
  return op == Op::kEq || op == Op::kNe || op == Op::kLt || op == Op::kLe || op == Op::kGt ||
         op == Op::kGe || op == Op::kIsDistinctFrom || op == Op::kIsNotDistinctFrom;
}

bool IsTimeKind(const TypePtr& t) {
  return IsKind(t, TypeKind::kTimestamp) || IsKind(t, TypeKind::kDatetime) ||
         IsKind(t, TypeKind::kDate);
}

TypePtr ArithmeticType(Op op, const Value& l, const Value& r) {
  if (IsTimeKind(l.type) && IsKind(r.type, TypeKind::kInterval)) {
    return IsKind(l.type, TypeKind::kDate) ? Type::Scalar(TypeKind::kDatetime) : l.type;
  }
  if (IsKind(l.type, TypeKind::kInterval) && IsTimeKind(r.type)) return r.type;
  if (op == Op::kSub && IsTimeKind(l.type) && IsTimeKind(r.type)) {
    return IsKind(l.type, TypeKind::kDate) ? Type::Scalar(TypeKind::kInt64)
                                           : Type::Scalar(TypeKind::kInterval);
  }
  return CommonType(l.type, r.type);
}

bool IsNumber(TypeKind k) {
  return k == TypeKind::kInt64 || k == TypeKind::kFloat64 || k == TypeKind::kNumeric;
}

bool IsCivilOrInstant(TypeKind k) {
  return k == TypeKind::kTimestamp || k == TypeKind::kDatetime || k == TypeKind::kDate ||
         k == TypeKind::kTime;
}

// BigQuery has no comparison between these kinds (STRING = INT64 is "No matching signature");
// PG would either fail at run time or compare text. Kinds the emitter does not model exactly
// (NULL, JSON, records, arrays) are left alone, and STRING against a date or time kind is
// allowed because literals and lqe's text parameters coerce.
bool Incomparable(TypeKind a, TypeKind b) {
  if (a == b || a == TypeKind::kUnknown || b == TypeKind::kUnknown) return false;
  auto modelled = [](TypeKind k) {
    return IsNumber(k) || IsCivilOrInstant(k) || k == TypeKind::kString || k == TypeKind::kBool ||
           k == TypeKind::kBytes;
  };
  if (!modelled(a) || !modelled(b)) return false;
  if (IsNumber(a) && IsNumber(b)) return false;
  if ((a == TypeKind::kString && IsCivilOrInstant(b)) ||
      (b == TypeKind::kString && IsCivilOrInstant(a))) {
    return false;
  }
  if (IsCivilOrInstant(a) && IsCivilOrInstant(b)) return false;  // DATE widens to DATETIME
  return true;
}

// A FLOAT64 that may be NaN: anything but a finite float literal (1.5::double precision).
bool MayBeNan(const Value& v) {
  if (!IsKind(v.type, TypeKind::kFloat64)) return false;
  constexpr std::string_view kSuffix = "::double precision";
  const std::string& s = v.sql;
  if (s.size() <= kSuffix.size() || s.compare(s.size() - kSuffix.size(), kSuffix.size(), kSuffix)) {
    return true;
  }
  return s.find_first_not_of("0123456789.eE+-") < s.size() - kSuffix.size();
}

// BigQuery's NaN compares unequal to everything, itself included, and neither below nor above
// anything; PostgreSQL's NaN equals itself and sorts above every number. `plain` is the PG
// comparison, kept when no side can be NaN.
std::string NanAwareComparison(Op op, const Value& l, const Value& r, const std::string& plain) {
  const bool l_nan = MayBeNan(l);
  const bool r_nan = MayBeNan(r);
  auto when = [&plain](const Value& nan_side, const Value& other, const char* result) {
    // A number literal on the other side is never NULL.
    const bool literal =
        other.loose_int || (IsKind(other.type, TypeKind::kFloat64) && !MayBeNan(other));
    return "(CASE WHEN " + nan_side.sql + " = 'NaN'::double precision" +
           (literal ? "" : " AND " + other.sql + " IS NOT NULL") + " THEN " + result + " ELSE " +
           plain + " END)";
  };
  switch (op) {
    case Op::kEq:
      return l_nan && r_nan ? when(l, r, "false") : plain;
    case Op::kNe:
      return l_nan && r_nan ? when(l, r, "true") : plain;
    case Op::kLt:
    case Op::kLe:
      return r_nan ? when(r, l, "false") : plain;
    case Op::kGt:
    case Op::kGe:
      return l_nan ? when(l, r, "false") : plain;
    default:
      return plain;
  }
}

// Row conditions implied by `field op other` when `field` is an element field promoted as the
// row's min/max columns and `other` a literal or parameter of a comparable kind: an element
// above v means the row's highest value is above v, and so on. Strings compare byte-wise, as
// the columns are collated "C".
std::vector<std::pair<std::string, std::string>> RowImplied(Op op, const Value& field,
                                                            const Value& other) {
  const TypeKind a = field.type ? field.type->kind : TypeKind::kUnknown;
  const TypeKind b = other.type ? other.type->kind : TypeKind::kUnknown;
  const bool comparable = (IsNumber(a) && IsNumber(b)) ||
                          (a == TypeKind::kString && b == TypeKind::kString) ||
                          (a == TypeKind::kBool && b == TypeKind::kBool);
  if (!comparable || field.row_min.empty()) return {};
  const std::string row = field.row_min.substr(0, field.row_min.rfind('.'));
  const std::string v = other.sql;
  switch (op) {
    case Op::kGt:
    case Op::kGe:
      return {{row, "(" + field.row_max + " " + std::string(OpText(op)) + " " + v + ")"}};
    case Op::kLt:
    case Op::kLe:
      return {{row, "(" + field.row_min + " " + std::string(OpText(op)) + " " + v + ")"}};
    case Op::kEq:
      return {{row, "(" + field.row_min + " <= " + v + ")"},
              {row, "(" + field.row_max + " >= " + v + ")"}};
    default:
      return {};
  }
}

Op Mirrored(Op op) {
  switch (op) {
    case Op::kLt:
      return Op::kGt;
    case Op::kLe:
      return Op::kGe;
    case Op::kGt:
      return Op::kLt;
    case Op::kGe:
      return Op::kLe;
    default:
      return op;
  }
}

bool IsConstant(const ast::Expr& e) {
  return e.Is<ast::Literal>() || e.Is<ast::Param>();
}

}  // namespace

void CheckComparable(const Value& l, const Value& r, std::string_view op, ast::SourceSpan span) {
  const TypeKind a = l.type ? l.type->kind : TypeKind::kUnknown;
  const TypeKind b = r.type ? r.type->kind : TypeKind::kUnknown;
  if (!Incomparable(a, b)) return;
  Fail(DiagCode::kType, span,
       "No matching signature for operator " + std::string(op) +
           " for argument types: " + TypeName(*l.type) + ", " + TypeName(*r.type),
       a == TypeKind::kString || b == TypeKind::kString
           ? "Cast one side, e.g. CAST(x AS INT64) or CAST(x AS STRING)."
           : "");
}

Value Emitter::EmitBinary(const ast::Binary& b) {
  const Value l_raw = EmitExpr(*b.left);
  const Value r_raw = EmitExpr(*b.right);
  const Value& l = l_raw;
  const Value& r = r_raw;
  const std::string op(OpText(b.op));
  if (b.op == Op::kAnd || b.op == Op::kOr) {
    for (const Value* side : {&l, &r}) {
      if (side->type && side->type->kind != TypeKind::kBool &&
          side->type->kind != TypeKind::kUnknown) {
        Fail(DiagCode::kType, b.op_span,
             op + " expects BOOL operands, got " + TypeName(*side->type));
      }
    }
    Value v = Make("(" + l.sql + " " + op + " " + r.sql + ")", Type::Scalar(TypeKind::kBool));
    if (b.op == Op::kAnd) {
      v.implied = ImpliedOf(l);
      const auto right = ImpliedOf(r);
      v.implied.insert(v.implied.end(), right.begin(), right.end());
      v.implied_for = v.sql;
    }
    return v;
  }
  if (IsComparison(b.op)) {
    CheckComparable(l, r, ast::BinaryOpText(b.op), b.op_span);
    // A STRING (a literal or a text parameter) against a date or time kind reads as that kind.
    auto coerced = [](const Value& side, const ast::Expr& side_expr, const Value& other) {
      const TypeKind k = other.type ? other.type->kind : TypeKind::kUnknown;
      if (!IsKind(side.type, TypeKind::kString) || !IsCivilOrInstant(k)) return side;
      RefuseSpecialDateTimeLiteral(side_expr, k, side_expr.span);
      Value v = side;
      v.sql = "CAST(" + side.sql + " AS " + std::string(PgTypeName(k)) + ")";
      return v;
    };
    const Value lc = coerced(l_raw, *b.left, r_raw);
    const Value rc = coerced(r_raw, *b.right, l_raw);
    const bool ordered = b.op == Op::kLt || b.op == Op::kLe || b.op == Op::kGt || b.op == Op::kGe;
    // Byte-wise order for STRING on both sides (a NULL literal counts as either).
    const bool strings =
        (IsKind(lc.type, TypeKind::kString) || IsKind(lc.type, TypeKind::kUnknown)) &&
        (IsKind(rc.type, TypeKind::kString) || IsKind(rc.type, TypeKind::kUnknown)) &&
        !(IsKind(lc.type, TypeKind::kUnknown) && IsKind(rc.type, TypeKind::kUnknown));
    const std::string collate = ordered && strings ? " COLLATE \"C\"" : "";
    const std::string plain = "(" + lc.sql + collate + " " + op + " " + rc.sql + ")";
    Value v = Make(NanAwareComparison(b.op, lc, rc, plain), Type::Scalar(TypeKind::kBool));
    const Value* field = nullptr;
    const Value* other = nullptr;
    if (HasRowRange(l) && IsConstant(*b.right)) {
      v.implied = RowImplied(b.op, l, r);
      field = &l;
      other = &r;
    }
    if (HasRowRange(r) && IsConstant(*b.left)) {
      v.implied = RowImplied(Mirrored(b.op), r, l);
      field = &r;
      other = &l;
    }
    if (b.op == Op::kEq && v.implied.size() == 2) {
      row_equalities_[v.implied[0].second] = {v.implied[1].second,
                                              "(" + field->row_max + " = " + other->sql + ")",
                                              "(" + field->row_max + " > " + other->sql + ")",
                                              "(" + field->row_min + " < " + field->row_max + ")"};
    }
    v.implied_for = v.sql;
    return v;
  }
  if (b.op == Op::kDiv && IsKind(CommonType(l.type, r.type), TypeKind::kInt64)) {
    // BigQuery: INT64 / INT64 is FLOAT64.
    return Make("((" + l.sql + ")::double precision / " + r.sql + ")",
                Type::Scalar(TypeKind::kFloat64));
  }
  if (b.op == Op::kConcat) {
    TypePtr t = IsKind(l.type, TypeKind::kArray) ? l.type : Type::Scalar(TypeKind::kString);
    if (IsKind(l.type, TypeKind::kBytes)) t = l.type;
    return Make("(" + l.sql + " || " + r.sql + ")", t);
  }
  if ((b.op == Op::kShiftLeft || b.op == Op::kShiftRight) && IsKind(l.type, TypeKind::kInt64)) {
    // BigQuery's >> is logical and a shift by 64 or more is 0 (bq.shift_*, migration 065).
    return Make(std::string(b.op == Op::kShiftLeft ? "bq.shift_left(" : "bq.shift_right(") + l.sql +
                    ", " + r.sql + ")",
                Type::Scalar(TypeKind::kInt64));
  }
  Value v = Make("(" + l.sql + " " + op + " " + r.sql + ")", ArithmeticType(b.op, l, r));
  v.loose_int = l.loose_int && r.loose_int;
  return v;
}

namespace {

// The bq.safe_cast_* helper for a target type, or "" when there is none.
std::string_view SafeCastHelper(TypeKind k) {
  switch (k) {
    case TypeKind::kInt64:
      return "bq.safe_cast_int64";
    case TypeKind::kFloat64:
      return "bq.safe_cast_float64";
    case TypeKind::kNumeric:
      return "bq.safe_cast_numeric";
    case TypeKind::kBool:
      return "bq.safe_cast_bool";
    case TypeKind::kDate:
      return "bq.safe_cast_date";
    case TypeKind::kDatetime:
      return "bq.safe_cast_datetime";
    case TypeKind::kTimestamp:
      return "bq.safe_cast_timestamp";
    default:
      return "";
  }
}

// A cast whose BigQuery meaning differs from PG's plain CAST; "" when plain CAST is right.
std::string SpecialCast(const Value& v, TypeKind from, TypeKind to) {
  if (from == TypeKind::kFloat64 && (to == TypeKind::kInt64)) {
    return "(round((" + v.sql + ")::numeric))::bigint";  // half away from zero, like BigQuery
  }
  if (from == TypeKind::kString && to == TypeKind::kInt64) {
    // PG's bigint input has no 0x hex (BigQuery's has); the common decimal case stays native. A
    // quoted literal is decided here: PG converts it while parsing, even in an untaken branch.
    if (!v.sql.empty() && v.sql[0] == '\'') {
      std::size_t i = v.sql.find_first_not_of(" \t\n\r\f\v", 1);
      if (i < v.sql.size() && (v.sql[i] == '+' || v.sql[i] == '-')) ++i;
      const bool hex =
          i + 1 < v.sql.size() && v.sql[i] == '0' && (v.sql[i + 1] == 'x' || v.sql[i + 1] == 'X');
      return hex ? "bq.cast_int64(" + v.sql + ")" : "";
    }
    return "CASE WHEN " + v.sql + " ~ '^\\s*[+-]?0[xX]' THEN bq.cast_int64(" + v.sql +
           ") ELSE CAST(" + v.sql + " AS bigint) END";
  }
  if (from == TypeKind::kBool && to == TypeKind::kInt64) {
    return "((" + v.sql + ")::integer)::bigint";
  }
  if (from == TypeKind::kTimestamp && to == TypeKind::kDate) {
    return "((" + v.sql + " AT TIME ZONE 'UTC'))::date";
  }
  if (from == TypeKind::kTimestamp && to == TypeKind::kDatetime) {
    return "(" + v.sql + " AT TIME ZONE 'UTC')";
  }
  if (from == TypeKind::kDatetime && to == TypeKind::kTimestamp) {
    return "(" + v.sql + " AT TIME ZONE 'UTC')";
  }
  if (from == TypeKind::kDate && to == TypeKind::kTimestamp) {
    return "((" + v.sql + ")::timestamp AT TIME ZONE 'UTC')";
  }
  if (to == TypeKind::kString && from != TypeKind::kUnknown) return BigQueryText(v);
  return "";
}

}  // namespace

Value Emitter::EmitCast(const ast::Cast& cast) {
  if (cast.format) Fail(DiagCode::kUnsupported, cast.format->span, "unsupported CAST ... FORMAT");
  Value v = EmitExpr(*cast.operand);  // not const: `return v` below moves it
  const TypeKind to = cast.target ? cast.target->kind : TypeKind::kUnknown;
  // ARRAY<scalar> of an array literal or NULL: a PG array of the element type. (A REPEATED
  // field is JSON in storage, so other operands stay refused.)
  const bool array_operand =
      cast.operand->Is<ast::ArrayCtor>() ||
      (cast.operand->Is<ast::Literal>() &&
       cast.operand->As<ast::Literal>().literal_kind == ast::Literal::Kind::kNull);
  if (to == TypeKind::kArray && cast.target->element && array_operand &&
      cast.syntax != ast::Cast::Syntax::kSafeCast) {
    const TypeKind elem = cast.target->element->kind;
    const bool scalar = elem != TypeKind::kArray && elem != TypeKind::kRecord &&
                        elem != TypeKind::kUnknown && elem != TypeKind::kInterval &&
                        elem != TypeKind::kJson;
    const TypeKind from_elem =
        v.type && v.type->element ? v.type->element->kind : TypeKind::kUnknown;
    const bool empty_or_null =
        v.sql == "NULL" ||
        (cast.operand->Is<ast::ArrayCtor>() && cast.operand->As<ast::ArrayCtor>().elements.empty());
    if (scalar && (from_elem == elem || empty_or_null)) {
      const std::string pg_array = std::string(PgTypeName(elem)) + "[]";
      if (v.sql != "NULL" && empty_or_null) return Make("ARRAY[]::" + pg_array, cast.target);
      return Make("CAST(" + v.sql + " AS " + pg_array + ")", cast.target);
    }
  }
  if (to == TypeKind::kUnknown || to == TypeKind::kRecord || to == TypeKind::kArray ||
      to == TypeKind::kInterval) {
    Fail(
        DiagCode::kUnsupported, cast.target_span,
        "unsupported cast to " + (cast.target ? TypeName(*cast.target) : std::string("this type")));
  }
  const TypeKind from = v.type ? v.type->kind : TypeKind::kUnknown;
  const TypePtr target = Type::Scalar(to);
  if (from == to) return v;
  // SAFE_CAST reads such a literal as NULL (its helpers accept BigQuery's forms only).
  if (cast.syntax != ast::Cast::Syntax::kSafeCast) {
    RefuseSpecialDateTimeLiteral(*cast.operand, to, cast.operand->span);
  }
  if (cast.syntax == ast::Cast::Syntax::kSafeCast) {
    const bool cannot_fail =
        to == TypeKind::kString ||
        (from == TypeKind::kInt64 && (to == TypeKind::kFloat64 || to == TypeKind::kNumeric));
    if (!cannot_fail) {
      const std::string_view helper = SafeCastHelper(to);
      if (helper.empty()) {
        Fail(DiagCode::kUnsupported, cast.target_span,
             "unsupported SAFE_CAST to " + TypeName(*target));
      }
      const std::string text =
          from == TypeKind::kString || from == TypeKind::kUnknown ? v.sql : "(" + v.sql + ")::text";
      return Make(std::string(helper) + "(" + text + ")", target);
    }
  }
  const std::string special = SpecialCast(v, from, to);
  if (!special.empty()) return Make(special, target);
  if (from == TypeKind::kString && to == TypeKind::kTimestamp) {
    return Make(TimestampFromText(v.sql, ast::IsRowFree(*cast.operand)), target);
  }
  return Make("CAST(" + v.sql + " AS " + std::string(PgTypeName(to)) + ")", target);
}

}  // namespace lqe::pg
