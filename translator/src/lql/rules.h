// The LQL rule model: what one parsed query asks for, before it is typed against a CTE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ast/node.h"
#include "lqe/lql_filter.h"

namespace lqe::lql {

using ast::SourceSpan;

// A value as written after `path:op`. Typing happens later, against the field's type.
struct Value {
  std::string text;     // decoded (quotes removed, \" and \\ unescaped)
  bool quoted = false;  // written "..."
  SourceSpan span;
};

struct FilterRule {
  std::vector<std::string> path;  // segments; m. already expanded to metadata
  SourceSpan path_span;           // the path as written (for event_message rules: the clause)
  FilterOp op = FilterOp::kEq;
  Value value;           // all ops but kIsNull; kRange: the low end
  Value high;            // kRange only
  bool negated = false;  // written with a leading -
  SourceSpan span;       // the whole clause, including the -
};

struct SelectRule {
  std::vector<std::string> path;  // empty for s:*
  std::string alias;              // empty: the last path segment
  SourceSpan span;
};

struct FromRule {
  std::string name;
  SourceSpan span;
};

enum class Aggregate : std::uint8_t { kCount, kCountDistinct, kAvg, kSum, kMax, kP50, kP95, kP99 };
enum class Period : std::uint8_t { kSecond, kMinute, kHour, kDay };

struct ChartRule {
  Aggregate aggregate = Aggregate::kCount;
  std::vector<std::string> path;  // empty for count(*)
  SourceSpan path_span;
  Period period = Period::kMinute;
  bool has_aggregate = false;  // a c:agg(...) clause was seen (else count(*))
  bool period_set = false;     // a c:group_by(...) clause was seen (else minute)
  SourceSpan span;             // the first c: clause
};

struct Rules {
  std::vector<FilterRule> filters;  // in the order written
  std::vector<SelectRule> selects;
  std::optional<FromRule> from;
  std::optional<ChartRule> chart;
};

// "metadata.request.path"
std::string JoinPath(const std::vector<std::string>& path);

}  // namespace lqe::lql
