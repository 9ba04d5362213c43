// Small helpers for reading YAML with file:line errors. A problem that stops reading one part
// (a key, an endpoint, a file) is thrown as a ConfigError; Problems::Collect records it and
// reading goes on with the next part, so one run reports every broken file and endpoint.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/gateway/config.h"

namespace lqe::gateway::config {

class Problems {
 public:
  void Add(ConfigError error) { list_.push_back(std::move(error)); }
  // Runs `read`; a ConfigError or YAML error it throws is recorded against `file`.
  template <typename Read>
  void Collect(const std::string& file, Read&& read) {
    try {
      read();
    } catch (const ConfigError& e) {
      Add(e);
    } catch (const YAML::Exception& e) {
      Add(ConfigError{file, e.mark.line + 1, e.msg});
    }
  }
  bool empty() const { return list_.empty(); }
  std::vector<ConfigError>& list() { return list_; }

 private:
  std::vector<ConfigError> list_;
};

int LineOf(const YAML::Node& node);
[[noreturn]] void Fail(const std::string& file, const YAML::Node& node, const std::string& message);
// Records every key of `map` not in `allowed` (with the nearest allowed key as a suggestion);
// throws when `map` is not a mapping at all.
void CheckKeys(Problems& problems, const std::string& file, const YAML::Node& map,
               std::string_view what, std::initializer_list<std::string_view> allowed);
std::string GetString(const std::string& file, const YAML::Node& node, std::string_view key);
long long GetInt(const std::string& file, const YAML::Node& node, std::string_view key,
                 long long min, long long max);
bool GetBool(const std::string& file, const YAML::Node& node, std::string_view key);
std::string ReadFile(const std::string& path, bool* ok);
// "host:port" (or "[v6]:port") into its parts; false with *error set when it is not one.
bool SplitListen(const std::string& listen, std::string* host, std::uint16_t* port,
                 std::string* error);
std::string ResolvePath(const std::string& base_file, const std::string& relative);

}  // namespace lqe::gateway::config
