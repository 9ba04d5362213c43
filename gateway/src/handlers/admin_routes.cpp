#include "handlers/admin_routes.h"

#include <openssl/crypto.h>

#include "lqe/gateway/auth.h"

namespace lqe::gateway {

std::optional<Response> AdminRouteRefusal(const Request& request, Route::Kind kind,
                                          const Context& context) {
  const AdminConfig& admin = context.state->config.admin;
  bool admin_route =
      kind == Route::Kind::kMetrics || kind == Route::Kind::kHealth || kind == Route::Kind::kReady;
  std::string path = request.target.substr(0, request.target.find('?'));
  if (context.admin_listener && !admin_route) {
    return ToResponse(MakeError(
        404, "no route for " + path + " on the admin listener (only /metrics, /health, /ready)",
        "not_found"));
  }
  if (kind != Route::Kind::kMetrics) return std::nullopt;
  if (admin.separate() && !context.admin_listener) {
    return ToResponse(
        MakeError(404, "no route for /metrics here: it is served on admin.listen", "not_found"));
  }
  if (!admin.metrics_key_sha256) return std::nullopt;
  std::string token = ExtractToken(request, nullptr);
  auto digest = Sha256(token);
  if (token.empty() ||
      CRYPTO_memcmp(digest.data(), admin.metrics_key_sha256->data(), digest.size()) != 0) {
    GatewayError error = MakeError(401, "/metrics needs the metrics key", "unauthorized");
    error.headers.emplace_back("WWW-Authenticate", "Bearer");
    return ToResponse(error);
  }
  return std::nullopt;
}

}  // namespace lqe::gateway
