#include "management/openapi.h"

#include <boost/json/serialize.hpp>

#include "lqe/gateway/build_info.h"
#include "lqe/translate.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

// The JSON Schema of a result column as the gateway writes it (render.cpp): INT64 as a number,
// TIMESTAMP as microseconds since the epoch, BYTES as base64, records and arrays nested.
json::object ColumnSchema(const Type& type) {
  switch (type.kind) {
    case TypeKind::kBool:
      return {{"type", "boolean"}};
    case TypeKind::kInt64:
      return {{"type", "integer"}, {"format", "int64"}};
    case TypeKind::kFloat64:
    case TypeKind::kNumeric:
      // NaN and the infinities are written as strings.
      return {{"type", json::array{"number", "string"}}};
    case TypeKind::kTimestamp:
      return {{"type", "integer"}, {"description", "microseconds since 1970-01-01 UTC"}};
    case TypeKind::kBytes:
      return {{"type", "string"}, {"contentEncoding", "base64"}};
    case TypeKind::kDate:
      return {{"type", "string"}, {"format", "date"}};
    case TypeKind::kDatetime:
    case TypeKind::kTime:
    case TypeKind::kString:
    case TypeKind::kInterval:
      return {{"type", "string"}};
    case TypeKind::kRecord: {
      json::object properties;
      for (const StructField& f : type.fields) properties[f.name] = ColumnSchema(*f.type);
      return {{"type", "object"}, {"properties", std::move(properties)}};
    }
    case TypeKind::kArray:
      return {{"type", "array"}, {"items", ColumnSchema(*type.element)}};
    case TypeKind::kJson:
    case TypeKind::kUnknown:
      break;
  }
  return {};
}

json::object ParamSchema(const ParamDef& def) {
  json::object schema;
  switch (def.type) {
    case ParamType::kString:
      schema["type"] = "string";
      break;
    case ParamType::kInteger:
      schema["type"] = "integer";
      break;
    case ParamType::kFloat:
      schema["type"] = "number";
      break;
    case ParamType::kBoolean:
      schema["type"] = "boolean";
      break;
    case ParamType::kTimestamp:
      schema["type"] = "string";
      schema["format"] = "date-time";
      break;
    case ParamType::kEnum: {
      json::array values;
      for (const auto& v : def.values) values.emplace_back(v);
      schema["type"] = "string";
      schema["enum"] = std::move(values);
      break;
    }
  }
  if (def.default_value) schema["default"] = *def.default_value;
  return schema;
}

json::object ErrorResponse(const char* what) {
  return {
      {"description", what},
      {"content", {{"application/json", {{"schema", {{"$ref", "#/components/schemas/Error"}}}}}}}};
}

json::object EndpointOperation(const EndpointDef& e) {
  json::array parameters;
  for (const auto& [name, def] : e.params) {
    json::object p{
        {"name", name}, {"in", "query"}, {"required", def.required}, {"schema", ParamSchema(def)}};
    if (!def.description.empty()) p["description"] = def.description;
    parameters.emplace_back(std::move(p));
  }
  if (e.sandbox) {
    for (const char* name : {"sql", "lql"}) {
      parameters.emplace_back(json::object{
          {"name", name},
          {"in", "query"},
          {"required", false},
          {"description", std::string(name) + " over the stored query's CTEs (sandboxed)"},
          {"schema", {{"type", "string"}}}});
    }
  }
  json::object row_properties;
  if (e.translation) {
    for (const OutputColumn& c : e.translation->columns) {
      row_properties[c.name] = ColumnSchema(*c.type);
    }
  }
  json::object result{{"type", "array"},
                      {"maxItems", e.max_rows},
                      {"items", {{"type", "object"}, {"properties", std::move(row_properties)}}}};
  return {{"operationId", "query:" + e.name},
          {"summary", "Run endpoint " + e.name},
          {"tags", json::array{"endpoints"}},
          {"parameters", std::move(parameters)},
          {"responses",
           {{"200",
             {{"description", "The rows"},
              {"content",
               {{"application/json",
                 {{"schema",
                   {{"type", "object"}, {"properties", {{"result", std::move(result)}}}}}}}}}}},
            {"400", ErrorResponse("A parameter, sql or lql refused, with the reason")},
            {"401", ErrorResponse("No valid API key")}}}};
}

// A management route's operation: summary, and whether it takes a JSON body.
json::object Operation(const std::string& summary, bool body = false) {
  json::object op{{"summary", summary},
                  {"tags", json::array{"management"}},
                  {"responses",
                   {{"200", {{"description", "OK (201 for a creation, 204 for a deletion)"}}},
                    {"400", ErrorResponse("The body refused, naming the field")},
                    {"401", ErrorResponse("No valid API key")},
                    {"403", ErrorResponse("The key lacks the private scope, or read-only")},
                    {"404", ErrorResponse("Not found")}}}};
  if (body) {
    op["requestBody"] = {{"required", true},
                         {"content", {{"application/json", {{"schema", {{"type", "object"}}}}}}}};
  }
  return op;
}

json::object IdParameter() {
  return {{"name", "id"},
          {"in", "path"},
          {"required", true},
          {"description", "the integer id or the UUID token"},
          {"schema", {{"type", "string"}}}};
}

void AddManagement(json::object& paths) {
  for (const char* collection : {"backends", "sources", "rules", "endpoints"}) {
    const std::string name = collection;
    paths["/api/" + name] = {{"get", Operation("List " + name)},
                             {"post", Operation("Create one of " + name, true)}};
    json::object item{{"parameters", json::array{IdParameter()}},
                      {"get", Operation("Fetch one of " + name)},
                      {"delete", Operation("Delete one of " + name)}};
    if (name != "rules") {
      item["put"] = Operation("Update one of " + name, true);
      item["patch"] = Operation("Update one of " + name + " (answers 204)", true);
    }
    paths["/api/" + name + "/{id}"] = std::move(item);
  }
  paths["/api/backends/{id}/test"] = {
      {"parameters", json::array{IdParameter()}},
      {"post", Operation("Send a probe event; {\"connected?\": bool, \"reason\"?}")}};
  paths["/api/sources/{id}/schema"] = {
      {"parameters", json::array{IdParameter()}},
      {"get", Operation("The source's fields and their BigQuery types")}};
}

}  // namespace

std::string OpenApiDocument(const GatewayState& state) {
  json::object paths;
  for (const auto& e : state.config.endpoints) {
    paths["/api/endpoints/query/" + e->name] = {{"get", EndpointOperation(*e)}};
  }
  AddManagement(paths);
  json::object doc{
      {"openapi", "3.1.0"},
      {"info",
       {{"title", "lqe"},
        {"version", std::string(BuildVersion())},
        {"description",
         "Log query endpoints over PostgreSQL, and Logflare's management API. Endpoint paths "
         "also answer by UUID; POST with a JSON body of the parameters works as GET."}}},
      {"components",
       {{"securitySchemes",
         {{"bearer", {{"type", "http"}, {"scheme", "bearer"}}},
          {"apiKey", {{"type", "apiKey"}, {"in", "header"}, {"name", "X-API-KEY"}}}}},
        {"schemas",
         {{"Error",
           {{"type", "object"},
            {"properties",
             {{"error", {{"type", "string"}}}, {"message", {{"type", "string"}}}}}}}}}}},
      {"security", json::array{json::object{{"bearer", json::array{}}},
                               json::object{{"apiKey", json::array{}}}}},
      {"paths", std::move(paths)}};
  return json::serialize(doc);
}

}  // namespace lqe::gateway::management
