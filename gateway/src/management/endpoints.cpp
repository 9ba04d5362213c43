// /api/endpoints: Logflare's endpoint management. Endpoints created here live in
// lqe_admin.endpoints and are checked and translated before they are kept; those of the
// operator's files are listed read-only.
#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "lqe/gateway/handler.h"
#include "management/resources.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

// Logflare's field names and lqe's endpoint-file keys they map to.
struct FieldMap {
  std::string_view api;
  std::string_view file;
};
constexpr std::array<FieldMap, 9> kFields = {{
    {"name", "name"},
    {"query", "query"},
    {"language", "language"},
    {"sandboxable", "sandbox"},
    {"max_limit", "max_rows"},
    {"cache_duration_seconds", "cache_seconds"},
    {"proactive_requerying_seconds", "cache_warming_seconds"},
    {"redact_pii", "redact_pii"},
    {"params", "params"},
}};
// Logflare's fields lqe keeps no meaning for: accepted and ignored.
constexpr std::array<std::string_view, 7> kIgnored = {
    "description", "enable_auth", "labels", "metadata", "source_mapping", "id", "token"};

std::string LanguageName(SqlDialect d) {
  return d == SqlDialect::kClickHouse ? "ch_sql" : "bq_sql";
}

json::object EndpointJson(const EndpointDef& e, const json::value& id, const std::string& token,
                          const std::string& description, bool read_only) {
  json::array parameters;
  for (const auto& [name, def] : e.params) {
    json::object p{
        {"name", name}, {"type", std::string(ParamTypeName(def.type))}, {"required", def.required}};
    if (def.default_value) p["default"] = *def.default_value;
    if (!def.values.empty()) {
      json::array values;
      for (const auto& v : def.values) values.emplace_back(v);
      p["values"] = std::move(values);
    }
    parameters.emplace_back(std::move(p));
  }
  return json::object{{"id", id},
                      {"token", token},
                      {"name", e.name},
                      {"description", description},
                      {"query", e.query},
                      {"language", LanguageName(e.language)},
                      {"sandboxable", e.sandbox},
                      {"max_limit", e.max_rows},
                      {"cache_duration_seconds", e.cache_seconds},
                      {"proactive_requerying_seconds", e.cache_warming_seconds.value_or(0)},
                      {"redact_pii", e.redact_pii},
                      {"enable_auth", true},
                      {"read_only", read_only},
                      {"parameters", std::move(parameters)}};
}

// The endpoint-file object for a body, over `base` (the stored one, for an update); a 400 for a
// field lqe does not know or a language it does not speak.
std::optional<Outcome> Definition(const json::object& body, json::object* definition) {
  for (const auto& field : body) {
    const auto* known = std::find_if(kFields.begin(), kFields.end(),
                                     [&](const FieldMap& f) { return f.api == field.key(); });
    if (known == kFields.end()) {
      if (std::find(kIgnored.begin(), kIgnored.end(), field.key()) != kIgnored.end()) continue;
      return Error(400, std::string(field.key()) + " is not a field of an endpoint",
                   std::string(field.key()));
    }
    json::value value = field.value();
    if (known->api == "language") {
      if (!value.is_string()) return Error(400, "language must be a string", "language");
      const std::string_view l = value.as_string();
      if (l == "bq_sql" || l == "bigquery") {
        value = "bigquery";
      } else if (l == "ch_sql" || l == "clickhouse") {
        value = "clickhouse";
      } else {
        return Error(400, "language must be one of bq_sql, ch_sql (or bigquery, clickhouse)",
                     "language");
      }
    }
    (*definition)[known->file] = std::move(value);
  }
  return std::nullopt;
}

// Parses and translates `definition` as the gateways will; a 400 with the message (the
// translator's, positioned) when it is refused.
std::variant<std::shared_ptr<EndpointDef>, Outcome> Check(const json::object& definition,
                                                          const GatewayState& state) {
  const json::value* name = definition.if_contains("name");
  const std::string origin =
      "endpoint " + (name != nullptr && name->is_string() ? std::string(name->as_string()) : "");
  auto parsed = ParseEndpointJson(json::serialize(definition), origin);
  if (auto* errors = std::get_if<ConfigErrors>(&parsed)) {
    return Error(400, errors->list.front().message);
  }
  auto endpoint = std::get<std::shared_ptr<EndpointDef>>(std::move(parsed));
  if (!state.catalog) return Error(503, "no field catalogue is loaded to check the query against");
  if (auto refusal = TranslateEndpoint(*endpoint, *state.catalog)) {
    return Error(400, refusal->message, "query");
  }
  return endpoint;
}

const EndpointDef* FileEndpoint(const GatewayState& state, const std::string& item) {
  for (const auto& e : state.config.endpoints) {
    if (!e->from_api && (e->name == item || e->id == item)) return e.get();
  }
  return nullptr;
}

Outcome ReadOnly(const EndpointDef& e) {
  return Error(403, "endpoint " + e.name + " is declared in " + e.file +
                        " and is read-only through the API");
}

// The body applied to `definition` (empty, or the stored one), checked as the gateways will
// load it; the refusal otherwise (a file's endpoint of that name is read-only).
std::optional<Outcome> Apply(const json::object& body, json::object* definition,
                             const GatewayState& state, std::string* name) {
  if (auto bad = Definition(body, definition)) return *bad;
  if (!definition->contains("name")) return Error(400, "name is required", "name");
  if (!definition->contains("query")) return Error(400, "query is required", "query");
  auto checked = Check(*definition, state);
  if (auto* refused = std::get_if<Outcome>(&checked)) return *refused;
  *name = std::get<std::shared_ptr<EndpointDef>>(checked)->name;
  if (const EndpointDef* file = FileEndpoint(state, *name)) return ReadOnly(*file);
  return std::nullopt;
}

std::optional<std::string> Description(const json::object& body) {
  const json::value* d = body.if_contains("description");
  if (d == nullptr || !d->is_string()) return std::nullopt;
  return std::string(d->as_string());
}

constexpr const char* kRowColumns =
    "e.id, e.token::text, coalesce(e.description, ''), e.definition::text";

// A stored row as the API shows it.
json::object RowJson(const pqxx::row& row) {
  auto parsed = ParseEndpointJson(row[3].as<std::string>(), "stored endpoint");
  json::object out;
  if (auto* e = std::get_if<std::shared_ptr<EndpointDef>>(&parsed)) {
    out = EndpointJson(**e, row[0].as<std::int64_t>(), row[1].as<std::string>(),
                       row[2].as<std::string>(), false);
  } else {
    out = json::object{{"id", row[0].as<std::int64_t>()}, {"token", row[1].as<std::string>()}};
  }
  return out;
}

Outcome List(pqxx::work& tx, const GatewayState& state) {
  json::array list;
  for (const auto& e : state.config.endpoints) {
    if (!e->from_api) list.emplace_back(EndpointJson(*e, nullptr, e->id, "", true));
  }
  for (const auto& row : tx.exec(std::string("SELECT ") + kRowColumns +
                                 " FROM lqe_admin.endpoints e ORDER BY e.id")) {
    list.emplace_back(RowJson(row));
  }
  return Outcome{200, json::serialize(list)};
}

Outcome Create(const Call& call, pqxx::work& tx, const GatewayState& state) {
  const json::object& body = call.body->as_object();
  json::object definition;
  std::string name;
  if (auto refused = Apply(body, &definition, state, &name)) return *refused;
  auto row = tx.exec_params(
      std::string("INSERT INTO lqe_admin.endpoints AS e (name, description, definition) "
                  "VALUES ($1, $2, $3::jsonb) ON CONFLICT (name) DO NOTHING RETURNING ") +
          kRowColumns,
      name, Description(body), json::serialize(definition));
  if (row.empty()) return Error(422, "has already been taken", "name");
  Audit(tx, call.actor, "create", "endpoint", row[0][0].as<long long>(),
        row[0][1].as<std::string>(), json::serialize(body));
  return Outcome{201, json::serialize(RowJson(row[0]))};
}

Outcome Update(const Call& call, const ItemKey& key, pqxx::work& tx, const GatewayState& state) {
  auto found = tx.exec_params(
      "SELECT e.definition::text FROM lqe_admin.endpoints e WHERE " + key.where + " FOR UPDATE",
      key.value);
  if (found.empty()) return Error(404, "Not Found");
  json::object definition = json::parse(found[0][0].as<std::string>()).as_object();
  const json::object& body = call.body->as_object();
  std::string name;
  if (auto refused = Apply(body, &definition, state, &name)) return *refused;
  auto row = tx.exec_params(
      "UPDATE lqe_admin.endpoints AS e SET name = $2, definition = $3::jsonb, "
      "description = CASE WHEN $4 THEN $5 ELSE e.description END, updated_at = now() "
      "WHERE " +
          key.where +
          " AND NOT EXISTS (SELECT 1 FROM lqe_admin.endpoints o WHERE o.name = $2 "
          "AND o.id <> e.id) RETURNING " +
          kRowColumns,
      key.value, name, json::serialize(definition), body.contains("description"),
      Description(body));
  if (row.empty()) return Error(422, "has already been taken", "name");
  Audit(tx, call.actor, "update", "endpoint", row[0][0].as<long long>(),
        row[0][1].as<std::string>(), json::serialize(body));
  if (call.method == "PATCH") return Outcome{204, ""};
  return Outcome{200, json::serialize(RowJson(row[0]))};
}

}  // namespace

Outcome Endpoints(const Call& call, Store& store, const GatewayState& state) {
  return store.Transact([&](pqxx::work& tx) -> Outcome {
    if (call.item.empty()) return call.method == "POST" ? Create(call, tx, state) : List(tx, state);
    if (const EndpointDef* file = FileEndpoint(state, call.item)) {
      if (call.method != "GET") return ReadOnly(*file);
      return Outcome{200, json::serialize(EndpointJson(*file, nullptr, file->id, "", true))};
    }
    auto key = KeyOf(call.item, "e.");
    if (!key) {
      // A name, as the query route takes it.
      key = ItemKey{"e.name = $1", call.item};
    }
    if (call.method == "PUT" || call.method == "PATCH") return Update(call, *key, tx, state);
    if (call.method == "DELETE") {
      auto gone = tx.exec_params("DELETE FROM lqe_admin.endpoints e WHERE " + key->where +
                                     " RETURNING e.id, e.token::text",
                                 key->value);
      if (gone.empty()) return Error(404, "Not Found");
      Audit(tx, call.actor, "delete", "endpoint", gone[0][0].as<long long>(),
            gone[0][1].as<std::string>(), "null");
      return Outcome{204, ""};
    }
    auto row = tx.exec_params(
        std::string("SELECT ") + kRowColumns + " FROM lqe_admin.endpoints e WHERE " + key->where,
        key->value);
    if (row.empty()) return Error(404, "Not Found");
    return Outcome{200, json::serialize(RowJson(row[0]))};
  });
}

}  // namespace lqe::gateway::management
