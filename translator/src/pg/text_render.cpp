#include "pg/text_render.h"

namespace lqe::pg {
namespace {

TypeKind KindOf(const Value& v) {
  return v.type ? v.type->kind : TypeKind::kUnknown;
}

}  // namespace

std::string BigQueryText(const Value& v) {
  const std::string& x = v.sql;
  switch (KindOf(v)) {
    case TypeKind::kString:
    case TypeKind::kUnknown:
      return x;
    case TypeKind::kInt64:
    case TypeKind::kBool:  // PG prints true/false, as BigQuery does
      return "(" + x + ")::text";
    case TypeKind::kFloat64:
      return "bq.float_text(" + x + ")";
    case TypeKind::kNumeric:
      return "trim_scale(" + x + ")::text";
    case TypeKind::kTimestamp:
      return "bq.timestamp_text(" + x + ")";
    case TypeKind::kDatetime:
      return "bq.datetime_text(" + x + ")";
    case TypeKind::kDate:
      return "to_char(" + x + ", 'YYYY-MM-DD')";
    case TypeKind::kTime:
      return "bq.time_text(" + x + ")";
    case TypeKind::kBytes:
      return "convert_from(" + x + ", 'UTF8')";
    case TypeKind::kJson:
    case TypeKind::kRecord:
      return "bq.json_text(" + x + ")";
    default:
      return "CAST(" + x + " AS text)";
  }
}

std::string BigQueryLiteralText(const Value& v) {
  const std::string text = BigQueryText(v);
  std::string literal;
  switch (KindOf(v)) {
    case TypeKind::kString:
      literal = "bq.string_literal(" + text + ")";
      break;
    case TypeKind::kBytes:
      literal = "bq.bytes_literal(" + v.sql + ")";
      break;
    case TypeKind::kTimestamp:
      literal = "'TIMESTAMP \"' || " + text + " || '\"'";
      break;
    case TypeKind::kDatetime:
      literal = "'DATETIME \"' || " + text + " || '\"'";
      break;
    case TypeKind::kDate:
      literal = "'DATE \"' || " + text + " || '\"'";
      break;
    case TypeKind::kTime:
      literal = "'TIME \"' || " + text + " || '\"'";
      break;
    case TypeKind::kNumeric:
      literal = "'NUMERIC \"' || " + text + " || '\"'";
      break;
    case TypeKind::kJson:
      literal = "'JSON ' || bq.string_literal(" + text + ")";
      break;
    case TypeKind::kFloat64:
      literal = "bq.float_literal(" + v.sql + ")";
      break;
    default:
      literal = text;
      break;
  }
  return "coalesce(" + literal + ", 'NULL')";
}

}  // namespace lqe::pg
