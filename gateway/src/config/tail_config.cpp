// The `tail:` section: limits of the live tail (TailConfig).
#include "config/yaml_util.h"

namespace lqe::gateway::config {

void ParseTail(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  CheckKeys(problems, file, node, "tail",
            {"max_open", "max_per_key", "buffer_events", "buffer_bytes", "heartbeat_ms",
             "replay_max_events", "replay_max_seconds", "across_gateways"});
  TailConfig& t = c.tail;
  auto integer = [&](const char* key, int* out, long long min, long long max) {
    if (node[key]) {
      *out = static_cast<int>(GetInt(file, node[key], std::string("tail.") + key, min, max));
    }
  };
  auto size = [&](const char* key, std::size_t* out, long long min, long long max) {
    if (node[key]) {
      *out =
          static_cast<std::size_t>(GetInt(file, node[key], std::string("tail.") + key, min, max));
    }
  };
  integer("max_open", &t.max_open, 0, 100000);
  integer("max_per_key", &t.max_per_key, 0, 100000);
  size("buffer_events", &t.buffer_events, 1, 1000000);
  size("buffer_bytes", &t.buffer_bytes, 1024, 1LL << 32);
  integer("heartbeat_ms", &t.heartbeat_ms, 10, 3600000);
  size("replay_max_events", &t.replay_max_events, 0, 100000);
  integer("replay_max_seconds", &t.replay_max_seconds, 1, 366LL * 86400);
  if (node["across_gateways"]) {
    t.across_gateways = GetBool(file, node["across_gateways"], "tail.across_gateways");
  }
}

}  // namespace lqe::gateway::config
