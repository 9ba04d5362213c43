// LQL filters as clauses for event-by-event matching (lqe/lql_filter.h).
#include <utility>

#include "lqe/lql_filter.h"
#include "lql/parser.h"
#include "lql/timestamp.h"

namespace lqe::lql {
namespace {

Diagnostic Refuse(const std::string& message, SourceSpan span) {
  Diagnostic diag;
  diag.code = DiagCode::kUnsupported;
  diag.message = message;
  diag.offset = span.begin;
  diag.length = span.end > span.begin ? span.end - span.begin : 1;
  diag.source = DiagSource::kConsumerLql;
  return diag;
}

Diagnostic TimeError(const std::string& message, SourceSpan span) {
  Diagnostic diag = Refuse(message, span);
  diag.code = DiagCode::kType;
  return diag;
}

// The bounds of a timestamp clause, or the message why its value is not a time.
std::variant<TimeBounds, std::string> Bounds(const FilterRule& rule, Micros now) {
  if (rule.op == FilterOp::kRange) {
    auto range = ParseTimeRange(rule.value.text, rule.high.text, now);
    if (auto* error = std::get_if<std::string>(&range)) return *error;
    const TimeRange& r = std::get<TimeRange>(range);
    return TimeBounds{r.low, r.high, r.high_exclusive};
  }
  auto parsed = ParseTimeValue(rule.value.text, now);
  if (auto* error = std::get_if<std::string>(&parsed)) return *error;
  const TimeValue& tv = std::get<TimeValue>(parsed);
  if (tv.is_range) {
    if (rule.op != FilterOp::kEq) {
      return "the time range \"" + rule.value.text + "\" cannot be compared with <, <=, > or >=";
    }
    return TimeBounds{tv.range.low, tv.range.high, tv.range.high_exclusive};
  }
  if (tv.point.date_only && rule.op == FilterOp::kEq) {
    return TimeBounds{tv.point.micros, tv.point.micros + 86'400'000'000LL, true};
  }
  return TimeBounds{tv.point.micros, tv.point.micros, false};
}

}  // namespace

std::variant<std::vector<FilterClause>, Diagnostic> ParseFilterClauses(
    std::string_view text, std::chrono::system_clock::time_point now) {
  auto parsed = Parse(text);
  if (auto* diag = std::get_if<Diagnostic>(&parsed)) return std::move(*diag);
  Rules& rules = std::get<Rules>(parsed);
  if (!rules.selects.empty()) {
    return Refuse("s: selects columns; here only filters apply", rules.selects.front().span);
  }
  if (rules.chart) return Refuse("c: makes a chart; here only filters apply", rules.chart->span);
  if (rules.from) {
    return Refuse("f: names a table; here the source is a parameter", rules.from->span);
  }
  const Micros now_micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  std::vector<FilterClause> clauses;
  clauses.reserve(rules.filters.size());
  for (FilterRule& rule : rules.filters) {
    FilterClause clause;
    clause.op = rule.op;
    clause.negated = rule.negated;
    clause.offset = rule.span.begin;
    clause.length = rule.span.end - rule.span.begin;
    if (rule.path.size() == 1 && rule.path.front() == "timestamp" && rule.op != FilterOp::kIsNull) {
      if (rule.op != FilterOp::kEq && rule.op != FilterOp::kRange && rule.op != FilterOp::kGt &&
          rule.op != FilterOp::kGe && rule.op != FilterOp::kLt && rule.op != FilterOp::kLe) {
        return TimeError("timestamp takes a time, a range or a comparison", rule.span);
      }
      auto bounds = Bounds(rule, now_micros);
      if (auto* error = std::get_if<std::string>(&bounds)) {
        return TimeError(*error, rule.value.span);
      }
      clause.time = std::get<TimeBounds>(bounds);
    }
    clause.path = std::move(rule.path);
    clause.value = std::move(rule.value.text);
    clause.high = std::move(rule.high.text);
    clauses.push_back(std::move(clause));
  }
  return clauses;
}

}  // namespace lqe::lql
