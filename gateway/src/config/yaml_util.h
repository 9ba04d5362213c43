// Small helpers for reading YAML with file:line errors.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "lqe/gateway/config.h"

namespace lqe::gateway::config {

// Thrown while reading; LoadConfig turns it into a ConfigError.
struct YamlProblem {
  std::string file;
  int line;
  std::string message;
};

[[noreturn]] void Fail(const std::string& file, const YAML::Node& node, const std::string& message);
void CheckKeys(const std::string& file, const YAML::Node& map, std::string_view what,
               std::initializer_list<std::string_view> allowed);
std::string GetString(const std::string& file, const YAML::Node& node, std::string_view key);
long long GetInt(const std::string& file, const YAML::Node& node, std::string_view key,
                 long long min, long long max);
bool GetBool(const std::string& file, const YAML::Node& node, std::string_view key);
int LineOf(const YAML::Node& node);
std::string ReadFile(const std::string& path, bool* ok);
std::string ResolvePath(const std::string& base_file, const std::string& relative);

}  // namespace lqe::gateway::config
