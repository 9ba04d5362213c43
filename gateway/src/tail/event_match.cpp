#include "tail/event_match.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "lqe/base/ascii.h"

namespace lqe::gateway::tail {
namespace {

namespace json = boost::json;
using lql::FilterOp;

constexpr std::array<std::string_view, 8> kLevels = {"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};

int LevelIndex(std::string_view level) {
  for (std::size_t i = 0; i < kLevels.size(); ++i) {
    if (kLevels[i] == level) return static_cast<int>(i);
  }
  return -1;
}

std::optional<double> Number(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> NumberOf(const json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  if (v.is_double()) return v.get_double();
  return std::nullopt;
}

// Every value at `path`, stepping into each element of an array met on the way (a repeated
// record matches when one of its elements does). The last step's array is kept whole.
void Collect(const json::value& at, const std::vector<std::string>& path, std::size_t step,
             std::vector<const json::value*>* out) {
  if (at.is_array() && step > 0 && step < path.size()) {
    for (const json::value& element : at.get_array()) Collect(element, path, step, out);
    return;
  }
  if (step == path.size()) {
    out->push_back(&at);
    return;
  }
  if (!at.is_object()) return;
  const auto& object = at.get_object();
  auto it = object.find(path[step]);
  if (it == object.end()) return;
  Collect(it->value(), path, step + 1, out);
}

// -1, 0, 1 comparing the event's value with the rule's text, or nullopt when they do not
// compare (a number against a word, an object).
std::optional<int> Compare(const json::value& v, std::string_view text) {
  if (auto number = NumberOf(v)) {
    auto other = Number(text);
    if (!other) return std::nullopt;
    return *number < *other ? -1 : (*number > *other ? 1 : 0);
  }
  if (v.is_string()) {
    std::string_view s = v.get_string();
    return s < text ? -1 : (s > text ? 1 : 0);
  }
  if (v.is_bool()) {
    std::string lower = ascii::Lower(text);
    if (lower != "true" && lower != "false") return std::nullopt;
    bool other = lower == "true";
    return v.get_bool() == other ? 0 : (v.get_bool() ? 1 : -1);
  }
  return std::nullopt;
}

bool ScalarHolds(const lql::FilterClause& rule, const re2::RE2* regex, const json::value& v) {
  switch (rule.op) {
    case FilterOp::kContains:
      return v.is_string() &&
             std::string_view(v.get_string()).find(rule.value) != std::string::npos;
    case FilterOp::kRegex:
      return v.is_string() && RE2::PartialMatch(std::string_view(v.get_string()), *regex);
    case FilterOp::kEq: {
      auto c = Compare(v, rule.value);
      return c && *c == 0;
    }
    case FilterOp::kGt: {
      auto c = Compare(v, rule.value);
      return c && *c > 0;
    }
    case FilterOp::kGe: {
      auto c = Compare(v, rule.value);
      return c && *c >= 0;
    }
    case FilterOp::kLt: {
      auto c = Compare(v, rule.value);
      return c && *c < 0;
    }
    case FilterOp::kLe: {
      auto c = Compare(v, rule.value);
      return c && *c <= 0;
    }
    case FilterOp::kRange: {
      // metadata.level:info..error: by severity, as the endpoints read it.
      const int low = LevelIndex(rule.value), high = LevelIndex(rule.high);
      if (v.is_string() && low >= 0 && high >= 0 && rule.path.back() == "level") {
        const int level = LevelIndex(v.get_string());
        return level >= low && level <= high;
      }
      auto lo = Compare(v, rule.value);
      auto hi = Compare(v, rule.high);
      return lo && hi && *lo >= 0 && *hi <= 0;
    }
    case FilterOp::kArrayContains:
      if (!v.is_array()) return false;
      for (const json::value& e : v.get_array()) {
        auto c = Compare(e, rule.value);
        if (c && *c == 0) return true;
      }
      return false;
    case FilterOp::kArrayRegex:
      if (!v.is_array()) return false;
      for (const json::value& e : v.get_array()) {
        if (e.is_string() && RE2::PartialMatch(std::string_view(e.get_string()), *regex)) {
          return true;
        }
      }
      return false;
    case FilterOp::kIsNull:
      return v.is_null();
  }
  return false;
}

bool TimeHolds(const lql::FilterClause& rule, std::int64_t t) {
  const lql::TimeBounds& b = *rule.time;
  switch (rule.op) {
    case FilterOp::kGt:
      return t > b.low;
    case FilterOp::kGe:
      return t >= b.low;
    case FilterOp::kLt:
      return t < b.low;
    case FilterOp::kLe:
      return t <= b.low;
    default:
      return t >= b.low && (b.high_exclusive ? t < b.high : t <= b.high);
  }
}

}  // namespace

std::variant<EventMatch, Diagnostic> EventMatch::Compile(
    std::string_view lql, std::chrono::system_clock::time_point now) {
  auto parsed = lql::ParseFilterClauses(lql, now);
  if (auto* diag = std::get_if<Diagnostic>(&parsed)) return std::move(*diag);
  EventMatch match;
  for (lql::FilterClause& rule : std::get<std::vector<lql::FilterClause>>(parsed)) {
    Clause clause;
    if (rule.op == FilterOp::kRegex || rule.op == FilterOp::kArrayRegex) {
      RE2::Options options;
      options.set_log_errors(false);
      auto regex = std::make_shared<const RE2>(rule.value, options);
      if (!regex->ok()) {
        Diagnostic diag;
        diag.code = DiagCode::kParam;
        diag.message = "invalid regular expression: " + regex->error();
        diag.offset = rule.offset;
        diag.length = rule.length;
        diag.source = DiagSource::kConsumerLql;
        return diag;
      }
      clause.regex = std::move(regex);
    }
    clause.rule = std::move(rule);
    match.clauses_.push_back(std::move(clause));
  }
  return match;
}

bool EventMatch::Holds(const Clause& clause, const EventView& event) const {
  const lql::FilterClause& rule = clause.rule;
  bool holds = false;
  if (rule.time) {
    holds = TimeHolds(rule, event.timestamp_micros);
  } else {
    std::vector<const json::value*> values;
    auto it = event.fields->find(rule.path.front());
    if (it != event.fields->end()) Collect(it->value(), rule.path, 1, &values);
    const bool present = std::any_of(values.begin(), values.end(),
                                     [](const json::value* v) { return !v->is_null(); });
    // field:NULL holds when no value is there; -field:NULL when one is.
    if (rule.op == FilterOp::kIsNull) return rule.negated ? present : !present;
    if (!present && rule.op == FilterOp::kRegex && rule.path.size() == 1 &&
        rule.path.front() == "event_message") {
      // An event without a message has an empty one, as in Logflare (where every event has
      // one): the rule Studio writes for a drain, ~".*?", matches every event.
      holds = RE2::PartialMatch(std::string_view(), *clause.regex);
    }
    for (const json::value* v : values) {
      // A scalar filter on an array matches one of its elements.
      if (v->is_array() && rule.op != FilterOp::kArrayContains &&
          rule.op != FilterOp::kArrayRegex) {
        for (const json::value& e : v->get_array()) {
          holds = holds || ScalarHolds(rule, clause.regex.get(), e);
        }
      } else {
        holds = holds || ScalarHolds(rule, clause.regex.get(), *v);
      }
      if (holds) break;
    }
  }
  // Like the endpoints: a negated filter also keeps events without the field.
  return rule.negated ? !holds : holds;
}

bool EventMatch::Matches(const EventView& event) const {
  for (const Clause& clause : clauses_) {
    if (!Holds(clause, event)) return false;
  }
  return true;
}

}  // namespace lqe::gateway::tail
