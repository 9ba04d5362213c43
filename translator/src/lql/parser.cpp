// Hand-written because the grammar is small, clause-oriented and needs byte-exact error offsets;
// a generator would add a dependency without shortening the code.
#include "lql/parser.h"

#include <string>
#include <utility>

#include "lql/chart_parser.h"
#include "lql/parse_util.h"

namespace lqe::lql {

std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& part : path) {
    if (!out.empty()) {
      out += '.';
    }
    out += part;
  }
  return out;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : cur_(text) {}

  Rules Run() {
    std::size_t clauses = 0;
    cur_.SkipSpace();
    while (!cur_.AtEnd()) {
      if (++clauses > kMaxClauses) {
        throw LqlError{MakeDiag(DiagCode::kLimit, "lql query has too many clauses (at most 100)",
                                cur_.pos, cur_.TokenEnd(cur_.pos) - cur_.pos)};
      }
      Clause();
      if (!cur_.AtEnd() && !IsSpace(cur_.Peek())) {
        throw cur_.Unexpected(cur_.pos);
      }
      cur_.SkipSpace();
    }
    return std::move(rules_);
  }

 private:
  void Clause() {
    const std::size_t start = cur_.pos;
    bool negated = false;
    if (cur_.Peek() == '-' && cur_.pos + 1 < cur_.text.size() && !IsSpace(cur_.PeekAt(1))) {
      negated = true;
      ++cur_.pos;
    }
    const char c = cur_.Peek();
    if (c == '"') {
      return FreeText(start, negated, FilterOp::kContains, cur_.Quoted());
    }
    if (c == '~') {
      ++cur_.pos;
      return FreeText(start, negated, FilterOp::kRegex, RegexValue("~"));
    }
    std::size_t p = cur_.pos;
    while (p < cur_.text.size() && IsPathChar(cur_.text[p])) {
      ++p;
    }
    if (p > cur_.pos && p < cur_.text.size() && cur_.text[p] == ':') {
      const std::size_t key_begin = cur_.pos;
      cur_.pos = p + 1;
      return Keyed(cur_.text.substr(key_begin, p - key_begin), key_begin, start, negated);
    }
    FreeText(start, negated, FilterOp::kContains, cur_.Word());
  }

  void FreeText(std::size_t start, bool negated, FilterOp op, Value value) {
    FilterRule rule;
    rule.path = {"event_message"};
    rule.op = op;
    rule.value = std::move(value);
    rule.negated = negated;
    rule.span = Span(start, cur_.pos);
    rule.path_span = rule.span;
    rules_.filters.push_back(std::move(rule));
  }

  void Keyed(std::string_view key, std::size_t key_begin, std::size_t start, bool negated) {
    const bool is_from = key == "f" || key == "from";
    const bool is_select = key == "s" || key == "select";
    const bool is_chart = key == "c" || key == "chart";
    if (negated && (is_from || is_select || is_chart)) {
      throw LqlError{MakeDiag(
          DiagCode::kSyntax,
          "lql parse error: only filters can be negated, not " + std::string(key) + ":", start, 1)};
    }
    if (is_from) {
      return From(start);
    }
    if (is_select) {
      return Select(start);
    }
    if (is_chart) {
      return ParseChartClause(cur_, start, rules_);
    }
    std::vector<std::string> path;
    if (key == "t" || key == "timestamp") {
      path = {"timestamp"};
    } else {
      path = cur_.SplitPath(key, key_begin);
    }
    Filter(std::move(path), Span(key_begin, key_begin + key.size()), start, negated);
  }

  void From(std::size_t start) {
    const std::size_t begin = cur_.pos;
    while (!cur_.AtEnd() && (IsAlnum(cur_.Peek()) || cur_.Peek() == '_')) {
      ++cur_.pos;
    }
    if (cur_.pos == begin) {
      throw cur_.Unexpected(cur_.pos);
    }
    if (rules_.from) {
      throw LqlError{MakeDiag(DiagCode::kSyntax, "lql parse error: only one f: clause is allowed",
                              start, cur_.pos - start)};
    }
    rules_.from =
        FromRule{std::string(cur_.text.substr(begin, cur_.pos - begin)), Span(start, cur_.pos)};
  }

  void Select(std::size_t start) {
    SelectRule rule;
    if (!cur_.AtEnd() && cur_.Peek() == '*') {
      ++cur_.pos;
    } else {
      const std::size_t begin = cur_.pos;
      while (!cur_.AtEnd() && IsPathChar(cur_.Peek())) {
        ++cur_.pos;
      }
      if (cur_.pos == begin) {
        throw cur_.Unexpected(cur_.pos);
      }
      rule.path = cur_.SplitPath(cur_.text.substr(begin, cur_.pos - begin), begin);
      if (!cur_.AtEnd() && cur_.Peek() == '@') {
        const std::size_t at = cur_.pos++;
        const std::size_t alias_begin = cur_.pos;
        while (!cur_.AtEnd() && (IsAlnum(cur_.Peek()) || cur_.Peek() == '_')) {
          ++cur_.pos;
        }
        if (cur_.pos == alias_begin) {
          if (!cur_.AtEnd() && !IsSpace(cur_.Peek())) {
            throw cur_.Unexpected(cur_.pos);
          }
          throw LqlError{
              MakeDiag(DiagCode::kSyntax, "lql parse error: missing alias after \"@\"", at, 1)};
        }
        rule.alias = std::string(cur_.text.substr(alias_begin, cur_.pos - alias_begin));
        if (IsDigit(rule.alias.front())) {
          throw cur_.Unexpected(alias_begin);
        }
      }
    }
    rule.span = Span(start, cur_.pos);
    rules_.selects.push_back(std::move(rule));
  }

  void Filter(std::vector<std::string> path, SourceSpan path_span, std::size_t start,
              bool negated) {
    FilterRule rule;
    rule.path = std::move(path);
    rule.path_span = path_span;
    rule.negated = negated;
    rule.op = ReadOperator();
    const std::string written(cur_.text.substr(path_span.begin, cur_.pos - path_span.begin));
    if (rule.op == FilterOp::kRegex || rule.op == FilterOp::kArrayRegex) {
      rule.value = RegexValue(written);
    } else if (!cur_.AtEnd() && cur_.Peek() == '"') {
      rule.value = cur_.Quoted();
    } else {
      rule.value = cur_.RawToken();
      if (rule.value.text.empty()) {
        throw MissingValue(written);
      }
      if (rule.op == FilterOp::kEq) {
        SplitPlainValue(rule);
      }
    }
    rule.span = Span(start, cur_.pos);
    rules_.filters.push_back(std::move(rule));
  }

  FilterOp ReadOperator() {
    static constexpr std::pair<std::string_view, FilterOp> kOps[] = {
        {">=", FilterOp::kGe},   {">", FilterOp::kGt},           {"<=", FilterOp::kLe},
        {"<", FilterOp::kLt},    {"@>~", FilterOp::kArrayRegex}, {"@>", FilterOp::kArrayContains},
        {"~", FilterOp::kRegex},
    };
    for (const auto& [text, op] : kOps) {
      if (cur_.text.substr(cur_.pos).starts_with(text)) {
        cur_.pos += text.size();
        return op;
      }
    }
    return FilterOp::kEq;
  }

  // NULL and low..high are only special when unquoted; brace ranges stay whole for the
  // timestamp parser.
  void SplitPlainValue(FilterRule& rule) {
    const std::string& text = rule.value.text;
    if (text == "NULL") {
      rule.op = FilterOp::kIsNull;
      return;
    }
    const std::size_t dots = text.find("..");
    if (dots == std::string::npos || text.find('{') != std::string::npos) {
      return;
    }
    if (dots == 0 || dots + 2 >= text.size()) {
      throw LqlError{MakeDiag(DiagCode::kSyntax,
                              "lql parse error: incomplete range \"" + text + "\"",
                              rule.value.span.begin, rule.value.span.end - rule.value.span.begin)};
    }
    const std::uint32_t base = rule.value.span.begin;
    rule.high.text = text.substr(dots + 2);
    rule.high.span = {static_cast<std::uint32_t>(base + dots + 2), rule.value.span.end};
    rule.value.text = text.substr(0, dots);
    rule.value.span.end = static_cast<std::uint32_t>(base + dots);
    rule.op = FilterOp::kRange;
  }

  Value RegexValue(const std::string& written) {
    if (!cur_.AtEnd() && cur_.Peek() == '"') {
      return cur_.Quoted();
    }
    Value value = cur_.RawToken(true);
    if (value.text.empty()) {
      throw MissingValue(written);
    }
    return value;
  }

  LqlError MissingValue(const std::string& written) const {
    const std::size_t begin = cur_.pos == 0 ? 0 : cur_.pos - 1;
    return LqlError{MakeDiag(DiagCode::kSyntax,
                             "lql parse error: missing value after \"" + written + "\"", begin, 1)};
  }

  Cursor cur_;
  Rules rules_;
};

}  // namespace

std::variant<Rules, Diagnostic> Parse(std::string_view text) {
  if (text.size() > kMaxLqlBytes) {
    return MakeDiag(DiagCode::kLimit, "lql query is too long (at most 65536 bytes)", 0, 1);
  }
  try {
    return Parser(text).Run();
  } catch (LqlError& e) {
    return std::move(e.diag);
  }
}

}  // namespace lqe::lql
