#include "lql/chart_parser.h"

#include <optional>
#include <string>
#include <utility>

namespace lqe::lql {
namespace {

std::optional<Aggregate> AggregateNamed(std::string_view name) {
  static constexpr std::pair<std::string_view, Aggregate> kNames[] = {
      {"count", Aggregate::kCount}, {"countd", Aggregate::kCountDistinct},
      {"avg", Aggregate::kAvg},     {"sum", Aggregate::kSum},
      {"max", Aggregate::kMax},     {"p50", Aggregate::kP50},
      {"p95", Aggregate::kP95},     {"p99", Aggregate::kP99},
  };
  for (const auto& [text, agg] : kNames) {
    if (name == text) {
      return agg;
    }
  }
  return std::nullopt;
}

std::optional<Period> PeriodNamed(std::string_view name) {
  if (name == "second" || name == "s") {
    return Period::kSecond;
  }
  if (name == "minute" || name == "m") {
    return Period::kMinute;
  }
  if (name == "hour" || name == "h") {
    return Period::kHour;
  }
  if (name == "day" || name == "d") {
    return Period::kDay;
  }
  return std::nullopt;
}

void Expect(Cursor& cur, char c) {
  if (cur.AtEnd() || cur.Peek() != c) {
    throw cur.Unexpected(cur.pos);
  }
  ++cur.pos;
}

std::string_view ReadWhile(Cursor& cur, bool (*pred)(char)) {
  const std::size_t begin = cur.pos;
  while (!cur.AtEnd() && pred(cur.Peek())) {
    ++cur.pos;
  }
  return cur.text.substr(begin, cur.pos - begin);
}

bool IsNameChar(char c) {
  return IsAlnum(c) || c == '_';
}

ChartRule& ChartOf(Rules& rules, std::size_t start, std::size_t end) {
  if (!rules.chart) {
    rules.chart.emplace();
    rules.chart->span = Span(start, end);
  }
  return *rules.chart;
}

void GroupBy(Cursor& cur, std::size_t start, Rules& rules) {
  Expect(cur, '(');
  const std::size_t field_begin = cur.pos;
  const std::string_view field = ReadWhile(cur, IsNameChar);
  if (field != "t" && field != "timestamp") {
    throw cur.Unexpected(field_begin);
  }
  Expect(cur, ':');
  Expect(cur, ':');
  const std::size_t period_begin = cur.pos;
  const auto period = PeriodNamed(ReadWhile(cur, IsNameChar));
  if (!period) {
    throw LqlError{
        MakeDiag(DiagCode::kSyntax,
                 "lql parse error: unknown chart period " +
                     QuoteForMessage(cur.text.substr(period_begin, cur.pos - period_begin)) +
                     ": use second, minute, hour or day",
                 period_begin, cur.pos - period_begin)};
  }
  Expect(cur, ')');
  const bool had_group_by = rules.chart && rules.chart->period_set;
  ChartRule& chart = ChartOf(rules, start, cur.pos);
  if (had_group_by) {
    throw LqlError{MakeDiag(DiagCode::kSyntax, "lql parse error: only one c:group_by is allowed",
                            start, cur.pos - start)};
  }
  chart.period = *period;
  chart.period_set = true;
}

}  // namespace

void ParseChartClause(Cursor& cur, std::size_t start, Rules& rules) {
  const std::size_t name_begin = cur.pos;
  const std::string_view name = ReadWhile(cur, IsNameChar);
  if (name == "group_by") {
    return GroupBy(cur, start, rules);
  }
  const auto aggregate = AggregateNamed(name);
  if (!aggregate) {
    if (name.empty()) {
      throw cur.Unexpected(name_begin);
    }
    throw LqlError{MakeDiag(DiagCode::kSyntax,
                            "lql parse error: unknown chart aggregate " + QuoteForMessage(name) +
                                ": use count, countd, avg, sum, max, p50, p95, p99 or group_by",
                            name_begin, name.size())};
  }
  Expect(cur, '(');
  std::vector<std::string> path;
  const std::size_t path_begin = cur.pos;
  if (*aggregate == Aggregate::kCount && !cur.AtEnd() && cur.Peek() == '*') {
    ++cur.pos;
  } else {
    const std::string_view text = ReadWhile(cur, IsPathChar);
    if (text.empty()) {
      throw cur.Unexpected(cur.pos);
    }
    path = cur.SplitPath(text, path_begin);
  }
  const std::size_t path_end = cur.pos;
  Expect(cur, ')');
  const bool had_aggregate = rules.chart && rules.chart->has_aggregate;
  ChartRule& chart = ChartOf(rules, start, cur.pos);
  if (had_aggregate) {
    throw LqlError{MakeDiag(DiagCode::kSyntax,
                            "lql parse error: only one chart aggregate is allowed", start,
                            cur.pos - start)};
  }
  chart.aggregate = *aggregate;
  chart.path = std::move(path);
  chart.path_span = Span(path_begin, path_end);
  chart.has_aggregate = true;
}

}  // namespace lqe::lql
