#include "functions/function_list.h"

#include <algorithm>
#include <deque>
#include <string>
#include <unordered_map>

#include "names.h"

namespace lqe::functions {
namespace {

// NET_HOST -> NET.HOST; other rows keep their name. The names live as long as the table.
std::string_view SqlName(std::string_view row) {
  constexpr std::string_view kNet = "NET_";
  if (row.substr(0, kNet.size()) != kNet) return row;
  static auto* const names = new std::deque<std::string>();
  names->push_back("NET." + std::string(row.substr(kNet.size())));
  return names->back();
}

std::vector<Signature> BuildTable() {
  std::vector<Signature> table;
  constexpr FnKind kScalar = FnKind::kScalar;
  constexpr FnKind kAggregate = FnKind::kAggregate;
  constexpr FnKind kWindow = FnKind::kWindow;
#define LQE_FUNCTION(name, min, max, kind, safe_ok, emitter) \
  table.push_back({SqlName(#name), {min, max}, kind, safe_ok, table.size()});
#include "functions/function_list.def"
#undef LQE_FUNCTION
  return table;
}

}  // namespace

const std::vector<Signature>& All() {
  static const std::vector<Signature> table = BuildTable();
  return table;
}

const Signature* Find(std::string_view name) {
  // Built once: upper-case name -> row.
  static const auto* const index_by_name = [] {
    auto* index = new std::unordered_map<std::string_view, const Signature*>();
    for (const auto& f : All()) index->emplace(f.name, &f);
    return index;
  }();
  char upper[32];
  if (name.size() >= sizeof(upper)) return nullptr;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    upper[i] = c >= 'a' && c <= 'z' ? static_cast<char>(c - ('a' - 'A')) : c;
  }
  const auto it = index_by_name->find(std::string_view(upper, name.size()));
  return it == index_by_name->end() ? nullptr : it->second;
}

std::string DidYouMean(std::string_view name) {
  static const std::vector<std::string> all_names = [] {
    std::vector<std::string> names;
    for (const auto& f : All()) names.emplace_back(f.name);
    return names;
  }();
  // Stricter than for column names: function names are short and many (FOO is not MOD).
  const std::string best =
      names::Suggest(name, all_names, std::max<std::size_t>(1, name.size() / 5));
  return best.empty() ? std::string() : "Did you mean " + best + "?";
}

std::string RefusedReason(std::string_view name) {
  struct Refused {
    std::string_view name;
    std::string_view reason;
  };
  static constexpr Refused kRefused[] = {
#define LQE_REFUSED(name, reason) {name, reason},
#include "functions/refused_list.def"
#undef LQE_REFUSED
  };
  static constexpr Refused kFamilies[] = {
      {"ST_", "geography functions do not apply to log data"},
      {"ML.", "BigQuery ML does not apply to log data"},
      {"AEAD.", "encryption functions are not supported"},
      {"KEYS.", "encryption functions are not supported"},
      {"DETERMINISTIC_", "encryption functions are not supported"},
      {"HLL_COUNT.", "HyperLogLog sketches are not supported; use COUNT(DISTINCT x)"},
      {"KLL_QUANTILES.", "KLL sketches are not supported; use APPROX_QUANTILES"},
      {"RANGE", "RANGE values are not supported"},
  };
  std::string upper(name);
  for (auto& c : upper) c = c >= 'a' && c <= 'z' ? static_cast<char>(c - ('a' - 'A')) : c;
  for (const auto& r : kRefused) {
    if (r.name == upper) return std::string(r.reason);
  }
  for (const auto& f : kFamilies) {
    if (upper.rfind(f.name, 0) == 0 && upper != "RANGE_BUCKET") return std::string(f.reason);
  }
  return "";
}

std::string UnsupportedHint(std::string_view name) {
  const std::string reason = RefusedReason(name);
  if (!reason.empty()) return "BigQuery's " + std::string(name) + " is refused: " + reason + ".";
  return DidYouMean(name);
}

}  // namespace lqe::functions
