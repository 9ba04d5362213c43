// What a reload changes, for its log line: endpoints and API keys added, removed or changed.
// Keys are named, never shown: neither digests nor tokens appear.
#pragma once

#include <string>
#include <vector>

#include "lqe/gateway/config.h"

namespace lqe::gateway {

// One line per change, sorted: "endpoint logs.all changed", "api key ci added", ...
std::vector<std::string> DescribeConfigChanges(const Config& was, const Config& now);

}  // namespace lqe::gateway
