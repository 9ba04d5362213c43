// The `ingest:` and `sources:` sections: HTTP ingest's writer connections and limits, and the
// log sources shippers may name.
#include <set>

#include "config/yaml_util.h"
#include "lqe/base/ascii.h"
#include "lqe/base/uuid.h"

namespace lqe::gateway {

std::vector<IngestSource> DefaultIngestSources() {
  return {
      {"cloudflare.logs.prod", "", "edge"},
      {"postgres.logs", "", "postgres"},
      {"deno-relay-logs", "", "function_edge"},
      {"deno-subhosting-events", "", "function_events"},
      {"gotrue.logs.prod", "", "auth"},
      {"realtime.logs.prod", "", "realtime"},
      {"storage.logs.prod.2", "", "storage"},
      {"postgREST.logs.prod", "", "restapi"},
      {"pgbouncer.logs.prod", "", "pooler"},
      // Sources Studio's log pages read that Logflare's seeds lack (docs/endpoints-studio.md).
      {"supavisor.logs.prod", "", "supavisor"},
      {"pg_upgrade.logs.prod", "", "pg_upgrade"},
      {"etl_replication.logs.prod", "", "etl_replication"},
      {"gotrue.audit_logs.prod", "", "auth_audit"},
  };
}

namespace config {
namespace {

bool ValidTableName(const std::string& name) {
  if (name.empty() || name.size() > 48) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace

void ParseIngest(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  CheckKeys(problems, file, node, "ingest",
            {"dsn", "pool_size", "writers_per_table", "max_body_bytes", "max_decompressed_bytes",
             "queue_max_events", "queue_max_bytes", "batch_max_events", "retry_after_seconds",
             "compact_interval_ms", "compact_after_events"});
  IngestConfig& in = c.ingest;
  if (node["dsn"]) in.dsn = GetString(file, node["dsn"], "ingest.dsn");
  if (node["pool_size"]) {
    in.pool_size = static_cast<int>(GetInt(file, node["pool_size"], "ingest.pool_size", 1, 64));
  }
  if (node["writers_per_table"]) {
    in.writers_per_table = static_cast<int>(
        GetInt(file, node["writers_per_table"], "ingest.writers_per_table", 1, 64));
  }
  auto size = [&](const char* key, std::size_t* out, long long min, long long max) {
    if (node[key]) *out = static_cast<std::size_t>(GetInt(file, node[key], key, min, max));
  };
  size("max_body_bytes", &in.max_body_bytes, 1024, 1LL << 30);
  size("max_decompressed_bytes", &in.max_decompressed_bytes, 1024, 1LL << 32);
  size("queue_max_events", &in.queue_max_events, 1, 100000000);
  size("queue_max_bytes", &in.queue_max_bytes, 1024, 1LL << 40);
  size("batch_max_events", &in.batch_max_events, 1, 10000000);
  if (node["retry_after_seconds"]) {
    in.retry_after_seconds = static_cast<int>(
        GetInt(file, node["retry_after_seconds"], "ingest.retry_after_seconds", 1, 3600));
  }
  if (node["compact_interval_ms"]) {
    in.compact_interval_ms = static_cast<int>(
        GetInt(file, node["compact_interval_ms"], "ingest.compact_interval_ms", 0, 3600000));
  }
  size("compact_after_events", &in.compact_after_events, 1, 100000000);
}

void ParseSources(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  if (!node.IsSequence()) Fail(file, node, "sources must be a list");
  c.sources.clear();
  std::set<std::string> names, ids;
  for (const auto& s : node) {
    problems.Collect(file, [&] {
      CheckKeys(problems, file, s, "source", {"name", "id", "table"});
      IngestSource source;
      if (!s["name"]) Fail(file, s, "source has no name");
      source.name = GetString(file, s["name"], "name");
      if (source.name.empty()) Fail(file, s["name"], "source name must not be empty");
      if (!s["table"]) Fail(file, s, "source " + source.name + " needs a table (edge, auth, ...)");
      source.table = GetString(file, s["table"], "table");
      if (!ValidTableName(source.table)) {
        Fail(file, s["table"], "source " + source.name + ": table must be a log table name");
      }
      if (s["id"]) {
        source.id = ascii::Lower(GetString(file, s["id"], "id"));
        if (!IsUuid(source.id)) {
          Fail(file, s["id"], "source " + source.name + ": id must be a UUID");
        }
        if (!ids.insert(source.id).second) Fail(file, s["id"], "duplicate source id " + source.id);
      }
      if (!names.insert(source.name).second) {
        Fail(file, s["name"], "duplicate source name " + source.name);
      }
      c.sources.push_back(std::move(source));
    });
  }
}

void CheckIngestKeys(Problems& problems, const std::string& file, int line, const Config& c) {
  std::set<std::string> names;
  for (const auto& s : c.sources) names.insert(s.name);
  for (const auto& key : c.api_keys) {
    for (const auto& name : key.ingest) {
      if (!names.contains(name)) {
        problems.Add(ConfigError{file, line,
                                 "api key " + key.name + ": ingest names unknown source " + name});
      }
    }
  }
}

}  // namespace config
}  // namespace lqe::gateway
