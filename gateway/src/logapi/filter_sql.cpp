#include "logapi/filter_sql.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "lqe/base/ascii.h"
#include "lqe/lql_filter.h"
#include "lqe/regex.h"
#include "tail/event_match.h"
#include "tail/tail_hub.h"

namespace lqe::gateway::logapi {
namespace {

using lql::FilterClause;
using lql::FilterOp;

constexpr std::array<std::string_view, 8> kLevels = {"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};
constexpr std::string_view kLevelArray =
    "'{debug,info,notice,warning,error,critical,alert,emergency}'::text[]";

int LevelIndex(std::string_view level) {
  for (std::size_t i = 0; i < kLevels.size(); ++i) {
    if (kLevels[i] == level) return static_cast<int>(i);
  }
  return -1;
}

// The rule's text as a float8 literal's text, when it is a number (the tail compares numbers as
// doubles).
std::optional<std::string> NumberText(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  char out[40];
  std::snprintf(out, sizeof(out), "%.17g", value);
  return std::string(out);
}

std::optional<std::string> BoolText(std::string_view text) {
  std::string lower = ascii::Lower(text);
  if (lower != "true" && lower != "false") return std::nullopt;
  return lower;
}

std::string_view OperatorOf(FilterOp op) {
  switch (op) {
    case FilterOp::kGt:
      return ">";
    case FilterOp::kGe:
      return ">=";
    case FilterOp::kLt:
      return "<";
    case FilterOp::kLe:
      return "<=";
    default:
      return "=";
  }
}

// `j op value` for one JSON value `j`, typed as the tail compares: numbers with a numeric
// value, strings as strings (byte order), booleans with true/false; anything else never holds.
std::string Compare(std::string_view j, std::string_view op, const std::string& value,
                    SqlParams& params) {
  std::string out = "CASE jsonb_typeof(" + std::string(j) + ")";
  if (auto number = NumberText(value)) {
    out += " WHEN 'number' THEN (" + std::string(j) + ")::float8 " + std::string(op) + " " +
           params.Add(*number) + "::float8";
  }
  out += " WHEN 'string' THEN (" + std::string(j) + " #>> '{}') COLLATE \"C\" " + std::string(op) +
         " " + params.Add(value) + "::text";
  if (auto boolean = BoolText(value)) {
    out += " WHEN 'boolean' THEN (" + std::string(j) + ")::boolean " + std::string(op) + " " +
           params.Add(*boolean) + "::boolean";
  }
  out += " ELSE FALSE END";
  return out;
}

std::string StringOf(std::string_view j) {
  return "jsonb_typeof(" + std::string(j) + ") = 'string' AND ";
}

// The condition on one JSON value `j` for a scalar rule.
std::string ScalarCondition(const FilterClause& rule, const std::string& regex, std::string_view j,
                            SqlParams& params) {
  switch (rule.op) {
    case FilterOp::kContains:
      return StringOf(j) + "strpos(" + std::string(j) + " #>> '{}', " + params.Add(rule.value) +
             "::text) > 0";
    case FilterOp::kRegex:
      return StringOf(j) + "(" + std::string(j) + " #>> '{}') ~ " + params.Add(regex) + "::text";
    case FilterOp::kRange: {
      std::string generic = "(" + Compare(j, ">=", rule.value, params) + ") AND (" +
                            Compare(j, "<=", rule.high, params) + ")";
      const int low = LevelIndex(rule.value), high = LevelIndex(rule.high);
      if (low < 0 || high < 0 || rule.path.back() != "level") return generic;
      // metadata.level:info..error: by severity, as the endpoints read it.
      return "CASE WHEN jsonb_typeof(" + std::string(j) +
             ") = 'string' THEN coalesce(array_position(" + std::string(kLevelArray) + ", " +
             std::string(j) + " #>> '{}') BETWEEN " + std::to_string(low + 1) + " AND " +
             std::to_string(high + 1) + ", FALSE) ELSE " + generic + " END";
    }
    default:
      return Compare(j, OperatorOf(rule.op), rule.value, params);
  }
}

// The condition on a text column (id, event_message, project): its value is a string or null.
std::string TextColumnCondition(const FilterClause& rule, const std::string& regex,
                                const std::string& column, SqlParams& params) {
  const std::string c = column + " COLLATE \"C\" ";
  switch (rule.op) {
    case FilterOp::kContains:
      return "strpos(" + column + ", " + params.Add(rule.value) + "::text) > 0";
    case FilterOp::kRegex:
      return column + " ~ " + params.Add(regex) + "::text";
    case FilterOp::kRange:
      return c + ">= " + params.Add(rule.value) + "::text AND " + c +
             "<= " + params.Add(rule.high) + "::text";
    case FilterOp::kArrayContains:
    case FilterOp::kArrayRegex:
      return "FALSE";
    case FilterOp::kIsNull:
      return column + " IS NULL";
    default:
      return c + std::string(OperatorOf(rule.op)) + " " + params.Add(rule.value) + "::text";
  }
}

std::string TimeCondition(const FilterClause& rule, SqlParams& params) {
  const lql::TimeBounds& b = *rule.time;
  const std::string ts = "e.\"timestamp\" ";
  auto at = [&](std::int64_t micros) {
    return params.Add(tail::IsoMicros(micros)) + "::timestamptz";
  };
  switch (rule.op) {
    case FilterOp::kGt:
    case FilterOp::kGe:
    case FilterOp::kLt:
    case FilterOp::kLe:
      return ts + std::string(OperatorOf(rule.op)) + " " + at(b.low);
    default:
      return ts + ">= " + at(b.low) + " AND " + ts + (b.high_exclusive ? "< " : "<= ") + at(b.high);
  }
}

// Whether the clause holds (never NULL), before negation.
std::string Holds(const FilterClause& rule, const std::string& regex, SqlParams& params) {
  if (rule.time) return TimeCondition(rule, params);
  const std::string& front = rule.path.front();
  if (front == "event_message" || front == "id" || front == "project") {
    if (rule.path.size() > 1) return rule.op == FilterOp::kIsNull ? "TRUE" : "FALSE";
    return TextColumnCondition(rule, regex, "e." + front, params);
  }
  if (front == "timestamp") {  // a text that is always there, never an object
    if (rule.op == FilterOp::kIsNull) return rule.path.size() > 1 ? "TRUE" : "FALSE";
    return "FALSE";
  }
  if (front != "metadata" && front != "extra") {
    return rule.op == FilterOp::kIsNull ? "TRUE" : "FALSE";  // no such field on any event
  }
  const std::string column = "e." + front;
  const std::string path = JsonPath(rule.path, 1);
  switch (rule.op) {
    case FilterOp::kIsNull:
      return "NOT EXISTS (SELECT 1 FROM jsonb_path_query(" + column + ", " + params.Add(path) +
             "::jsonpath) AS v(j) WHERE jsonb_typeof(v.j) <> 'null')";
    case FilterOp::kArrayContains:
    case FilterOp::kArrayRegex: {
      FilterClause element = rule;
      element.op = rule.op == FilterOp::kArrayContains ? FilterOp::kEq : FilterOp::kRegex;
      return "EXISTS (SELECT 1 FROM jsonb_path_query(" + column + ", " + params.Add(path) +
             "::jsonpath) AS v(a) WHERE jsonb_typeof(v.a) = 'array' AND EXISTS (SELECT 1 FROM "
             "jsonb_array_elements(v.a) AS x(j) WHERE " +
             ScalarCondition(element, regex, "x.j", params) + "))";
    }
    default:
      // A scalar rule on an array holds for one of its elements: [*] steps into an array and
      // leaves any other value as it is.
      return "EXISTS (SELECT 1 FROM jsonb_path_query(" + column + ", " + params.Add(path + "[*]") +
             "::jsonpath) AS v(j) WHERE " + ScalarCondition(rule, regex, "v.j", params) + ")";
  }
}

Diagnostic ClauseDiagnostic(const FilterClause& rule, std::string message) {
  Diagnostic diag;
  diag.code = DiagCode::kParam;
  diag.message = std::move(message);
  diag.offset = rule.offset;
  diag.length = rule.length;
  diag.source = DiagSource::kConsumerLql;
  return diag;
}

}  // namespace

std::string SqlParams::Add(std::optional<std::string> value) {
  values_.push_back(std::move(value));
  return "$" + std::to_string(values_.size());
}

std::string JsonPath(const std::vector<std::string>& keys, std::size_t from) {
  std::string path = "lax $";
  for (std::size_t i = from; i < keys.size(); ++i) {
    path += ".\"";
    for (char c : keys[i]) {
      const auto u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        path += '\\';
        path += c;
      } else if (u < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof(escaped), "\\u%04x", u);
        path += escaped;
      } else {
        path += c;
      }
    }
    path += '"';
  }
  return path;
}

std::variant<std::string, Diagnostic> FilterCondition(std::string_view lql,
                                                      std::chrono::system_clock::time_point now,
                                                      SqlParams& params) {
  // The tail's compilation checks the regular expressions as RE2 reads them.
  auto match = tail::EventMatch::Compile(lql, now);
  if (auto* diag = std::get_if<Diagnostic>(&match)) return std::move(*diag);
  auto parsed = lql::ParseFilterClauses(lql, now);
  if (auto* diag = std::get_if<Diagnostic>(&parsed)) return std::move(*diag);
  std::string condition;
  for (const FilterClause& rule : std::get<std::vector<FilterClause>>(parsed)) {
    std::string regex;
    if (rule.op == FilterOp::kRegex || rule.op == FilterOp::kArrayRegex) {
      RegexConversion converted = ConvertRe2ToPosix(rule.value);
      if (!converted.error.empty()) {
        return ClauseDiagnostic(rule, "regular expression not supported: " + converted.error);
      }
      regex = std::move(converted.pattern);
    }
    if (!condition.empty()) condition += " AND ";
    const std::string holds = "coalesce((" + Holds(rule, regex, params) + "), FALSE)";
    condition += rule.negated ? "NOT " + holds : holds;
  }
  return condition.empty() ? std::string("TRUE") : condition;
}

}  // namespace lqe::gateway::logapi
