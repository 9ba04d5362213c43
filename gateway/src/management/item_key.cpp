#include <algorithm>

#include "lqe/base/ascii.h"
#include "management/resources.h"

namespace lqe::gateway::management {

std::optional<ItemKey> KeyOf(const std::string& item, const std::string& column_prefix) {
  if (!item.empty() && item.size() <= 18 &&
      std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return ItemKey{column_prefix + "id = $1::bigint", item};
  }
  bool uuid = item.size() == 36;
  for (std::size_t i = 0; uuid && i < item.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    uuid = dash ? item[i] == '-' : ascii::HexValue(item[i]) >= 0;
  }
  if (uuid) return ItemKey{column_prefix + "token = $1::uuid", item};
  return std::nullopt;
}

}  // namespace lqe::gateway::management
