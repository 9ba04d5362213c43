// BigQuery value types, as the translator, the field catalogue and the gateway's renderer see them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lqe {

enum class TypeKind : std::uint8_t {
  kUnknown,  // the type of a bare NULL literal; coerces to anything
  kBool,
  kInt64,
  kFloat64,
  kNumeric,
  kString,
  kBytes,
  kDate,
  kDatetime,
  kTime,
  kTimestamp,
  kInterval,
  kJson,
  kRecord,  // STRUCT / RECORD
  kArray,   // ARRAY<T> / REPEATED
};

struct Type;
using TypePtr = std::shared_ptr<const Type>;

struct StructField {
  std::string name;  // as declared; lookups are case-insensitive like BigQuery's
  TypePtr type;
};

struct Type {
  TypeKind kind = TypeKind::kUnknown;
  TypePtr element;                  // kArray only
  std::vector<StructField> fields;  // kRecord only

  static TypePtr Scalar(TypeKind kind);
  static TypePtr Array(TypePtr element);
  static TypePtr Record(std::vector<StructField> fields);

  // Case-insensitive field lookup on a record; nullptr when absent or not a record.
  const StructField* FindField(std::string_view name) const;
  bool IsNumeric() const;
};

// "INT64", "ARRAY<STRING>", "STRUCT<a INT64, b STRING>".
std::string TypeName(const Type& type);
std::string_view TypeKindName(TypeKind kind);
// Parses a scalar BigQuery type name (INT64, INTEGER, FLOAT64, FLOAT, BOOL, BOOLEAN, STRING,
// TIMESTAMP, ...). Returns kUnknown for anything else.
TypeKind ParseScalarTypeName(std::string_view name);

}  // namespace lqe
