// The operator's settings: listen.tls, admin (its listener and the /metrics key), log.format
// and retention.
#include <re2/re2.h>

#include "config/yaml_util.h"
#include "lqe/gateway/auth.h"

namespace lqe::gateway::config {

void ParseListenAddress(const std::string& file, const YAML::Node& node, std::string_view what,
                        std::string* host, std::uint16_t* port) {
  std::string error;
  if (!SplitListen(GetString(file, node, what), host, port, &error)) {
    Fail(file, node, std::string(what) + error.substr(std::string_view("listen").size()));
  }
}

void ParseListenTls(Problems& problems, const std::string& file, const YAML::Node& node,
                    Config& c) {
  CheckKeys(problems, file, node, "listen.tls", {"cert_file", "key_file"});
  if (!node["cert_file"] || !node["key_file"]) {
    Fail(file, node, "listen.tls needs cert_file and key_file (PEM)");
  }
  c.tls.cert_file = ResolvePath(file, GetString(file, node["cert_file"], "cert_file"));
  c.tls.key_file = ResolvePath(file, GetString(file, node["key_file"], "key_file"));
  for (const std::string* path : {&c.tls.cert_file, &c.tls.key_file}) {
    bool ok = false;
    ReadFile(*path, &ok);
    if (!ok) Fail(file, node, "cannot read " + *path);
  }
}

void ParseAdmin(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  CheckKeys(problems, file, node, "admin",
            {"listen", "metrics_key_sha256", "metrics_key_sha256_file"});
  if (node["listen"]) {
    ParseListenAddress(file, node["listen"], "admin.listen", &c.admin.listen_host,
                       &c.admin.listen_port);
  }
  std::string hex;
  if (node["metrics_key_sha256"] && node["metrics_key_sha256_file"]) {
    Fail(file, node, "give admin.metrics_key_sha256 or metrics_key_sha256_file, not both");
  } else if (node["metrics_key_sha256"]) {
    hex = GetString(file, node["metrics_key_sha256"], "metrics_key_sha256");
  } else if (node["metrics_key_sha256_file"]) {
    std::string path = ResolvePath(
        file, GetString(file, node["metrics_key_sha256_file"], "metrics_key_sha256_file"));
    bool ok = false;
    hex = ReadFile(path, &ok);
    if (!ok) Fail(file, node["metrics_key_sha256_file"], "cannot read " + path);
    hex = hex.substr(0, hex.find_first_of(" \t\r\n"));
  } else {
    return;
  }
  std::array<unsigned char, 32> digest{};
  if (!ParseSha256Hex(hex, &digest)) {
    Fail(file, node, "admin.metrics_key_sha256 must be 64 hex digits");
  }
  c.admin.metrics_key_sha256 = digest;
}

void ParseLog(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  CheckKeys(problems, file, node, "log", {"format"});
  if (node["format"]) {
    std::string format = GetString(file, node["format"], "log.format");
    if (format != "text" && format != "json") {
      Fail(file, node["format"], "log.format must be text or json, not " + format);
    }
    c.log_json = format == "json";
  }
}

void ParseRetention(Problems& problems, const std::string& file, const YAML::Node& node,
                    Config& c) {
  CheckKeys(problems, file, node, "retention",
            {"dsn", "days", "sources", "max_disk_bytes", "interval_seconds", "ahead_days"});
  RetentionConfig& r = c.retention;
  if (node["dsn"]) r.dsn = GetString(file, node["dsn"], "retention.dsn");
  if (node["days"]) r.days = static_cast<int>(GetInt(file, node["days"], "days", 0, 100000));
  if (node["max_disk_bytes"]) {
    r.max_disk_bytes = static_cast<std::uint64_t>(
        GetInt(file, node["max_disk_bytes"], "max_disk_bytes", 0, 1LL << 60));
  }
  if (node["interval_seconds"]) {
    r.interval_seconds = static_cast<int>(
        GetInt(file, node["interval_seconds"], "interval_seconds", 1, 86400LL * 7));
  }
  if (node["ahead_days"]) {
    r.ahead_days = static_cast<int>(GetInt(file, node["ahead_days"], "ahead_days", 0, 366));
  }
  if (const YAML::Node& sources = node["sources"]) {
    if (!sources.IsMap()) Fail(file, sources, "retention.sources maps a log table to its days");
    static const RE2 table_pattern("[a-z_][a-z0-9_]{0,40}");
    for (const auto& entry : sources) {
      std::string table = GetString(file, entry.first, "retention.sources");
      if (!RE2::FullMatch(table, table_pattern)) {
        Fail(file, entry.first, "retention.sources: not a log table name: " + table);
      }
      r.sources[table] = static_cast<int>(GetInt(file, entry.second, table, 0, 100000));
    }
  }
}

}  // namespace lqe::gateway::config
