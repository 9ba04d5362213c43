// Postgres, auth, PostgREST (restapi) and pooler events; these carry `project` at top level.
#include "demo/generator_context.h"

namespace lqe::demo {
namespace {

void BeginEvent(EventGenerator::Context& c, JsonWriter& w, const std::string& project,
                std::int64_t ts, const std::string& message) {
  w.BeginObject();
  w.Field("id", c.Uuid());
  w.Field("timestamp", IsoTimestamp(ts));
  w.Field("project", project);
  w.Field("event_message", message);
}

}  // namespace

void WritePostgres(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  static constexpr const char* kSeverities[] = {"LOG", "ERROR", "WARNING", "FATAL"};
  static constexpr int kSeverityWeights[] = {86, 8, 5, 1};
  const std::string severity = c.Weighted(kSeverities, kSeverityWeights);
  const std::string from = c.Ipv4() + ":" + std::to_string(1024 + c.Below(60000));
  static constexpr const char* kUsers[] = {"authenticator", "postgres", "supabase_admin",
                                           "supabase_storage_admin", "pgbouncer"};
  std::string message, sql_state = "00000", command = "SELECT";
  if (severity == "ERROR") {
    message = "duplicate key value violates unique constraint \"profiles_email_key\"";
    sql_state = "23505";
    command = "INSERT";
  } else if (severity == "FATAL") {
    message = "password authentication failed for user \"postgres\"";
    sql_state = "28P01";
    command = "authentication";
  } else if (severity == "WARNING") {
    message = "PgBouncer auth request: postgres";
    sql_state = "01000";
  } else if (c.Chance(0.5)) {
    message = "connection received: host=" + from;
    command = "";
  } else {
    message = "duration: " + std::to_string(c.Below(3000)) +
              ".123 ms  statement: SELECT * FROM "
              "profiles WHERE email = '" +
              c.Email() + "'";
  }
  const auto pid = static_cast<std::int64_t>(1000 + c.Below(60000));
  JsonWriter w(out);
  BeginEvent(c, w, project, ts, message);
  w.BeginObject("metadata");
  w.Field("host", "db-" + project);
  w.BeginObject("parsed");
  w.Field("backend_type", "client backend");
  w.Field("command_tag", command);
  w.Field("connection_from", from);
  w.Field("database_name", "postgres");
  if (severity == "ERROR") w.Field("detail", "Key (email)=(" + c.Email() + ") already exists.");
  w.Field("error_severity", severity);
  w.FieldInt("process_id", pid);
  w.FieldInt("query_id", static_cast<std::int64_t>(c.rng() >> 2));
  w.Field("session_id", c.Hex(8) + "." + c.Hex(4));
  w.FieldInt("session_line_num", static_cast<std::int64_t>(1 + c.Below(5000)));
  w.Field("session_start_time", PgLogTime(ts - 3600LL * 1000000));
  w.Field("sql_state_code", sql_state);
  w.Field("timestamp", PgLogTime(ts));
  w.FieldInt("transaction_id", static_cast<std::int64_t>(c.Below(1000000)));
  w.Field("user_name", c.Pick(kUsers));
  w.Field("virtual_transaction_id",
          std::to_string(c.Below(20)) + "/" + std::to_string(c.Below(100000)));
  w.EndObject();
  w.EndObject();
  w.EndObject();
}

void WriteAuth(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  static constexpr const char* kPaths[] = {"/token",  "/user",   "/signup",
                                           "/logout", "/verify", "/recover"};
  const std::string path = c.Pick(kPaths);
  const std::string method = path == "/user" ? "GET" : "POST";
  const bool failed = c.Chance(0.07);
  const std::string email = c.Email();
  const std::string ip = c.Ip();
  const std::string time = IsoTimestamp(ts);
  const std::string msg = failed ? "Invalid login credentials" : "request completed";
  const std::string level = failed ? "error" : "info";
  // GoTrue logs the whole entry as JSON in the message.
  std::string message;
  JsonWriter m(&message);
  m.BeginObject();
  m.Field("component", "api");
  m.Field("level", level);
  m.Field("method", method);
  m.Field("msg", msg);
  m.Field("path", path);
  m.Field("remote_addr", ip);
  m.Field("time", time);
  if (path == "/token") m.Field("login_method", "password");
  m.EndObject();
  JsonWriter w(out);
  BeginEvent(c, w, project, ts, message);
  w.BeginObject("metadata");
  if (path == "/token" && !failed) {
    w.BeginObject("auth_event");
    w.Field("action", "login");
    w.Field("actor_id", c.Uuid());
    w.Field("actor_username", email);
    w.FieldBool("actor_via_sso", false);
    w.Field("log_type", "account");
    w.BeginObject("traits");
    w.Field("provider", "email");
    w.Field("user_email", email);
    w.EndObject();
    w.EndObject();
  }
  w.Field("component", "api");
  if (failed) w.Field("error", "invalid_grant");
  w.Field("host", "db-" + project);
  w.Field("level", level);
  w.Field("method", method);
  w.Field("msg", msg);
  w.Field("path", path);
  w.Field("referer", "https://" + project + "-web.example.com/");
  w.Field("remote_addr", ip);
  w.Field("request_id", c.Hex(16));
  w.Field("time", time);
  w.Field("timestamp", time);
  w.EndObject();
  w.EndObject();
}

void WriteRestapi(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  static constexpr const char* kMessages[] = {"Attempting to connect to the database...",
                                              "Listening on port 3000", "Schema cache loaded",
                                              "Connection successful", "Config reloaded"};
  std::string message = c.Pick(kMessages);
  if (c.Chance(0.5)) {
    message = c.Ip() + " - - [" + HttpDate(ts) + "] \"GET /todos?select=* HTTP/1.1\" " +
              (c.Chance(0.95) ? "200" : "404") + " - \"\" \"" + c.UserAgent() + "\"";
  }
  JsonWriter w(out);
  BeginEvent(c, w, project, ts, message);
  w.BeginObject("metadata");
  w.Field("host", project);
  w.EndObject();
  w.EndObject();
}

void WritePooler(EventGenerator::Context& c, std::string* out) {
  const std::string& project = c.Project();
  const std::int64_t ts = c.Timestamp();
  const std::string client = c.Ipv4() + ":" + std::to_string(1024 + c.Below(60000));
  std::string message;
  const double u = c.Unit();
  if (u < 0.4) {
    message = "S-0x" + c.Hex(12) +
              ": postgres/authenticator@127.0.0.1:5432 new connection to "
              "server (from " +
              client + ")";
  } else if (u < 0.8) {
    message = "C-0x" + c.Hex(12) + ": postgres/authenticator@" + client +
              " login attempt: db=postgres user=authenticator tls=TLSv1.3";
  } else if (u < 0.97) {
    message = "stats: " + std::to_string(c.Below(200)) + " xacts/s, " +
              std::to_string(c.Below(400)) + " queries/s, in " + std::to_string(c.Below(90000)) +
              " B/s, out " + std::to_string(c.Below(200000)) + " B/s";
  } else {
    message = "C-0x" + c.Hex(12) + ": postgres/postgres@" + client +
              " closing because: client unexpected eof (age=0s)";
  }
  JsonWriter w(out);
  BeginEvent(c, w, project, ts, message);
  w.BeginObject("metadata");
  w.Field("host", "db-" + project);
  w.EndObject();
  w.EndObject();
}

}  // namespace lqe::demo
