#include "render/schema_fields.h"

namespace lqe::gateway {

namespace json = boost::json;

bool HasRecordFields(const Type& type) {
  if (type.kind == TypeKind::kArray) return type.element && HasRecordFields(*type.element);
  return type.kind == TypeKind::kRecord && !type.fields.empty();
}

void FillSchemaFields(json::value& value, const Type& type) {
  if (type.kind == TypeKind::kArray && type.element) {
    if (!value.is_array()) return;
    for (json::value& element : value.get_array()) FillSchemaFields(element, *type.element);
    return;
  }
  if (type.kind != TypeKind::kRecord || !value.is_object()) return;
  json::object& object = value.get_object();
  for (const StructField& field : type.fields) {
    if (!field.type) continue;
    auto it = object.find(field.name);
    if (it == object.end()) {
      if (field.type->kind == TypeKind::kArray) {
        object.emplace(field.name, json::array());
      } else {
        object.emplace(field.name, nullptr);
      }
    } else {
      FillSchemaFields(it->value(), *field.type);
    }
  }
}

}  // namespace lqe::gateway
