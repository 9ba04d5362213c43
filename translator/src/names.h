// BigQuery names: case-insensitive comparison and did-you-mean sentences, on top of the one
// distance in lqe/base/suggest.h; used by every stage (pg/, the function table, the sandbox).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lqe::names {

bool EqualsIgnoreCase(std::string_view a, std::string_view b);
// The closest candidate by edit distance (ASCII case-insensitive), or "" when none is close
// enough to be a likely typo.
std::string Suggest(std::string_view name, const std::vector<std::string>& candidates);
// The same with an explicit largest edit distance accepted.
std::string Suggest(std::string_view name, const std::vector<std::string>& candidates,
                    std::size_t max_distance);
// A `Did you mean "x"?` sentence, or "".
std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace lqe::names
