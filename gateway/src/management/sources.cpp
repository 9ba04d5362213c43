// /api/sources: the nine sources of a Supabase stack (seeded by the migration, read only) and
// those created through the API.
#include <boost/json/serialize.hpp>

#include "management/resources.h"
#include "management/validate.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

std::string SourceJson() {
  return std::string(
             "json_build_object('id', s.id, 'token', s.token, 'name', s.name, 'description', "
             "s.description, 'favorite', false, 'public_token', null, 'read_only', s.read_only, "
             "'inserted_at', to_char(s.inserted_at, ") +
         kTimeFormat + "), 'updated_at', to_char(s.updated_at, " + kTimeFormat + "))";
}

Outcome NameTaken() {
  return Error(422, "has already been taken", "name");
}

Outcome Create(const Call& call, pqxx::work& tx) {
  const json::object& body = call.body->as_object();
  if (auto bad = CheckSourceBody(body, true)) return Error(bad->status, bad->message, bad->field);
  auto row = tx.exec_params(
      "INSERT INTO lqe_admin.sources AS s (name, description) SELECT j->>'name', "
      "j->>'description' FROM (SELECT $1::jsonb AS j) x ON CONFLICT (name) DO NOTHING "
      "RETURNING s.id, s.token::text, " +
          SourceJson() + "::text",
      json::serialize(body));
  if (row.empty()) return NameTaken();
  Audit(tx, call.actor, "create", "source", row[0][0].as<long long>(), row[0][1].as<std::string>(),
        json::serialize(body));
  return Outcome{201, row[0][2].as<std::string>()};
}

// The row to change or delete, refused when lqe declared it.
std::optional<Outcome> Writable(const ItemKey& key, pqxx::work& tx) {
  auto found = tx.exec_params(
      "SELECT s.name, s.read_only FROM lqe_admin.sources s WHERE " + key.where + " FOR UPDATE",
      key.value);
  if (found.empty()) return Error(404, "Not Found");
  if (found[0][1].as<bool>()) {
    return Error(403, "source " + found[0][0].as<std::string>() +
                          " is declared by lqe and is read-only through the API");
  }
  return std::nullopt;
}

Outcome Update(const Call& call, const ItemKey& key, pqxx::work& tx) {
  const json::object& body = call.body->as_object();
  if (auto bad = CheckSourceBody(body, false)) return Error(bad->status, bad->message, bad->field);
  if (auto refused = Writable(key, tx)) return *refused;
  if (const json::value* name = body.if_contains("name")) {
    auto clash = tx.exec_params(
        "SELECT 1 FROM lqe_admin.sources s WHERE s.name = $2 AND NOT (" + key.where + ")",
        key.value, std::string(name->as_string()));
    if (!clash.empty()) return NameTaken();
  }
  auto row = tx.exec_params1(
      "UPDATE lqe_admin.sources AS s SET "
      "name = CASE WHEN j ? 'name' THEN j->>'name' ELSE s.name END, "
      "description = CASE WHEN j ? 'description' THEN j->>'description' ELSE s.description END, "
      "updated_at = now() FROM (SELECT $2::jsonb AS j) x WHERE " +
          key.where + " RETURNING s.id, s.token::text, " + SourceJson() + "::text",
      key.value, json::serialize(body));
  Audit(tx, call.actor, "update", "source", row[0].as<long long>(), row[1].as<std::string>(),
        json::serialize(body));
  if (call.method == "PATCH") return Outcome{204, ""};
  return Outcome{200, row[2].as<std::string>()};
}

// GET /api/sources/<id>/schema: the source's fields and their BigQuery types (REPEATED ones as
// ARRAY<type>), flat by dotted path as logs.field_catalogue records them; {} for a source lqe
// does not ingest.
Outcome Schema(const Call& call, const ItemKey& key, pqxx::work& tx) {
  auto found =
      tx.exec_params("SELECT s.name FROM lqe_admin.sources s WHERE " + key.where, key.value);
  if (found.empty()) return Error(404, "Not Found");
  const std::string name = found[0][0].as<std::string>();
  std::string table;
  for (const IngestSource& s : *call.ingest_sources) {
    if (s.name == name) table = s.table;
  }
  if (table.empty()) return Outcome{200, "{}"};
  auto row = tx.exec_params1(
      "SELECT coalesce(json_object_agg(c.path, CASE c.mode WHEN 'REPEATED' THEN "
      "'ARRAY<' || c.bq_type || '>' ELSE c.bq_type END ORDER BY c.path), '{}')::text "
      "FROM logs.field_catalogue c WHERE c.source = $1",
      table);
  return Outcome{200, row[0].as<std::string>()};
}

}  // namespace

Outcome Sources(const Call& call, Store& store) {
  return store.Transact([&](pqxx::work& tx) -> Outcome {
    if (call.action == "schema") {
      auto key = KeyOf(call.item, "s.");
      if (!key) return Error(404, "Not Found");
      return Schema(call, *key, tx);
    }
    if (call.item.empty()) {
      if (call.method == "POST") return Create(call, tx);
      auto row = tx.exec1("SELECT coalesce(json_agg(" + SourceJson() +
                          " ORDER BY s.id), '[]')::text FROM lqe_admin.sources s");
      return Outcome{200, row[0].as<std::string>()};
    }
    auto key = KeyOf(call.item, "s.");
    if (!key) return Error(404, "Not Found");
    if (call.method == "PUT" || call.method == "PATCH") return Update(call, *key, tx);
    if (call.method == "DELETE") {
      if (auto refused = Writable(*key, tx)) return *refused;
      auto gone = tx.exec_params1(
          "DELETE FROM lqe_admin.sources s WHERE " + key->where + " RETURNING s.id, s.token::text",
          key->value);
      Audit(tx, call.actor, "delete", "source", gone[0].as<long long>(), gone[1].as<std::string>(),
            "null");
      return Outcome{204, ""};
    }
    auto row = tx.exec_params(
        "SELECT " + SourceJson() + "::text FROM lqe_admin.sources s WHERE " + key->where,
        key->value);
    if (row.empty()) return Error(404, "Not Found");
    return Outcome{200, row[0][0].as<std::string>()};
  });
}

}  // namespace lqe::gateway::management
