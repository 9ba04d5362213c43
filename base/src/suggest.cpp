#include "lqe/base/suggest.h"

#include <algorithm>
#include <vector>

#include "lqe/base/ascii.h"

namespace lqe {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  // Three rolling rows: the transposition step looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = ascii::ToLower(a[i - 1]) == ascii::ToLower(b[j - 1]);
      current[j] =
          std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && ascii::ToLower(a[i - 1]) == ascii::ToLower(b[j - 2]) &&
          ascii::ToLower(a[i - 2]) == ascii::ToLower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

}  // namespace lqe
