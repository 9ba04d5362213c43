#include "config/yaml_util.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lqe/base/suggest.h"

namespace lqe::gateway::config {

int LineOf(const YAML::Node& node) {
  return node.Mark().line + 1;
}

void Fail(const std::string& file, const YAML::Node& node, const std::string& message) {
  throw ConfigError{file, node.IsDefined() ? LineOf(node) : 0, message};
}

void CheckKeys(Problems& problems, const std::string& file, const YAML::Node& map,
               std::string_view what, std::initializer_list<std::string_view> allowed) {
  if (!map.IsMap()) Fail(file, map, std::string(what) + " must be a mapping");
  for (const auto& item : map) {
    std::string key = item.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    std::string message = "unknown key '" + key + "' in ";
    message += what;
    if (std::string guess = ClosestMatch(key, allowed, SuggestionLimit(key)); !guess.empty()) {
      message += "; did you mean '" + guess + "'?";
    }
    message += " (allowed: " + list + ")";
    problems.Add(ConfigError{file, LineOf(item.first), std::move(message)});
  }
}

std::string GetString(const std::string& file, const YAML::Node& node, std::string_view key) {
  if (!node.IsScalar()) Fail(file, node, std::string(key) + " must be a string");
  return node.Scalar();
}

long long GetInt(const std::string& file, const YAML::Node& node, std::string_view key,
                 long long min, long long max) {
  long long value = 0;
  if (!node.IsScalar() || !YAML::convert<long long>::decode(node, value)) {
    Fail(file, node, std::string(key) + " must be an integer");
  }
  if (value < min || value > max) {
    Fail(file, node,
         std::string(key) + " must be between " + std::to_string(min) + " and " +
             std::to_string(max));
  }
  return value;
}

bool GetBool(const std::string& file, const YAML::Node& node, std::string_view key) {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    Fail(file, node, std::string(key) + " must be true or false");
  }
  return value;
}

std::string ReadFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

bool SplitListen(const std::string& listen, std::string* host, std::uint16_t* port,
                 std::string* error) {
  const std::size_t colon = listen.rfind(':');
  if (colon == std::string::npos) {
    *error = "listen must be host:port";
    return false;
  }
  std::string h = listen.substr(0, colon);
  if (h.size() >= 2 && h.front() == '[') h = h.substr(1, h.size() - 2);
  try {
    const int p = std::stoi(listen.substr(colon + 1));
    if (p < 0 || p > 65535) throw std::out_of_range("port");
    *port = static_cast<std::uint16_t>(p);
  } catch (const std::exception&) {
    *error = "listen must be host:port with a port between 0 and 65535";
    return false;
  }
  *host = std::move(h);
  return true;
}

std::string ResolvePath(const std::string& base_file, const std::string& relative) {
  std::filesystem::path p(relative);
  if (p.is_absolute()) return p.string();
  return (std::filesystem::absolute(base_file).parent_path() / p).lexically_normal().string();
}

}  // namespace lqe::gateway::config
