// The release this binary is: shown in the Server header and the lqe_build_info metric.
#pragma once

#include <string_view>

namespace lqe::gateway {

std::string_view BuildVersion();  // "0.1.0", from project(VERSION) in CMakeLists.txt
std::string_view BuildCommit();   // short git commit at configure time, or "unknown"

}  // namespace lqe::gateway
