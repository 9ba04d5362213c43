// /api/backends: Logflare's backends, which Studio's Log Drains page manages (list filtered by
// metadata, create, get, update, delete).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <string_view>

#include "drain/drain_request.h"
#include "management/resources.h"
#include "management/validate.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

// Secrets in the config read "REDACTED" (021_drain_delivery.sql); `delivery` is lqe's: the
// drain's counts, state and lag (lqe_admin.drain_state).
std::string BackendJson(const std::string& alias) {
  const std::string a = alias + ".";
  return "json_build_object('id', " + a + "id, 'token', " + a + "token, 'name', " + a +
         "name, 'description', " + a + "description, 'type', " + a +
         "type, 'config', lqe_admin.masked_config(" + a + "config), 'metadata', " + a +
         "metadata, 'default_ingest?', false, 'inserted_at', to_char(" + a + "inserted_at, " +
         kTimeFormat + "), 'updated_at', to_char(" + a + "updated_at, " + kTimeFormat +
         "), 'delivery', (SELECT json_build_object('status', s.status, 'delivered', s.delivered, "
         "'batches', s.batches, 'failed_batches', s.failed_batches, 'last_error', s.last_error, "
         "'last_error_at', to_char(s.last_error_at, " +
         kTimeFormat + "), 'last_delivered_at', to_char(s.last_delivered_at, " + kTimeFormat +
         "), 'lag_seconds', lqe_admin.drain_lag_seconds(s.backend_id)) "
         "FROM lqe_admin.drain_state s WHERE s.backend_id = " +
         a + "id))";
}

// What the audit log keeps of a body: its fields, but only the names of the config's (its
// values hold API keys and passwords).
std::string AuditDetail(const json::object& body) {
  json::object detail;
  for (const auto& field : body) {
    if (field.key() != "config") {
      detail[field.key()] = field.value();
    } else if (field.value().is_object()) {
      json::array keys;
      for (const auto& c : field.value().as_object()) keys.emplace_back(c.key());
      detail["config_keys"] = std::move(keys);
    }
  }
  return json::serialize(detail);
}

// `metadata[type]=log-drain` and the like, as a jsonb containment filter.
std::string MetadataFilter(const RawParams& params) {
  json::object filter;
  constexpr std::string_view kPrefix = "metadata[";
  for (const auto& [key, value] : params) {
    if (key.size() > kPrefix.size() + 1 && key.compare(0, kPrefix.size(), kPrefix) == 0 &&
        key.back() == ']') {
      filter[key.substr(kPrefix.size(), key.size() - kPrefix.size() - 1)] = value;
    }
  }
  return json::serialize(filter);
}

Outcome List(const Call& call, pqxx::work& tx) {
  auto row = tx.exec_params1("SELECT coalesce(json_agg(" + BackendJson("b") +
                                 " ORDER BY b.id), '[]')::text FROM lqe_admin.backends b "
                                 "WHERE coalesce(b.metadata, '{}') @> $1::jsonb",
                             MetadataFilter(*call.params));
  return Outcome{200, row[0].as<std::string>()};
}

Outcome Create(const Call& call, pqxx::work& tx) {
  const json::object& body = call.body->as_object();
  if (auto bad = CheckBackendBody(body, true)) return Error(bad->status, bad->message, bad->field);
  if (auto bad = CheckBackendConfig(body.at("type").as_string(), body.at("config"))) {
    return Error(bad->status, bad->message, bad->field);
  }
  auto row = tx.exec_params1(
      "INSERT INTO lqe_admin.backends AS b (name, description, type, config, metadata) "
      "SELECT j->>'name', j->>'description', j->>'type', j->'config', "
      "nullif(j->'metadata', 'null'::jsonb) FROM (SELECT $1::jsonb AS j) s "
      "RETURNING b.id, b.token::text, " +
          BackendJson("b") + "::text",
      json::serialize(body));
  Audit(tx, call.actor, "create", "backend", row[0].as<long long>(), row[1].as<std::string>(),
        AuditDetail(body));
  return Outcome{201, row[2].as<std::string>()};
}

Outcome Update(const Call& call, const ItemKey& key, pqxx::work& tx) {
  const json::object& body = call.body->as_object();
  if (auto bad = CheckBackendBody(body, false)) return Error(bad->status, bad->message, bad->field);
  auto found = tx.exec_params(
      "SELECT b.type, b.config::text FROM lqe_admin.backends b WHERE " + key.where + " FOR UPDATE",
      key.value);
  if (found.empty()) return Error(404, "Not Found");
  // A new type is checked against the config it will have: the new one or the stored one.
  if (body.contains("type") || body.contains("config")) {
    const json::value* type = body.if_contains("type");
    const std::string t =
        type != nullptr ? std::string(type->as_string()) : found[0][0].as<std::string>();
    const json::value* config = body.if_contains("config");
    json::value stored;
    if (config == nullptr) {
      stored = json::parse(found[0][1].as<std::string>());
      config = &stored;
    }
    if (auto bad = CheckBackendConfig(t, *config)) {
      return Error(bad->status, bad->message, bad->field);
    }
  }
  auto row = tx.exec_params1(
      "UPDATE lqe_admin.backends AS b SET "
      "name = CASE WHEN j ? 'name' THEN j->>'name' ELSE b.name END, "
      "description = CASE WHEN j ? 'description' THEN j->>'description' ELSE b.description END, "
      "type = CASE WHEN j ? 'type' THEN j->>'type' ELSE b.type END, "
      "config = CASE WHEN j ? 'config' THEN lqe_admin.unmask_config(j->'config', b.config) "
      "ELSE b.config END, "
      "metadata = CASE WHEN j ? 'metadata' THEN nullif(j->'metadata', 'null'::jsonb) "
      "ELSE b.metadata END, updated_at = now() "
      "FROM (SELECT $2::jsonb AS j) s WHERE " +
          key.where + " RETURNING b.id, b.token::text, " + BackendJson("b") + "::text",
      key.value, json::serialize(body));
  Audit(tx, call.actor, "update", "backend", row[0].as<long long>(), row[1].as<std::string>(),
        AuditDetail(body));
  // As Logflare: PUT answers the backend, PATCH 204.
  if (call.method == "PATCH") return Outcome{204, ""};
  return Outcome{200, row[2].as<std::string>()};
}

// POST /api/backends/<id>/test: one probe event sent as a batch is, outside the transaction (a
// receiver may take its whole timeout). Answers Logflare's {"connected?": bool}, with lqe's
// reason when it is false.
Outcome TestConnection(const ItemKey& key, Store& store) {
  std::string type;
  std::string config;
  Outcome found = store.Transact([&](pqxx::work& tx) -> Outcome {
    auto row = tx.exec_params(
        "SELECT b.type, b.config::text FROM lqe_admin.backends b WHERE " + key.where, key.value);
    if (row.empty()) return Error(404, "Not Found");
    type = row[0][0].as<std::string>();
    config = row[0][1].as<std::string>();
    return Outcome{200, ""};
  });
  if (found.status != 200) return found;
  std::error_code ec;
  json::value parsed = json::parse(config, ec);
  const std::string reason = ec || !parsed.is_object()
                                 ? "the stored config is not a JSON object"
                                 : drain::TestConnection(type, parsed.as_object());
  json::object answer{{"connected?", reason.empty()}};
  if (!reason.empty()) answer["reason"] = reason;
  return Outcome{200, json::serialize(answer)};
}

}  // namespace

Outcome Backends(const Call& call, Store& store) {
  if (call.action == "test") {
    auto key = KeyOf(call.item, "b.");
    if (!key) return Error(404, "Not Found");
    return TestConnection(*key, store);
  }
  return store.Transact([&](pqxx::work& tx) -> Outcome {
    if (call.item.empty()) return call.method == "POST" ? Create(call, tx) : List(call, tx);
    auto key = KeyOf(call.item, "b.");
    if (!key) return Error(404, "Not Found");
    if (call.method == "PUT" || call.method == "PATCH") return Update(call, *key, tx);
    if (call.method == "DELETE") {
      auto gone = tx.exec_params(
          "DELETE FROM lqe_admin.backends b WHERE " + key->where + " RETURNING b.id, b.token::text",
          key->value);
      if (gone.empty()) return Error(404, "Not Found");
      Audit(tx, call.actor, "delete", "backend", gone[0][0].as<long long>(),
            gone[0][1].as<std::string>(), "null");
      return Outcome{204, ""};
    }
    auto row = tx.exec_params(
        "SELECT " + BackendJson("b") + "::text FROM lqe_admin.backends b WHERE " + key->where,
        key->value);
    if (row.empty()) return Error(404, "Not Found");
    return Outcome{200, row[0][0].as<std::string>()};
  });
}

}  // namespace lqe::gateway::management
