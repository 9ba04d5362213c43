#include "lqe/types.h"

#include <algorithm>
#include <array>
#include <utility>

#include "lqe/base/ascii.h"

namespace lqe {
using ascii::EqualsIgnoreCase;

TypePtr Type::Scalar(TypeKind kind) {
  // Scalars are immutable and shared; one instance per kind.
  static const auto kInstances = [] {
    std::array<TypePtr, static_cast<std::size_t>(TypeKind::kArray) + 1> all;
    for (std::size_t i = 0; i < all.size(); ++i) {
      auto t = std::make_shared<Type>();
      t->kind = static_cast<TypeKind>(i);
      all[i] = std::move(t);
    }
    return all;
  }();
  return kInstances[static_cast<std::size_t>(kind)];
}

TypePtr Type::Array(TypePtr element) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kArray;
  t->element = std::move(element);
  return t;
}

TypePtr Type::Record(std::vector<StructField> fields) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kRecord;
  t->fields = std::move(fields);
  return t;
}

const StructField* Type::FindField(std::string_view name) const {
  if (kind != TypeKind::kRecord) return nullptr;
  for (const auto& f : fields) {
    if (EqualsIgnoreCase(f.name, name)) return &f;
  }
  return nullptr;
}

bool Type::IsNumeric() const {
  return kind == TypeKind::kInt64 || kind == TypeKind::kFloat64 || kind == TypeKind::kNumeric;
}

std::string_view TypeKindName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kUnknown:
      return "NULL";
    case TypeKind::kBool:
      return "BOOL";
    case TypeKind::kInt64:
      return "INT64";
    case TypeKind::kFloat64:
      return "FLOAT64";
    case TypeKind::kNumeric:
      return "NUMERIC";
    case TypeKind::kString:
      return "STRING";
    case TypeKind::kBytes:
      return "BYTES";
    case TypeKind::kDate:
      return "DATE";
    case TypeKind::kDatetime:
      return "DATETIME";
    case TypeKind::kTime:
      return "TIME";
    case TypeKind::kTimestamp:
      return "TIMESTAMP";
    case TypeKind::kInterval:
      return "INTERVAL";
    case TypeKind::kJson:
      return "JSON";
    case TypeKind::kRecord:
      return "STRUCT";
    case TypeKind::kArray:
      return "ARRAY";
  }
  return "?";
}

std::string TypeName(const Type& type) {
  if (type.kind == TypeKind::kArray) {
    return "ARRAY<" + (type.element ? TypeName(*type.element) : std::string("?")) + ">";
  }
  if (type.kind == TypeKind::kRecord) {
    std::string out = "STRUCT<";
    for (std::size_t i = 0; i < type.fields.size(); ++i) {
      if (i > 0) out += ", ";
      out += type.fields[i].name;
      out += ' ';
      out += type.fields[i].type ? TypeName(*type.fields[i].type) : "?";
    }
    return out + ">";
  }
  return std::string(TypeKindName(type.kind));
}

TypeKind ParseScalarTypeName(std::string_view name) {
  static constexpr std::pair<std::string_view, TypeKind> kNames[] = {
      {"BOOL", TypeKind::kBool},           {"BOOLEAN", TypeKind::kBool},
      {"INT64", TypeKind::kInt64},         {"INTEGER", TypeKind::kInt64},
      {"INT", TypeKind::kInt64},           {"SMALLINT", TypeKind::kInt64},
      {"BIGINT", TypeKind::kInt64},        {"TINYINT", TypeKind::kInt64},
      {"BYTEINT", TypeKind::kInt64},       {"FLOAT64", TypeKind::kFloat64},
      {"FLOAT", TypeKind::kFloat64},       {"NUMERIC", TypeKind::kNumeric},
      {"DECIMAL", TypeKind::kNumeric},     {"BIGNUMERIC", TypeKind::kNumeric},
      {"BIGDECIMAL", TypeKind::kNumeric},  {"STRING", TypeKind::kString},
      {"BYTES", TypeKind::kBytes},         {"DATE", TypeKind::kDate},
      {"DATETIME", TypeKind::kDatetime},   {"TIME", TypeKind::kTime},
      {"TIMESTAMP", TypeKind::kTimestamp}, {"INTERVAL", TypeKind::kInterval},
      {"JSON", TypeKind::kJson},
  };
  for (const auto& [n, k] : kNames) {
    if (EqualsIgnoreCase(n, name)) return k;
  }
  return TypeKind::kUnknown;
}

}  // namespace lqe
