#include "management/routes.h"

#include <array>

#include "lqe/gateway/auth.h"
#include "management/openapi.h"
#include "management/resources.h"
#include "management/validate.h"

namespace lqe::gateway::management {
namespace {

namespace json = boost::json;

constexpr std::array<std::string_view, 4> kCollections = {"backends", "sources", "rules",
                                                          "endpoints"};

struct Target {
  std::string_view collection;
  std::string item;
  std::string action;  // "test" of a backend, "schema" of a source; empty otherwise
};

// "/api/<collection>[/<item>[/<action>]]" (a trailing slash allowed); nullopt for anything else.
std::optional<Target> Split(std::string_view path) {
  constexpr std::string_view kPrefix = "/api/";
  if (path.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view rest = path.substr(kPrefix.size());
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  std::string_view collection = rest.substr(0, rest.find('/'));
  auto known = std::find(kCollections.begin(), kCollections.end(), collection);
  if (known == kCollections.end()) return std::nullopt;
  Target target{*known, "", ""};
  if (rest.size() > collection.size()) {
    std::string_view item = rest.substr(collection.size() + 1);
    const std::size_t slash = item.find('/');
    if (slash != std::string_view::npos) {
      const std::string_view action = item.substr(slash + 1);
      const bool known_action = (collection == "backends" && action == "test") ||
                                (collection == "sources" && action == "schema");
      if (!known_action) return std::nullopt;
      target.action = std::string(action);
      item = item.substr(0, slash);
    }
    // /api/endpoints/query/<endpoint> is the query route, not an endpoint named "query".
    if (item.empty() || (collection == "endpoints" && item == "query")) return std::nullopt;
    target.item = std::string(item);
  }
  return target;
}

std::string_view AllowedMethods(const Target& target) {
  if (target.action == "test") return "POST, OPTIONS";
  if (target.action == "schema") return "GET, OPTIONS";
  if (target.item.empty()) return "GET, POST, OPTIONS";
  if (target.collection == "rules") return "GET, DELETE, OPTIONS";
  return "GET, PUT, PATCH, DELETE, OPTIONS";
}

Response ToResponse(const Outcome& outcome) {
  Response response;
  response.status = outcome.status;
  response.body = outcome.body;
  if (outcome.status == 204) response.content_type.clear();
  return response;
}

Response Refuse(int status, const std::string& message) {
  return ToResponse(Error(status, message));
}

Actor ActorOf(const ApiKey& key) {
  return Actor{key.name, HexEncode(key.sha256.data(), 8)};
}

constexpr std::string_view kOpenApi = "/api/openapi";

// Any valid key may read the document (it names the endpoints and their columns, never the
// queries).
Response OpenApi(const Request& request, const RawParams& params, const GatewayState& state) {
  if (request.method != "GET") {
    Response response = Refuse(405, "method " + request.method + " is not allowed here");
    response.AddHeader("Allow", "GET");
    return response;
  }
  auto api_key = params.find("api_key");
  const std::string* given = api_key == params.end() ? nullptr : &api_key->second;
  if (FindApiKey(state.config.api_keys, ExtractToken(request, given)) == nullptr) {
    return Refuse(401, "Unauthorized");
  }
  Response response;
  response.status = 200;
  response.body = OpenApiDocument(state);
  return response;
}

}  // namespace

bool IsManagementPath(std::string_view path) {
  return path == kOpenApi || Split(path).has_value();
}

Response Handle(const Request& request, const GatewayState& state) {
  std::string path;
  RawParams params;
  if (!ParseQueryString(request.target, &path, &params)) {
    return Refuse(400, "malformed request target");
  }
  if (path == kOpenApi) return OpenApi(request, params, state);
  auto target = Split(path);
  if (!target) return Refuse(404, "Not Found");
  const std::string_view allowed = AllowedMethods(*target);
  if (request.method == "OPTIONS") {
    Response response;
    response.status = 204;
    response.content_type.clear();
    response.AddHeader("Access-Control-Allow-Methods", std::string(allowed));
    response.AddHeader("Access-Control-Allow-Headers",
                       "Authorization, Content-Type, Accept, X-API-KEY");
    response.AddHeader("Access-Control-Max-Age", "1728000");
    return response;
  }
  auto api_key = params.find("api_key");
  const ApiKey* key =
      FindApiKey(state.config.api_keys,
                 ExtractToken(request, api_key == params.end() ? nullptr : &api_key->second));
  if (key == nullptr) return Refuse(401, "Unauthorized");
  if (!key->private_api) {
    return Refuse(403, "Forbidden: the management API needs a key with the private scope");
  }
  const std::string method_item = request.method + ",";
  const std::string allowed_list = std::string(allowed) + ",";
  if (request.method.empty() || (allowed_list.find(" " + method_item) == std::string::npos &&
                                 allowed_list.substr(0, method_item.size()) != method_item)) {
    Response response = Refuse(405, "method " + request.method + " is not allowed here");
    response.AddHeader("Allow", std::string(allowed));
    return response;
  }
  Call call{request.method, target->item,         &params, nullptr, ActorOf(*key),
            target->action, &state.config.sources};
  json::value body;
  if ((request.method == "POST" && target->action.empty()) || request.method == "PUT" ||
      request.method == "PATCH") {
    if (auto bad = ParseBody(request.body, &body)) return Refuse(bad->status, bad->message);
    const bool batch = target->collection == "rules" && body.is_array();
    if (!body.is_object() && !batch) return Refuse(400, "the body must be a JSON object");
    call.body = &body;
  }
  if (state.config.dsn.empty()) return Refuse(503, "no database is configured");
  auto store = StoreFor(state.config.dsn, state.config.connect_timeout_ms);
  if (target->collection == "backends") return ToResponse(Backends(call, *store));
  if (target->collection == "sources") return ToResponse(Sources(call, *store));
  if (target->collection == "endpoints") return ToResponse(Endpoints(call, *store, state));
  return ToResponse(Rules(call, *store));
}

}  // namespace lqe::gateway::management
