// A hash for unordered containers of std::string that finds keys by std::string_view without
// building a string (C++20 heterogeneous lookup; use with std::equal_to<>).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace lqe {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace lqe
