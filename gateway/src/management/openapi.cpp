#include "management/openapi.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "lqe/gateway/auth.h"
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

// {"content": {"application/json": {"schema": schema}}}, built a level at a time (deeply
// nested braced lists make clang-tidy's analysis explode).
json::object JsonContent(json::object schema) {
  json::object media;
  media["schema"] = std::move(schema);
  json::object content;
  content["application/json"] = std::move(media);
  return content;
}

json::object ErrorResponse(const char* what) {
  json::object ref;
  ref["$ref"] = "#/components/schemas/Error";
  json::object response;
  response["description"] = what;
  response["content"] = JsonContent(std::move(ref));
  return response;
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
      json::object schema;
      schema["type"] = "string";
      json::object p;
      p["name"] = name;
      p["in"] = "query";
      p["required"] = false;
      p["description"] = std::string(name) + " over the stored query's CTEs (sandboxed)";
      p["schema"] = std::move(schema);
      parameters.emplace_back(std::move(p));
    }
  }
  json::object row_properties;
  if (e.translation) {
    for (const OutputColumn& c : e.translation->columns) {
      row_properties[c.name] = ColumnSchema(*c.type);
    }
  }
  json::object item;
  item["type"] = "object";
  item["properties"] = std::move(row_properties);
  json::object result;
  result["type"] = "array";
  result["maxItems"] = e.max_rows;
  result["items"] = std::move(item);
  json::object body_properties;
  body_properties["result"] = std::move(result);
  json::object body;
  body["type"] = "object";
  body["properties"] = std::move(body_properties);
  json::object ok;
  ok["description"] = "The rows";
  ok["content"] = JsonContent(std::move(body));
  json::object responses;
  responses["200"] = std::move(ok);
  responses["400"] = ErrorResponse("A parameter, sql or lql refused, with the reason");
  responses["401"] = ErrorResponse("No valid API key");
  json::object op;
  op["operationId"] = "query:" + e.name;
  op["summary"] = "Run endpoint " + e.name;
  op["tags"] = json::array{"endpoints"};
  op["parameters"] = std::move(parameters);
  op["responses"] = std::move(responses);
  return op;
}

// A management route's operation: summary, and whether it takes a JSON body.
json::object Operation(const std::string& summary, bool body = false) {
  json::object ok;
  ok["description"] = "OK (201 for a creation, 204 for a deletion)";
  json::object responses;
  responses["200"] = std::move(ok);
  responses["400"] = ErrorResponse("The body refused, naming the field");
  responses["401"] = ErrorResponse("No valid API key");
  responses["403"] = ErrorResponse("The key lacks the private scope, or read-only");
  responses["404"] = ErrorResponse("Not found");
  json::object op;
  op["summary"] = summary;
  op["tags"] = json::array{"management"};
  op["responses"] = std::move(responses);
  if (body) {
    json::object schema;
    schema["type"] = "object";
    json::object request;
    request["required"] = true;
    request["content"] = JsonContent(std::move(schema));
    op["requestBody"] = std::move(request);
  }
  return op;
}

json::object IdParameter() {
  json::object schema;
  schema["type"] = "string";
  json::object p;
  p["name"] = "id";
  p["in"] = "path";
  p["required"] = true;
  p["description"] = "the integer id or the UUID token";
  p["schema"] = std::move(schema);
  return p;
}

void AddManagement(json::object& paths) {
  for (const char* collection : {"backends", "sources", "rules", "endpoints"}) {
    const std::string name = collection;
    json::object list;
    list["get"] = Operation("List " + name);
    list["post"] = Operation("Create one of " + name, true);
    paths["/api/" + name] = std::move(list);
    json::object item;
    item["parameters"] = json::array{IdParameter()};
    item["get"] = Operation("Fetch one of " + name);
    item["delete"] = Operation("Delete one of " + name);
    if (name != "rules") {
      item["put"] = Operation("Update one of " + name, true);
      item["patch"] = Operation("Update one of " + name + " (answers 204)", true);
    }
    paths["/api/" + name + "/{id}"] = std::move(item);
  }
  json::object test;
  test["parameters"] = json::array{IdParameter()};
  test["post"] = Operation("Send a probe event; {\"connected?\": bool, \"reason\"?}");
  paths["/api/backends/{id}/test"] = std::move(test);
  json::object schema;
  schema["parameters"] = json::array{IdParameter()};
  schema["get"] = Operation("The source's fields and their BigQuery types");
  paths["/api/sources/{id}/schema"] = std::move(schema);
}

}  // namespace

namespace {

// The document around `paths`.
std::string Document(json::object paths) {
  // The fixed parts, as JSON text.
  json::object doc = json::parse(R"({
    "openapi": "3.1.0",
    "info": {"title": "lqe", "description": "Log query endpoints over PostgreSQL, and Logflare's management API. Endpoint paths also answer by UUID; POST with a JSON body of the parameters works as GET."},
    "components": {
      "securitySchemes": {
        "bearer": {"type": "http", "scheme": "bearer"},
        "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-KEY"}},
      "schemas": {
        "Error": {"type": "object",
                  "properties": {"error": {"type": "string"}, "message": {"type": "string"}}}}},
    "security": [{"bearer": []}, {"apiKey": []}]
  })")
                         .as_object();
  doc["info"].as_object()["version"] = std::string(BuildVersion());
  doc["paths"] = std::move(paths);
  return json::serialize(doc);
}

}  // namespace

std::string OpenApiDocument(const GatewayState& state) {
  json::object paths;
  for (const auto& e : state.config.endpoints) {
    json::object path;
    path["get"] = EndpointOperation(*e);
    paths["/api/endpoints/query/" + e->name] = std::move(path);
  }
  AddManagement(paths);
  return Document(std::move(paths));
}

std::string EndpointsOpenApiDocument(const GatewayState& state, const ApiKey& key) {
  json::object paths;
  for (const auto& e : state.config.endpoints) {
    if (!KeyAllows(key, *e)) continue;
    json::object operation = EndpointOperation(*e);
    // The stored query as PostgreSQL runs it, for a key trusted with the management API.
    if (key.private_api && e->translation) {
      operation["x-lqe-postgres-sql"] = e->translation->pg_sql;
    }
    json::object path;
    path["get"] = std::move(operation);
    paths["/api/endpoints/query/" + e->name] = std::move(path);
  }
  return Document(std::move(paths));
}

}  // namespace lqe::gateway::management
