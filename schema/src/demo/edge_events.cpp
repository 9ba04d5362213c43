// API gateway (edge) events: one HTTP request through the gateway, shaped like the ingest sample.
#include "demo/generator_context.h"

namespace lqe::demo {
namespace {

struct Route {
  const char* path;
  const char* search;
};

// Paths across the Supabase services; a few touch two services (rpc/auth_storage, ...).
constexpr Route kRoutes[] = {
    {"/rest/v1/todos", "?select=*&order=inserted_at.desc"},
    {"/rest/v1/profiles", "?select=id,username,avatar_url&id=eq."},
    {"/rest/v1/messages", "?select=*,author:profiles(username)&channel_id=eq.1"},
    {"/rest/v1/orders", "?status=eq.pending&limit=50"},
    {"/rest/v1/products", ""},
    {"/rest/v1/countries", "?select=name"},
    {"/rest/v1/rpc/get_stats", ""},
    {"/rest/v1/rpc/search_items", "?q=shoes"},
    {"/rest/v1/rpc/auth_storage", ""},
    {"/storage/v1/object/public/avatars/", ""},
    {"/storage/v1/object/sign/documents/report.pdf", "?token=eyJhbGciOi"},
    {"/storage/v1/object/list/avatars", ""},
    {"/storage/v1/render/image/public/rest/v1.png", "?width=1920&height=0&quality=85"},
    {"/auth/v1/token", "?grant_type=password"},
    {"/auth/v1/token", "?grant_type=refresh_token"},
    {"/auth/v1/user", ""},
    {"/auth/v1/signup", ""},
    {"/auth/v1/logout", ""},
    {"/auth/v1/verify", "?type=signup&redirect_to=https://app.example.com"},
    {"/realtime/v1/websocket", "?vsn=1.0.0"},
    {"/functions/v1/hello-world", ""},
    {"/functions/v1/stripe-webhook", ""},
    {"/functions/v1/send-email", ""},
    {"/graphql/v1", ""},
};
constexpr int kRouteWeights[] = {30, 16, 12, 6, 6, 3, 4, 2, 1, 8, 2, 2,
                                 1,  9,  7,  8, 2, 2, 1, 6, 3, 1, 1, 2};

constexpr const char* kCities[][4] = {
    {"Berlin", "DE", "EU", "TXL"},   {"Frankfurt", "DE", "EU", "FRA"},
    {"London", "GB", "EU", "LHR"},   {"Ashburn", "US", "NA", "IAD"},
    {"San Jose", "US", "NA", "SJC"}, {"Singapore", "SG", "AS", "SIN"},
    {"Sydney", "AU", "OC", "SYD"},   {"Sao Paulo", "BR", "SA", "GRU"},
    {"Mumbai", "IN", "AS", "BOM"},   {"Tokyo", "JP", "AS", "NRT"}};

const char* Method(EventGenerator::Context& c, const char* path) {
  const std::string_view p(path);
  if (p.find("/auth/v1/token") == 0 || p == "/auth/v1/signup" || p == "/auth/v1/logout" ||
      p.find("/functions/") == 0 || p.find("/rpc/") != std::string_view::npos) {
    return c.Chance(0.9) ? "POST" : "OPTIONS";
  }
  static constexpr const char* kMethods[] = {"GET", "POST", "PATCH", "DELETE", "OPTIONS", "HEAD"};
  static constexpr int kWeights[] = {70, 14, 6, 3, 6, 1};
  return c.Weighted(kMethods, kWeights);
}

int Status(EventGenerator::Context& c, std::string_view method) {
  const double u = c.Unit();
  if (u < 0.01) {
    static constexpr int k5xx[] = {500, 502, 503, 504};
    return c.Pick(k5xx);
  }
  if (u < 0.08) {
    static constexpr int k4xx[] = {400, 401, 401, 403, 404, 404, 406, 409, 422, 429};
    return c.Pick(k4xx);
  }
  if (method == "POST") return c.Chance(0.5) ? 201 : 200;
  if (method == "DELETE" || method == "OPTIONS") return 204;
  return c.Chance(0.03) ? 206 : 200;
}

void WriteCf(EventGenerator::Context& c, JsonWriter& w, const char* const (&city)[4]) {
  w.BeginObject("cf");
  w.Field("asOrganization", c.Chance(0.5) ? "Deutsche Telekom AG" : "Amazon.com");
  w.FieldInt("asn", static_cast<std::int64_t>(1000 + c.Below(60000)));
  w.BeginObject("botManagement");
  w.FieldBool("corporateProxy", false);
  w.BeginArray("detectionIds");
  if (c.Chance(0.1)) w.Int(static_cast<std::int64_t>(33554000 + c.Below(1000)));
  w.EndArray();
  w.Field("ja3Hash", c.Hex(32));
  w.FieldInt("score", static_cast<std::int64_t>(1 + c.Below(99)));
  w.FieldBool("staticResource", false);
  w.FieldBool("verifiedBot", c.Chance(0.02));
  w.EndObject();
  w.Field("city", city[0]);
  w.FieldInt("clientTcpRtt", static_cast<std::int64_t>(5 + c.Below(200)));
  w.Field("colo", city[3]);
  w.Field("continent", city[2]);
  w.Field("country", city[1]);
  w.Field("httpProtocol", c.Chance(0.6) ? "HTTP/2" : "HTTP/1.1");
  w.Field("tlsCipher", "AEAD-AES128-GCM-SHA256");
  w.Field("tlsVersion", "TLSv1.3");
  w.EndObject();
}

void WriteSb(EventGenerator::Context& c, JsonWriter& w, bool authed) {
  w.BeginObject("sb");
  if (authed) w.Field("auth_user", c.Uuid());
  w.BeginObject("jwt");
  w.BeginObject("apikey");
  w.BeginObject("payload");
  w.Field("algorithm", "HS256");
  w.Field("issuer", "supabase");
  w.Field("role", c.Chance(0.85) ? "anon" : "service_role");
  w.EndObject();
  w.EndObject();
  if (authed) {
    w.BeginObject("authorization");
    w.BeginObject("payload");
    w.Field("algorithm", "HS256");
    w.Field("issuer", "https://supabase.co/auth/v1");
    w.Field("role", "authenticated");
    w.Field("subject", c.Uuid());
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
}

}  // namespace

void WriteEdge(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  const Route& route = c.Weighted(kRoutes, kRouteWeights);
  std::string path = route.path;
  if (path.back() == '/') path += c.Hex(8) + ".png";
  std::string search = route.search;
  if (search.find("id=eq.") != std::string::npos) search += c.Uuid();
  if (c.Chance(0.01)) search = "?email=eq." + c.Email();
  const char* method = Method(c, route.path);
  const int status = Status(c, method);
  const std::string host = project + ".supabase.co";
  const std::string url = "https://" + host + path + search;
  const std::string ip = c.Ip();
  const std::string ray = c.Hex(16);
  const std::string agent = c.UserAgent();
  const auto& city = c.Pick(kCities);

  JsonWriter w(out);
  w.BeginObject();
  w.Field("id", c.Uuid());
  w.Field("timestamp", IsoTimestamp(ts));
  w.Field("project", project);
  w.Field("event_message", std::string(method) + " | " + std::to_string(status) + " | " + ip +
                               " | " + ray + " | " + url + " | " + agent);
  w.BeginObject("metadata");
  w.BeginObject("logflare_worker");
  w.Field("worker_id", c.Hex(6));
  w.EndObject();
  w.BeginObject("request");
  WriteCf(c, w, city);
  w.BeginObject("headers");
  w.Field("accept", "application/json");
  w.Field("cf_connecting_ip", ip);
  w.Field("cf_ipcountry", city[1]);
  w.Field("cf_ray", ray);
  if (std::string_view(method) == "POST") w.Field("content_length", std::to_string(c.Below(4096)));
  w.Field("host", host);
  if (c.Chance(0.3)) w.Field("referer", "https://" + project + "-web.example.com/");
  w.Field("user_agent", agent);
  w.Field("x_client_info", c.Chance(0.7) ? "supabase-js-web/2.39.3" : "supabase-flutter/2.0.0");
  w.Field("x_forwarded_proto", "https");
  w.Field("x_real_ip", ip);
  w.EndObject();
  w.Field("host", host);
  w.Field("method", method);
  w.Field("path", path);
  w.Field("protocol", "https:");
  w.Field("search", search);
  w.Field("url", url);
  WriteSb(c, w, c.Chance(0.4));
  w.EndObject();
  w.BeginObject("response");
  w.BeginObject("headers");
  w.Field("cf_cache_status", c.Chance(0.9) ? "DYNAMIC" : "HIT");
  w.Field("cf_ray", ray + "-" + city[3]);
  w.Field("content_length", std::to_string(c.Below(50000)));
  w.Field("content_type", "application/json; charset=utf-8");
  w.Field("date", HttpDate(ts));
  w.Field("sb_gateway_version", "1");
  if (status >= 400 && route.path[1] == 'a') w.Field("x_sb_error_code", "invalid_credentials");
  w.EndObject();
  w.FieldInt("origin_time", static_cast<std::int64_t>(3 + c.Below(status >= 500 ? 30000 : 400)));
  w.FieldInt("status_code", status);
  w.EndObject();
  w.EndObject();
  w.EndObject();
}

}  // namespace lqe::demo
