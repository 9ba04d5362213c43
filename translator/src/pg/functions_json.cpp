// JSON functions: JSON_VALUE, JSON_QUERY and their _ARRAY forms (a literal JSONPath to a #> path),
// TO_JSON, TO_JSON_STRING, PARSE_JSON and JSON_TYPE. The conversions of JSON values to scalars
// (LAX_*, INT64(json), ...) are in functions_conversion.cpp.
#include "pg/function_table.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

std::string StringArg(Emitter& e, const ast::Call& call, std::size_t i) {
  const Value v = e.EmitExpr(*call.args[i]);
  if (!IsKind(v.type, K::kString) && !IsKind(v.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[i]->span,
         Upper(call.name.name) + " expects STRING, got " + TypeName(*v.type));
  }
  return v.sql;
}

// '$.a.b[0]', "$['a']", '$."a.b"' to the PG path literal '{a,b,0}'.
std::string JsonPath(const ast::Call& call) {
  if (call.args.size() < 2) return "'{}'";
  const ast::Literal& lit = StringLiteralArg(call, 1, "JSONPath");
  const std::string& p = lit.text;
  auto bad = [&]() -> std::string {
    Fail(DiagCode::kUnsupported, lit.span, "unsupported JSONPath " + p,
         "Use $ followed by .name, .\"name\", ['name'] or [index] steps.");
  };
  if (p.empty() || p[0] != '$') bad();
  std::vector<std::string> steps;
  std::size_t i = 1;
  while (i < p.size()) {
    std::string step;
    if (p[i] == '.' && i + 1 < p.size() && p[i + 1] == '"') {
      const auto end = p.find('"', i + 2);
      if (end == std::string::npos) bad();
      step = p.substr(i + 2, end - i - 2);
      i = end + 1;
    } else if (p[i] == '.') {
      std::size_t j = i + 1;
      while (j < p.size() && p[j] != '.' && p[j] != '[') ++j;
      step = p.substr(i + 1, j - i - 1);
      if (step.empty()) bad();
      i = j;
    } else if (p[i] == '[' && i + 1 < p.size() && (p[i + 1] == '\'' || p[i + 1] == '"')) {
      const auto end = p.find(std::string(1, p[i + 1]) + "]", i + 2);
      if (end == std::string::npos) bad();
      step = p.substr(i + 2, end - i - 2);
      i = end + 2;
    } else if (p[i] == '[') {
      const auto end = p.find(']', i);
      if (end == std::string::npos || end == i + 1) bad();
      step = p.substr(i + 1, end - i - 1);
      for (char c : step) {
        if (c < '0' || c > '9') bad();
      }
      i = end + 1;
    } else {
      bad();
    }
    steps.push_back(std::move(step));
  }
  // PG array literal elements: double-quoted, with " and \ escaped.
  std::string arr = "{";
  for (std::size_t k = 0; k < steps.size(); ++k) {
    arr += k ? ",\"" : "\"";
    for (char c : steps[k]) {
      if (c == '"' || c == '\\') arr += '\\';
      arr += c;
    }
    arr += '"';
  }
  return QuoteLiteral(arr + "}");
}

// The JSON document of argument 0: a JSON value, or a STRING parsed leniently (NULL if invalid).
Value JsonDoc(Emitter& e, const ast::Call& call) {
  Value v = e.EmitExpr(*call.args[0]);
  if (IsKind(v.type, K::kJson) || IsKind(v.type, K::kRecord)) return v;
  if (!IsKind(v.type, K::kString) && !IsKind(v.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[0]->span,
         Upper(call.name.name) + " expects STRING or JSON, got " + TypeName(*v.type));
  }
  return MakeValue("bq.try_jsonb(" + v.sql + ")", K::kString);
}

}  // namespace

Value EmitJsonValue(Emitter& e, const ast::Call& call) {
  // JSON_VALUE(log_attributes['key']) on logs.otel: that key read from the row's documents
  // (logs.otel_attribute, inlined by the planner) instead of from the whole flattened map.
  if (call.args.size() == 1 && call.args[0]->Is<ast::Subscript>()) {
    const auto& sub = call.args[0]->As<ast::Subscript>();
    // A column path only, so that reading it twice (here and below) binds nothing twice.
    const bool key = sub.mode == ast::Subscript::Mode::kBare && sub.base->Is<ast::Path>() &&
                     sub.index->Is<ast::Literal>() &&
                     sub.index->As<ast::Literal>().literal_kind == ast::Literal::Kind::kString;
    if (key) {
      const Value map = e.EmitExpr(*sub.base);
      if (!map.event_sql.empty() && map.event_for == map.sql) {
        return MakeValue("logs.otel_attribute(" + map.event_sql + ", " +
                             QuoteLiteral(sub.index->As<ast::Literal>().text) + ")",
                         K::kString);
      }
    }
  }
  const Value doc = JsonDoc(e, call);
  return MakeValue("bq.json_scalar(" + doc.sql + " #> " + JsonPath(call) + ")", K::kString);
}

Value EmitJsonQuery(Emitter& e, const ast::Call& call) {
  const Value doc = JsonDoc(e, call);
  const std::string sql = "(" + doc.sql + " #> " + JsonPath(call) + ")";
  if (IsKind(doc.type, K::kJson)) return MakeValue(sql, K::kJson);
  return MakeValue("bq.json_text" + sql, K::kString);
}

Value EmitJsonQueryArray(Emitter& e, const ast::Call& call) {
  const Value doc = JsonDoc(e, call);
  const bool json = IsKind(doc.type, K::kJson);
  // Not an array at the path (a scalar, an object, missing): NULL, not an error.
  const std::string at = "(" + doc.sql + " #> " + JsonPath(call) + ")";
  return MakeValue("CASE WHEN jsonb_typeof(" + at + ") = 'array' THEN ARRAY(SELECT " +
                       (json ? "_e" : "bq.json_text(_e)") + " FROM jsonb_array_elements(" + at +
                       ") AS _e) END",
                   Type::Array(Type::Scalar(json ? K::kJson : K::kString)));
}

Value EmitJsonValueArray(Emitter& e, const ast::Call& call) {
  const Value doc = JsonDoc(e, call);
  // NULL unless the path holds an array of scalars; JSON null elements are NULL.
  const std::string at = "(" + doc.sql + " #> " + JsonPath(call) + ")";
  return MakeValue("CASE WHEN jsonb_typeof(" + at +
                       ") = 'array' AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(" + at +
                       ") AS _e WHERE jsonb_typeof(_e) IN ('object', 'array')) THEN ARRAY(SELECT "
                       "bq.json_scalar(_e) FROM jsonb_array_elements(" +
                       at + ") AS _e) END",
                   Type::Array(Type::Scalar(K::kString)));
}

Value EmitToJsonString(Emitter& e, const ast::Call& call) {
  const Value v = e.EmitExpr(*call.args[0]);
  if (IsKind(v.type, K::kRecord) || IsKind(v.type, K::kJson) || v.json_array) {
    return MakeValue("bq.json_text(" + v.sql + ")", K::kString);
  }
  const std::string& x = v.sql;
  switch (v.type ? v.type->kind : K::kUnknown) {
    case K::kInt64:
      return MakeValue("bq.to_json_int64(" + x + ")", K::kString);
    case K::kFloat64:
      return MakeValue("bq.to_json_float64(" + x + ")", K::kString);
    case K::kNumeric:
      return MakeValue("bq.json_quoted(trim_scale(" + x + ")::text)", K::kString);
    case K::kBytes:
      return MakeValue("bq.json_quoted(translate(encode(" + x + ", 'base64'), E'\\n', ''))",
                       K::kString);
    case K::kTimestamp:
      return MakeValue("bq.json_quoted(to_char(" + x +
                           " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || "
                           "bq.fraction_text(EXTRACT(MICROSECONDS FROM " +
                           x + ")::bigint % 1000000) || 'Z')",
                       K::kString);
    case K::kDatetime:
      return MakeValue("bq.json_quoted(replace(bq.datetime_text(" + x + "), ' ', 'T'))",
                       K::kString);
    case K::kTime:
      return MakeValue("bq.json_quoted(bq.time_text(" + x + "))", K::kString);
    case K::kString:
    case K::kUnknown:  // NULL
      return MakeValue("bq.json_quoted(" + x + ")", K::kString);
    default:
      return MakeValue("bq.json_text(to_jsonb(" + x + "))", K::kString);
  }
}

Value EmitToJson(Emitter& e, const ast::Call& call) {
  const Value v = e.EmitExpr(*call.args[0]);
  if (IsKind(v.type, K::kRecord) || IsKind(v.type, K::kJson) || v.json_array) {
    return MakeValue(v.sql, K::kJson);
  }
  return MakeValue("to_jsonb(" + v.sql + ")", K::kJson);
}

Value EmitParseJson(Emitter& e, const ast::Call& call) {
  return MakeValue("CAST(" + StringArg(e, call, 0) + " AS jsonb)", K::kJson);
}

Value EmitJsonType(Emitter& e, const ast::Call& call) {
  const Value v = e.EmitExpr(*call.args[0]);
  return MakeValue("jsonb_typeof(" + v.sql + ")", K::kString);
}

}  // namespace lqe::pg
