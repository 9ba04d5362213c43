#include "lqe/gateway/config_diff.h"

#include <algorithm>
#include <map>

namespace lqe::gateway {
namespace {

template <typename T, typename Name, typename Same>
void Compare(const std::vector<T>& was, const std::vector<T>& now, const std::string& what,
             Name name, Same same, std::vector<std::string>* out) {
  std::map<std::string, const T*> before, after;
  for (const T& item : was) before[name(item)] = &item;
  for (const T& item : now) after[name(item)] = &item;
  const auto line = [&](const std::string& key, std::string_view change) {
    std::string text = what;
    text += ' ';
    text += key;
    text += ' ';
    text += change;
    out->push_back(std::move(text));
  };
  for (const auto& [key, item] : after) {
    auto it = before.find(key);
    if (it == before.end()) {
      line(key, "added");
    } else if (!same(*it->second, *item)) {
      line(key, "changed");
    }
  }
  for (const auto& [key, item] : before) {
    if (!after.contains(key)) line(key, "removed");
  }
}

}  // namespace

std::vector<std::string> DescribeConfigChanges(const Config& was, const Config& now) {
  std::vector<std::string> out;
  Compare(
      was.endpoints, now.endpoints, "endpoint", [](const auto& e) { return e->name; },
      [](const auto& a, const auto& b) { return a->version == b->version && a->id == b->id; },
      &out);
  Compare(
      was.api_keys, now.api_keys, "api key", [](const ApiKey& k) { return k.name; },
      [](const ApiKey& a, const ApiKey& b) {
        return a.sha256 == b.sha256 && a.all_endpoints == b.all_endpoints &&
               a.endpoints == b.endpoints && a.all_sources == b.all_sources &&
               a.ingest == b.ingest && a.private_api == b.private_api;
      },
      &out);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace lqe::gateway
