// Conversions to BigQuery scalars: LAX_BOOL, LAX_INT64, LAX_FLOAT64 and LAX_STRING of JSON (NULL
// when the value cannot be converted; bq.lax_* of migration 067), the strict BOOL, INT64, FLOAT64
// and STRING of JSON (an error instead; 069) and PARSE_NUMERIC of text (bq.parse_numeric, 068).
#include "lqe/base/ascii.h"
#include "pg/function_table.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {

Value EmitLaxJson(Emitter& e, const ast::Call& call) {
  const Value j = e.EmitExpr(*call.args[0]);
  const std::string name = Upper(call.name.name);
  if (!IsKind(j.type, TypeKind::kJson) && !IsKind(j.type, TypeKind::kUnknown)) {
    translator::Fail(DiagCode::kType, call.args[0]->span,
                     name + " expects JSON, got " + TypeName(*j.type));
  }
  const TypeKind kind = name == "LAX_BOOL"      ? TypeKind::kBool
                        : name == "LAX_INT64"   ? TypeKind::kInt64
                        : name == "LAX_FLOAT64" ? TypeKind::kFloat64
                                                : TypeKind::kString;
  std::string fn = name;
  for (auto& c : fn) c = ascii::ToLower(c);
  return MakeValue("bq." + fn + "((" + j.sql + ")::jsonb)", kind);
}

Value EmitJsonConvert(Emitter& e, const ast::Call& call) {
  const Value j = e.EmitExpr(*call.args[0]);
  const std::string name = Upper(call.name.name);
  if (!IsKind(j.type, TypeKind::kJson) && !IsKind(j.type, TypeKind::kUnknown)) {
    translator::Fail(DiagCode::kType, call.args[0]->span,
                     name + " expects JSON, got " + TypeName(*j.type));
  }
  const TypeKind kind = name == "BOOL"      ? TypeKind::kBool
                        : name == "INT64"   ? TypeKind::kInt64
                        : name == "FLOAT64" ? TypeKind::kFloat64
                                            : TypeKind::kString;
  const std::string fn = name == "BOOL"      ? "bq.json_bool("
                         : name == "INT64"   ? "bq.json_to_int64("
                         : name == "FLOAT64" ? "bq.json_to_float64("
                                             : "bq.json_to_string(";
  return MakeValue(fn + "(" + j.sql + ")::jsonb)", kind);
}

Value EmitParseNumeric(Emitter& e, const ast::Call& call) {
  const Value s = e.EmitExpr(*call.args[0]);
  if (!IsKind(s.type, TypeKind::kString) && !IsKind(s.type, TypeKind::kUnknown)) {
    translator::Fail(DiagCode::kType, call.args[0]->span,
                     "PARSE_NUMERIC expects STRING, got " + TypeName(*s.type));
  }
  // SAFE.PARSE_NUMERIC gives NULL for invalid text instead of the error.
  return MakeValue(
      std::string(call.safe ? "bq.safe_parse_numeric(" : "bq.parse_numeric(") + s.sql + ")",
      TypeKind::kNumeric);
}

}  // namespace lqe::pg
