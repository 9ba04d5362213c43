// /api/rules: which source's events (matching an LQL filter) go to which backend. Studio creates
// one per Supabase source with lql_string ~".*?" when it creates a drain.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <variant>

#include "management/resources.h"
#include "management/validate.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

constexpr const char* kRuleJson =
    "json_build_object('id', r.id, 'token', r.token, 'source_id', r.source_id, 'lql_string', "
    "r.lql_string, 'backend_id', r.backend_id)";

// One rule: checked, its backend and source looked up, inserted. The rule's JSON, or the error.
std::variant<std::string, Outcome> CreateOne(const Call& call, const json::value& item,
                                             pqxx::transaction_base& tx) {
  if (!item.is_object()) return Error(400, "must be an object", "rule");
  const json::object& body = item.as_object();
  if (auto bad = CheckRuleBody(body)) return Error(bad->status, bad->message, bad->field);
  const long long backend_id = *IdOf(body.if_contains("backend_id"));
  const long long source_id = *IdOf(body.if_contains("source_id"));
  auto found = tx.exec_params(
      "SELECT (SELECT count(*) FROM lqe_admin.backends WHERE id = $1), "
      "(SELECT count(*) FROM lqe_admin.sources WHERE id = $2)",
      backend_id, source_id);
  if (found[0][0].as<int>() == 0) return Error(404, "Not Found", "backend_id");
  if (found[0][1].as<int>() == 0) return Error(404, "Not Found", "source_id");
  auto row = tx.exec_params1(
      "INSERT INTO lqe_admin.rules AS r (lql_string, backend_id, source_id) VALUES ($1, $2, $3) "
      "RETURNING r.id, r.token::text, " +
          std::string(kRuleJson) + "::text",
      std::string(body.at("lql_string").as_string()), backend_id, source_id);
  Audit(tx, call.actor, "create", "rule", row[0].as<long long>(), row[1].as<std::string>(),
        json::serialize(body));
  return row[2].as<std::string>();
}

Outcome Create(const Call& call, pqxx::work& tx) {
  if (!call.body->is_array()) {
    auto one = CreateOne(call, *call.body, tx);
    if (auto* error = std::get_if<Outcome>(&one)) return *error;
    return Outcome{201, std::get<std::string>(one)};
  }
  // A batch, as Logflare takes it: each rule on its own; 201 when all were created, else 400
  // with the errors (the valid ones are still created).
  json::array errors;
  std::string results = "[";
  for (const json::value& item : call.body->as_array()) {
    pqxx::subtransaction sub(tx);
    auto one = CreateOne(call, item, sub);
    if (auto* error = std::get_if<Outcome>(&one)) {
      errors.emplace_back(json::parse(error->body).at("error"));
      sub.abort();
      continue;
    }
    sub.commit();
    if (results.size() > 1) results += ',';
    results += std::get<std::string>(one);
  }
  results += ']';
  const std::string body =
      R"({"errors":)" + json::serialize(errors) + R"(,"results":)" + results + "}";
  return Outcome{errors.empty() ? 201 : 400, body, true};
}

Outcome List(const Call& call, pqxx::work& tx) {
  std::string where = "true";
  std::string value;
  for (const char* filter : {"backend_id", "backend_token", "source_id"}) {
    auto it = call.params->find(filter);
    if (it == call.params->end()) continue;
    std::optional<ItemKey> key =
        KeyOf(it->second, std::string_view(filter) == "source_id" ? "src." : "b.");
    if (!key) return Error(404, "Not Found");
    std::string table = std::string_view(filter) == "source_id" ? "sources src" : "backends b";
    auto exists =
        tx.exec_params("SELECT 1 FROM lqe_admin." + table + " WHERE " + key->where, key->value);
    if (exists.empty()) return Error(404, "Not Found");
    where = std::string_view(filter) == "source_id"
                ? "r.source_id = $1::bigint"
                : "r.backend_id = (SELECT b.id FROM lqe_admin.backends b WHERE " + key->where + ")";
    value = key->value;
    break;
  }
  auto row = where == "true"
                 ? tx.exec1("SELECT coalesce(json_agg(" + std::string(kRuleJson) +
                            " ORDER BY r.id), '[]')::text FROM lqe_admin.rules r")
                 : tx.exec_params1("SELECT coalesce(json_agg(" + std::string(kRuleJson) +
                                       " ORDER BY r.id), '[]')::text FROM "
                                       "lqe_admin.rules r WHERE " +
                                       where,
                                   value);
  return Outcome{200, row[0].as<std::string>()};
}

}  // namespace

Outcome Rules(const Call& call, Store& store) {
  return store.Transact([&](pqxx::work& tx) -> Outcome {
    if (call.item.empty()) return call.method == "POST" ? Create(call, tx) : List(call, tx);
    auto key = KeyOf(call.item, "r.");
    if (!key) return Error(404, "Not Found");
    if (call.method == "DELETE") {
      auto gone = tx.exec_params(
          "DELETE FROM lqe_admin.rules r WHERE " + key->where + " RETURNING r.id, r.token::text",
          key->value);
      if (gone.empty()) return Error(404, "Not Found");
      Audit(tx, call.actor, "delete", "rule", gone[0][0].as<long long>(),
            gone[0][1].as<std::string>(), "null");
      return Outcome{204, ""};
    }
    auto row = tx.exec_params(
        "SELECT " + std::string(kRuleJson) + "::text FROM lqe_admin.rules r WHERE " + key->where,
        key->value);
    if (row.empty()) return Error(404, "Not Found");
    return Outcome{200, row[0][0].as<std::string>()};
  });
}

}  // namespace lqe::gateway::management
