// The management API's resources (Logflare's /api/backends, /api/sources, /api/rules): each
// takes a call that passed auth and JSON parsing and answers it inside one transaction.
#pragma once

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lqe/gateway/config.h"
#include "lqe/gateway/handler.h"
#include "lqe/gateway/params.h"
#include "management/store.h"

namespace lqe::gateway::management {

struct Call {
  std::string method;
  std::string item;  // the path segment after the collection (id or token); empty: collection
  const RawParams* params = nullptr;
  const boost::json::value* body = nullptr;  // parsed JSON, for POST, PUT and PATCH
  Actor actor;
  std::string action;                                         // "test", "schema" or empty
  const std::vector<IngestSource>* ingest_sources = nullptr;  // source names to log tables
};

Outcome Backends(const Call& call, Store& store);
Outcome Sources(const Call& call, Store& store);
Outcome Rules(const Call& call, Store& store);
// /api/endpoints also lists and protects the endpoints of the operator's files in `state`, and
// checks a query against its catalogue.
Outcome Endpoints(const Call& call, Store& store, const GatewayState& state);

// An item segment as a SQL condition on `column_prefix`id or `column_prefix`token with $1 its
// value: digits name the integer id, a UUID the token. nullopt: it names nothing (404).
struct ItemKey {
  std::string where;
  std::string value;
};
std::optional<ItemKey> KeyOf(const std::string& item, const std::string& column_prefix);

// Timestamps as Logflare writes them (UTC, no zone suffix).
inline constexpr const char* kTimeFormat = R"('YYYY-MM-DD"T"HH24:MI:SS')";

}  // namespace lqe::gateway::management
