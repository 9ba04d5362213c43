#include "names.h"

#include "lqe/base/ascii.h"
#include "lqe/base/suggest.h"

namespace lqe::names {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return ascii::EqualsIgnoreCase(a, b);
}

std::string Suggest(std::string_view name, const std::vector<std::string>& candidates) {
  return ClosestMatch(name, candidates, SuggestionLimit(name));
}

std::string Suggest(std::string_view name, const std::vector<std::string>& candidates,
                    std::size_t max_distance) {
  return ClosestMatch(name, candidates, max_distance);
}

std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string s = Suggest(name, candidates);
  return s.empty() ? std::string() : "Did you mean \"" + s + "\"?";
}

}  // namespace lqe::names
