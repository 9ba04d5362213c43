// Edge function, realtime and storage events. These sources carry the project only inside
// metadata (project_ref for functions, project for realtime and storage).
#include "demo/generator_context.h"

namespace lqe::demo {
namespace {

constexpr const char* kFunctions[] = {"hello-world", "stripe-webhook", "send-email", "resize-image",
                                      "openai-chat"};
constexpr const char* kRegions[] = {"us-east-1", "eu-central-1", "ap-southeast-1", "sa-east-1"};

// A stable function id per (project, function name), so grouping by function_id is meaningful.
std::string FunctionId(const std::string& project, const char* name) {
  std::uint64_t h = 1469598103934665603ULL;
  for (char ch : project + name) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-4%03x-a%03x-%012llx", static_cast<unsigned>(h >> 32),
                static_cast<unsigned>(h >> 16 & 0xFFFF), static_cast<unsigned>(h >> 4 & 0xFFF),
                static_cast<unsigned>(h >> 8 & 0xFFF),
                static_cast<unsigned long long>(h & 0xFFFFFFFFFFFFULL));
  return buf;
}

}  // namespace

void WriteFunctionEdge(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  const char* fn = c.Pick(kFunctions);
  const char* method = c.Chance(0.85) ? "POST" : (c.Chance(0.5) ? "GET" : "OPTIONS");
  const int status = c.Chance(0.93) ? (method[0] == 'O' ? 204 : 200)
                                    : (c.Chance(0.7) ? 500 : (c.Chance(0.5) ? 401 : 546));
  const std::string version = std::to_string(1 + c.Below(40));
  const std::string url = "https://" + project + ".supabase.co/functions/v1/" + fn;
  const char* region = c.Pick(kRegions);
  JsonWriter w(out);
  w.BeginObject();
  w.Field("id", c.Uuid());
  w.Field("timestamp", IsoTimestamp(ts));
  w.Field("event_message", std::string(method) + " | " + std::to_string(status) + " | " + url);
  w.BeginObject("metadata");
  w.Field("deployment_id", project + "_" + FunctionId(project, fn) + "_" + version);
  w.Field("execution_id", c.Uuid());
  w.FieldInt("execution_time_ms",
             static_cast<std::int64_t>(5 + c.Below(status >= 500 ? 9000 : 800)));
  w.Field("function_id", FunctionId(project, fn));
  w.Field("project_ref", project);
  w.BeginObject("request");
  w.BeginObject("headers");
  w.Field("accept", "*/*");
  w.Field("content_length", std::to_string(c.Below(2048)));
  w.Field("host", project + ".supabase.co");
  w.Field("user_agent", c.UserAgent());
  w.EndObject();
  w.Field("host", project + ".supabase.co");
  w.Field("method", method);
  w.Field("pathname", std::string("/functions/v1/") + fn);
  w.Field("protocol", "https:");
  w.Field("url", url);
  w.EndObject();
  w.Field("request_id", c.Uuid());
  w.BeginObject("response");
  w.BeginObject("headers");
  w.Field("content_length", std::to_string(c.Below(4096)));
  w.Field("content_type", "application/json");
  w.Field("date", HttpDate(ts));
  w.Field("server", std::string("deno/") + region);
  w.Field("vary", "Accept-Encoding");
  w.Field("x_sb_edge_region", region);
  w.EndObject();
  w.FieldInt("status_code", status);
  w.EndObject();
  w.Field("version", version);
  w.EndObject();
  w.EndObject();
}

void WriteFunctionEvents(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  const char* fn = c.Pick(kFunctions);
  static constexpr const char* kTypes[] = {"log", "boot", "shutdown", "uncaughtException"};
  static constexpr int kTypeWeights[] = {85, 7, 6, 2};
  const std::string type = c.Weighted(kTypes, kTypeWeights);
  std::string message, level = "info";
  if (type == "boot") {
    message = "booted (time: " + std::to_string(20 + c.Below(80)) + "ms)";
  } else if (type == "shutdown") {
    message = "shutdown";
  } else if (type == "uncaughtException") {
    message = "TypeError: Cannot read properties of undefined (reading 'email')";
    level = "error";
  } else if (c.Chance(0.1)) {
    message = "Error: failed to send mail to " + c.Email() + " from " + c.Ip();
    level = "error";
  } else {
    message = "processed order " + std::to_string(c.Below(100000)) + " for " + c.Email();
    level = c.Chance(0.1) ? "warning" : "log";
  }
  const std::string version = std::to_string(1 + c.Below(40));
  JsonWriter w(out);
  w.BeginObject();
  w.Field("id", c.Uuid());
  w.Field("timestamp", IsoTimestamp(ts));
  w.Field("event_message", message);
  w.BeginObject("metadata");
  w.Field("deployment_id", project + "_" + FunctionId(project, fn) + "_" + version);
  w.Field("event_type", type);
  w.Field("execution_id", c.Uuid());
  w.Field("function_id", FunctionId(project, fn));
  w.Field("level", level);
  w.Field("project_ref", project);
  w.Field("region", c.Pick(kRegions));
  w.Field("timestamp", IsoTimestamp(ts));
  w.Field("version", version);
  w.EndObject();
  w.EndObject();
}

void WriteRealtime(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  const bool error = c.Chance(0.08);
  const bool metrics = !error && c.Chance(0.3);
  JsonWriter w(out);
  w.BeginObject();
  w.Field("id", c.Uuid());
  w.Field("timestamp", IsoTimestamp(ts));
  w.Field("event_message",
          error     ? "Subscribing to PostgreSQL failed: {:error, \"Subscription insert failed\"}"
          : metrics ? "Billing metrics: [:realtime, :connections]"
                    : "Client joined channel realtime:public:messages from " + c.Ip());
  w.BeginObject("metadata");
  w.BeginObject("context");
  w.Field("application", "realtime");
  w.BeginArray("domain");
  w.String("elixir");
  w.EndArray();
  w.Field("file", "lib/realtime_web/channels/realtime_channel.ex");
  w.Field("function", "handle_info/2");
  w.FieldInt("line", static_cast<std::int64_t>(100 + c.Below(400)));
  w.BeginArray("mfa");
  w.String("Elixir.RealtimeWeb.RealtimeChannel");
  w.String("handle_info");
  w.String("2");
  w.EndArray();
  w.Field("pid", "<0." + std::to_string(c.Below(9000)) + ".81>");
  w.FieldInt("time", ts);
  w.BeginObject("vm");
  w.Field("node", "realtime-prod@" + c.Ipv6());
  w.EndObject();
  w.EndObject();
  w.Field("external_id", project);
  w.Field("level", error ? "error" : "info");
  if (metrics) {
    w.BeginObject("measurements");
    const auto connected = static_cast<std::int64_t>(c.Below(500));
    w.FieldInt("connected", connected);
    w.FieldInt("connected_cluster", connected + static_cast<std::int64_t>(c.Below(100)));
    w.FieldInt("limit", 500);
    w.FieldInt("sum", connected * 3);
    w.EndObject();
  }
  w.Field("project", project);
  w.EndObject();
  w.EndObject();
}

void WriteStorage(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  const bool upload = c.Chance(0.2);
  const int status = c.Chance(0.95) ? (upload ? 201 : 200) : (c.Chance(0.6) ? 404 : 400);
  const std::string ip = c.Ip();
  const std::string url =
      std::string(upload ? "/object/avatars/" : "/object/public/avatars/") + c.Hex(10) + ".png";
  JsonWriter w(out);
  w.BeginObject();
  w.Field("id", c.Uuid());
  w.Field("timestamp", IsoTimestamp(ts));
  w.Field("event_message", c.Chance(0.5) ? "request completed" : "incoming request");
  w.BeginObject("metadata");
  // As self-hosted Supabase ships storage's pino lines: an array context, a numeric level.
  w.BeginArray("context");
  w.BeginObject();
  w.Field("host", "ip-10-105-" + std::to_string(c.Below(255)) + "-" + std::to_string(c.Below(255)) +
                      ".eu-central-1.compute.internal");
  w.FieldInt("pid", static_cast<std::int64_t>(1 + c.Below(20)));
  w.EndObject();
  w.EndArray();
  w.FieldInt("level", status >= 400 ? 40 : 30);
  w.Field("project", project);
  w.BeginObject("req");
  w.BeginObject("headers");
  w.Field("accept", "*/*");
  w.Field("cf_connecting_ip", ip);
  w.Field("host", project + ".supabase.co");
  w.Field("user_agent", c.UserAgent());
  w.Field("x_forwarded_proto", "https");
  w.EndObject();
  w.Field("hostname", project + ".supabase.co");
  w.Field("method", upload ? "POST" : "GET");
  w.Field("remoteAddress", ip);
  w.FieldInt("remotePort", static_cast<std::int64_t>(1024 + c.Below(60000)));
  w.Field("url", url);
  w.EndObject();
  w.Field("reqId", c.Hex(16) + "-FRA");
  w.BeginObject("res");
  w.BeginObject("headers");
  w.FieldInt("content_length", static_cast<std::int64_t>(c.Below(2000000)));
  w.Field("content_type", "image/png");
  w.EndObject();
  w.FieldInt("statusCode", status);
  w.EndObject();
  w.FieldDouble("responseTime", 1.0 + c.Unit() * 400.0, 3);
  w.Field("tenantId", project);
  w.EndObject();
  w.EndObject();
}

}  // namespace lqe::demo
