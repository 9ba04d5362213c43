// The textual UUID form used for endpoint ids: 8-4-4-4-12 hex digits, either case.
#pragma once

#include <string_view>

#include "lqe/base/ascii.h"

namespace lqe {

constexpr bool IsUuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !ascii::IsHexDigit(s[i])) return false;
  }
  return true;
}

}  // namespace lqe
