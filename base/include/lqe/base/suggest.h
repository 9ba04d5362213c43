// "Did you mean" suggestions: one distance and one nearest-candidate rule for every caller (SQL
// names and keywords, LQL fields, config keys). Each caller picks how far a suggestion may be.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lqe {

// Optimal string alignment distance, ASCII case-insensitive: insertions, deletions,
// substitutions and transpositions of adjacent characters each cost 1 ("form" -> "from" is 1).
std::size_t EditDistance(std::string_view a, std::string_view b);

// The usual limit for a suggestion: a third of the word, at least `floor`.
constexpr std::size_t SuggestionLimit(std::string_view word, std::size_t floor = 2) {
  return word.size() / 3 > floor ? word.size() / 3 : floor;
}

// The candidate nearest to `word` at a distance of at most `max_distance`, or "" when none is
// that close. Ties go to the earlier candidate. `Range` holds strings or string_views.
template <typename Range>
std::string ClosestMatch(std::string_view word, const Range& candidates, std::size_t max_distance) {
  std::string best;
  std::size_t best_distance = max_distance + 1;
  for (const auto& candidate : candidates) {
    const std::size_t d = EditDistance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

}  // namespace lqe
