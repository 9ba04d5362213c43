#include "pg/type_table.h"

#include <string>
#include <utility>

namespace lqe::pg {

std::string_view PgTypeName(TypeKind kind) {
  static constexpr std::pair<TypeKind, std::string_view> kTable[] = {
      {TypeKind::kBool, "boolean"},
      {TypeKind::kInt64, "bigint"},
      {TypeKind::kFloat64, "double precision"},
      {TypeKind::kNumeric, "numeric"},
      {TypeKind::kString, "text"},
      {TypeKind::kBytes, "bytea"},
      {TypeKind::kDate, "date"},
      {TypeKind::kDatetime, "timestamp"},
      {TypeKind::kTime, "time"},
      {TypeKind::kTimestamp, "timestamptz"},
      {TypeKind::kInterval, "interval"},
      {TypeKind::kJson, "jsonb"},
      {TypeKind::kRecord, "jsonb"},
      {TypeKind::kArray, "jsonb"},
      {TypeKind::kUnknown, "text"},
  };
  for (const auto& [k, name] : kTable) {
    if (k == kind) return name;
  }
  return "text";
}

std::string PgStorageType(const Type& type) {
  if (type.kind == TypeKind::kArray && type.element) {
    return std::string(PgTypeName(type.element->kind)) + "[]";
  }
  return std::string(PgTypeName(type.kind));
}

bool IsNumber(const TypePtr& type) {
  return !type || type->kind == TypeKind::kUnknown || type->IsNumeric();
}

bool IsKind(const TypePtr& type, TypeKind kind) {
  return type && type->kind == kind;
}

std::string TimestampFromText(const std::string& text_sql, bool row_free) {
  return row_free ? "bq.timestamp_constant(" + text_sql + ")"
                  : "CAST(" + text_sql + " AS timestamptz)";
}

}  // namespace lqe::pg
