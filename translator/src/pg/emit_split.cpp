// A listing filtered by an equality on a promoted element field, split in two branches.
//
// `x = v` on an element implies `min <= v AND max >= v` on the row (emit_ops.cpp), a range on
// the index (project, max, "timestamp" DESC): PostgreSQL reads every match and sorts them
// instead of stopping at the LIMIT. The rows it keeps fall into two disjoint sets:
//   (a) max = v                           an equality, read in timestamp order on that index;
//   (b) max > v AND min <= v AND min < max rows whose elements differ (rare), read in timestamp
//                                          order on (project, (min < max), "timestamp" DESC)
//                                          (migration 041).
// Every row with an element equal to v is in one of them (min <= v <= max, and v < max means
// min < max), no row is in both, and each keeps the exact element predicate, so the union of
// the two is the listing's rows. Each branch is ordered and limited, and the union ordered and
// limited again: PostgreSQL merges the two ordered scans and stops at the LIMIT.
#include "pg/emitter.h"
#include "pg/quoting.h"

namespace lqe::pg {
namespace {

std::string AndAll(const std::vector<std::string>& conditions) {
  std::string out;
  for (const auto& c : conditions) out += (out.empty() ? "" : " AND ") + c;
  return out;
}

}  // namespace

std::optional<Emitter::SplitListing> Emitter::SplitOnEquality(
    const ast::Select& select, const std::vector<ast::OrderItem>& order_by,
    std::vector<SelectItemOut>& items, const std::vector<std::string>& select_sql,
    const std::string& from, const std::vector<std::string>& conditions,
    const std::string& order_sql) {
  if (!select.group_by.empty() || select.distinct || select.having || select.qualify ||
      !select.windows.empty() || from.empty()) {
    return std::nullopt;
  }
  // The first row equality whose two conditions are this SELECT's own.
  std::size_t at_min = conditions.size();
  std::size_t at_max = conditions.size();
  const std::array<std::string, 4>* eq = nullptr;
  for (std::size_t i = 0; i < conditions.size() && !eq; ++i) {
    const auto it = row_equalities_.find(conditions[i]);
    if (it == row_equalities_.end()) continue;
    for (std::size_t j = i + 1; j < conditions.size(); ++j) {
      if (conditions[j] == it->second[0]) {
        at_min = i;
        at_max = j;
        eq = &it->second;
        break;
      }
    }
  }
  if (!eq) return std::nullopt;

  SplitListing out;
  int unnamed = 0;
  for (const auto& item : items) {
    out.columns.push_back(item.name.empty() ? "f" + std::to_string(unnamed++) + "_" : item.name);
  }
  // The sort keys as hidden columns, so the union can be ordered by them.
  std::string hidden;
  for (std::size_t k = 0; k < order_by.size(); ++k) {
    if (!order_by[k].expr->Is<ast::Path>()) return std::nullopt;
    const OrderKey key = EmitOrderKey(order_by[k], &items);
    const std::string name = "_s" + std::to_string(k + 1);
    for (const auto& c : out.columns) {
      if (key.ordinal || names::EqualsIgnoreCase(c, name)) return std::nullopt;
    }
    hidden += ", " + key.sql + " AS " + name;
    out.outer_order += (k ? ", _u." : " ORDER BY _u.") + name + key.direction;
  }
  std::string list;
  for (const auto& s : select_sql) list += (list.empty() ? "" : ", ") + s;
  list += hidden;

  std::vector<std::string> a;
  std::vector<std::string> b;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    if (i == at_min) {
      b.push_back(conditions[i]);
    } else if (i == at_max) {
      a.push_back((*eq)[1]);
      b.push_back((*eq)[2]);
    } else {
      a.push_back(conditions[i]);
      b.push_back(conditions[i]);
    }
  }
  b.push_back((*eq)[3]);
  out.branch_a = "SELECT " + list + " FROM " + from + " WHERE " + AndAll(a) + order_sql;
  out.branch_b = "SELECT " + list + " FROM " + from + " WHERE " + AndAll(b) + order_sql;
  // Each branch reads the CTEs again: inlined, each reads its own index.
  reads_.inline_ctes.insert(reads_.ctes.begin(), reads_.ctes.end());
  return out;
}

std::string Emitter::ComposeSplit(const SplitListing& split, const std::string& limit) {
  std::string columns;
  for (const auto& c : split.columns) {
    columns += (columns.empty() ? "_u." : ", _u.") + QuoteLabel(c);
  }
  return "SELECT " + columns + " FROM ((" + split.branch_a + limit + ") UNION ALL (" +
         split.branch_b + limit + ")) AS _u" + split.outer_order + limit;
}

}  // namespace lqe::pg
