#include "names.h"

#include <algorithm>

namespace lqe::names {
namespace {

// ASCII case folding: BigQuery names are case-insensitive ASCII; std::tolower's locale lookup
// showed up in profiles.
char Fold(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const std::size_t cost = Fold(a[i - 1]) == Fold(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return Fold(x) == Fold(y); });
}

std::string Suggest(std::string_view name, const std::vector<std::string>& candidates) {
  return Suggest(name, candidates, std::max<std::size_t>(2, name.size() / 3));
}

std::string Suggest(std::string_view name, const std::vector<std::string>& candidates,
                    std::size_t max_distance) {
  std::string best;
  std::size_t best_distance = max_distance + 1;
  for (const auto& c : candidates) {
    const std::size_t d = EditDistance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string s = Suggest(name, candidates);
  return s.empty() ? std::string() : "Did you mean \"" + s + "\"?";
}

}  // namespace lqe::names
