#include "lql/lower_filter.h"

#include <array>
#include <charconv>
#include <utility>

#include "lql/ast_build.h"
#include "lql/unnest_paths.h"

namespace lqe::lql {
namespace {

using Op = ast::Binary::Op;

constexpr std::array<std::string_view, 8> kLevels = {"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};

[[noreturn]] void Fail(DiagCode code, std::string message, SourceSpan span) {
  throw LqlError{MakeDiag(code, std::move(message), span.begin, span.end - span.begin)};
}

bool IsInteger(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// -?digits[.digits][e[+-]digits]
bool IsDecimal(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) {
      ++i;
    }
    return i > start;
  };
  if (i < s.size() && s[i] == '-') {
    ++i;
  }
  if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) {
      return false;
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      ++i;
    }
    if (!digits()) {
      return false;
    }
  }
  return i == s.size();
}

std::string Lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return out;
}

[[noreturn]] void WrongValue(const Type& type, const ResolvedField& field, const Value& value) {
  Fail(DiagCode::kType,
       "expected " + ShortTypeName(type) + " for " + field.display + ", got " +
           QuoteForMessage(value.text),
       value.span);
}

// A negative number is a negation of its literal, as the SQL parser builds it.
ast::ExprPtr Number(std::string_view text, SourceSpan span, bool integer) {
  const bool negative = text.starts_with('-');
  std::string digits(negative ? text.substr(1) : text);
  ast::ExprPtr literal =
      integer ? build::Int(std::move(digits), span) : build::Float(std::move(digits), span);
  return negative ? build::Negate(std::move(literal), span) : std::move(literal);
}

ast::ExprPtr TimestampLiteral(Micros micros, SourceSpan span) {
  return build::Typed(TypeKind::kTimestamp, FormatTimestamp(micros), span);
}

// A value typed as `type` (a scalar: the field's, or an array's element type).
ast::ExprPtr TypedValue(const Type& type, const ResolvedField& field, const Value& value,
                        Micros now) {
  const std::string& text = value.text;
  switch (type.kind) {
    case TypeKind::kString:
      return build::String(text, value.span);
    case TypeKind::kInt64:
    case TypeKind::kFloat64:
    case TypeKind::kNumeric:
      if (type.kind == TypeKind::kInt64 && IsInteger(text)) {
        return Number(text, value.span, true);
      }
      if (IsDecimal(text)) {
        return Number(text, value.span, false);
      }
      WrongValue(type, field, value);
    case TypeKind::kBool: {
      const std::string lower = Lowercase(text);
      if (lower == "true" || lower == "false") {
        return build::Bool(lower == "true", value.span);
      }
      WrongValue(type, field, value);
    }
    case TypeKind::kTimestamp: {
      auto parsed = ParseTimeValue(text, now);
      if (auto* error = std::get_if<std::string>(&parsed)) {
        Fail(DiagCode::kType, *error, value.span);
      }
      const TimeValue& tv = std::get<TimeValue>(parsed);
      if (tv.is_range) {
        Fail(DiagCode::kType,
             "the time range " + QuoteForMessage(text) + " cannot be compared with <, <=, > or >=",
             value.span);
      }
      return TimestampLiteral(tv.point.micros, value.span);
    }
    default:
      Fail(DiagCode::kUnsupported,
           "lql cannot filter " + field.display + " of type " + ShortTypeName(type), value.span);
  }
}

ast::ExprPtr TimeRangeCondition(ast::ExprPtr path, const TimeRange& range, SourceSpan span) {
  if (!range.high_exclusive) {
    return build::Between(std::move(path), TimestampLiteral(range.low, span),
                          TimestampLiteral(range.high, span), span);
  }
  auto copy = std::make_unique<ast::Path>(span);
  copy->parts = path->As<ast::Path>().parts;
  return build::Binary(
      Op::kAnd, build::Binary(Op::kGe, std::move(path), TimestampLiteral(range.low, span), span),
      build::Binary(Op::kLt, std::move(copy), TimestampLiteral(range.high, span), span), span);
}

// t:value: a point is equality, a date is that day, a shorthand or brace range is a range.
ast::ExprPtr TimestampEquals(ast::ExprPtr path, const Value& value, Micros now, SourceSpan span) {
  auto parsed = ParseTimeValue(value.text, now);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    Fail(DiagCode::kType, *error, value.span);
  }
  const TimeValue& tv = std::get<TimeValue>(parsed);
  if (tv.is_range) {
    return TimeRangeCondition(std::move(path), tv.range, span);
  }
  if (tv.point.date_only) {
    return TimeRangeCondition(std::move(path),
                              {tv.point.micros, tv.point.micros + 86'400'000'000LL, true}, span);
  }
  return build::Binary(Op::kEq, std::move(path), TimestampLiteral(tv.point.micros, value.span),
                       span);
}

std::ptrdiff_t LevelIndex(std::string_view level) {
  for (std::size_t i = 0; i < kLevels.size(); ++i) {
    if (kLevels[i] == level) {
      return static_cast<std::ptrdiff_t>(i);
    }
  }
  return -1;
}

ast::ExprPtr Range(const FilterRule& rule, const ResolvedField& field, ast::ExprPtr path,
                   Micros now) {
  const Type& type = *field.type;
  if (type.kind == TypeKind::kTimestamp) {
    auto parsed = ParseTimeRange(rule.value.text, rule.high.text, now);
    if (auto* error = std::get_if<std::string>(&parsed)) {
      Fail(DiagCode::kType, *error, {rule.value.span.begin, rule.high.span.end});
    }
    return TimeRangeCondition(std::move(path), std::get<TimeRange>(parsed), rule.span);
  }
  const auto low = LevelIndex(rule.value.text);
  const auto high = LevelIndex(rule.high.text);
  if (field.display == "metadata.level" && type.kind == TypeKind::kString && low >= 0 &&
      high >= 0) {
    if (low > high) {
      Fail(DiagCode::kType,
           "level range " + QuoteForMessage(rule.value.text + ".." + rule.high.text) +
               " runs backwards: levels go debug, info, notice, warning, error, critical, alert, "
               "emergency",
           {rule.value.span.begin, rule.high.span.end});
    }
    ast::ExprList levels;
    for (auto i = low; i <= high; ++i) {
      levels.push_back(
          build::String(std::string(kLevels[static_cast<std::size_t>(i)]), rule.value.span));
    }
    return build::InList(std::move(path), std::move(levels), rule.span);
  }
  return build::Between(std::move(path), TypedValue(type, field, rule.value, now),
                        TypedValue(type, field, rule.high, now), rule.span);
}

void RequireString(const Type& type, const ResolvedField& field, const FilterRule& rule,
                   const char* what) {
  if (type.kind == TypeKind::kString) {
    return;
  }
  Fail(DiagCode::kType,
       std::string(what) + " needs a STRING field, but " + field.display + " is " +
           ShortTypeName(type),
       rule.path_span);
}

const Type& RequireArray(const ResolvedField& field, const FilterRule& rule) {
  if (field.type->kind != TypeKind::kArray) {
    Fail(DiagCode::kType,
         "@> needs an array field, but " + field.display + " is " + ShortTypeName(*field.type),
         rule.path_span);
  }
  return *field.type->element;
}

void RequireScalar(const ResolvedField& field, const FilterRule& rule) {
  if (field.type->kind == TypeKind::kRecord || RepeatedRecordElement(*field.type) != nullptr) {
    Fail(DiagCode::kType, "field " + field.display + " is a record: filter on one of its fields",
         rule.path_span);
  }
  if (field.type->kind == TypeKind::kArray) {
    Fail(DiagCode::kType,
         "field " + field.display + " is an array (" + ShortTypeName(*field.type) +
             "): use :@>value to match an element",
         rule.path_span);
  }
  if (field.type->kind == TypeKind::kRecord) {
    Fail(DiagCode::kType, "field " + field.display + " is a record: filter on one of its fields",
         rule.path_span);
  }
}

ast::ExprPtr Condition(const FilterRule& rule, const ResolvedField& field, ast::ExprPtr path,
                       Micros now) {
  const Type& type = *field.type;
  switch (rule.op) {
    case FilterOp::kIsNull:
      return build::IsNull(std::move(path), rule.negated, rule.span);
    case FilterOp::kContains: {
      RequireString(type, field, rule, "text search");
      ast::ExprList args;
      args.push_back(std::move(path));
      args.push_back(build::String(rule.value.text, rule.value.span));
      return build::Binary(Op::kGt, build::Call("STRPOS", std::move(args), rule.span),
                           build::Int("0", rule.span), rule.span);
    }
    case FilterOp::kRegex: {
      RequireString(type, field, rule, "a regular expression");
      ast::ExprList args;
      args.push_back(std::move(path));
      args.push_back(build::String(rule.value.text, rule.value.span));
      return build::Call("REGEXP_CONTAINS", std::move(args), rule.span);
    }
    case FilterOp::kArrayContains: {
      const Type& element = RequireArray(field, rule);
      return build::InUnnest(TypedValue(element, field, rule.value, now), std::move(path),
                             rule.span);
    }
    case FilterOp::kArrayRegex: {
      RequireString(RequireArray(field, rule), field, rule, "@>~");
      ast::ExprList args;
      args.push_back(build::Path({"x"}, rule.span));
      args.push_back(build::String(rule.value.text, rule.value.span));
      return build::ExistsInUnnest(std::move(path), "x",
                                   build::Call("REGEXP_CONTAINS", std::move(args), rule.span),
                                   rule.span);
    }
    case FilterOp::kRange:
      RequireScalar(field, rule);
      return Range(rule, field, std::move(path), now);
    case FilterOp::kEq:
      RequireScalar(field, rule);
      if (type.kind == TypeKind::kTimestamp) {
        return TimestampEquals(std::move(path), rule.value, now, rule.span);
      }
      return build::Binary(Op::kEq, std::move(path), TypedValue(type, field, rule.value, now),
                           rule.span);
    case FilterOp::kGt:
    case FilterOp::kGe:
    case FilterOp::kLt:
    case FilterOp::kLe: {
      RequireScalar(field, rule);
      static constexpr Op kOps[] = {Op::kGt, Op::kGe, Op::kLt, Op::kLe};
      const Op op = kOps[static_cast<int>(rule.op) - static_cast<int>(FilterOp::kGt)];
      return build::Binary(op, std::move(path), TypedValue(type, field, rule.value, now),
                           rule.span);
    }
  }
  return nullptr;
}

}  // namespace

ast::ExprPtr FieldPath(const CteInfo& cte, const ResolvedField& field, SourceSpan span) {
  std::vector<std::string> parts = {cte.name};
  parts.insert(parts.end(), field.names.begin(), field.names.end());
  return build::Path(parts, span);
}

ast::ExprPtr LowerFilter(const FilterRule& rule, const FilterContext& context) {
  const ResolvedField field = ResolveField(*context.cte, rule.path, rule.path_span);
  // Inside a repeated record: whether some element matches. A negated filter keeps the rows where
  // none does (a row without the field included), as it keeps rows without it below.
  if (rule.op == FilterOp::kIsNull) {
    // field:NULL holds when no element has the field; -field:NULL when one has.
    auto present = ExistsInElements(
        *context.cte, field,
        [&](ast::ExprPtr path) { return build::IsNull(std::move(path), true, rule.span); },
        rule.span);
    if (present) {
      return rule.negated ? std::move(present) : build::Not(std::move(present), rule.span);
    }
  } else {
    auto matching = ExistsInElements(
        *context.cte, field,
        [&](ast::ExprPtr path) { return Condition(rule, field, std::move(path), context.now); },
        rule.span);
    if (matching) {
      return rule.negated ? build::Not(std::move(matching), rule.span) : std::move(matching);
    }
  }
  ast::ExprPtr condition =
      Condition(rule, field, FieldPath(*context.cte, field, rule.path_span), context.now);
  if (!rule.negated || rule.op == FilterOp::kIsNull) {
    return condition;
  }
  // Like the reference: a negated filter also keeps rows where the field is missing.
  return build::Binary(
      Op::kOr, build::IsNull(FieldPath(*context.cte, field, rule.path_span), false, rule.path_span),
      build::Not(std::move(condition), rule.span), rule.span);
}

}  // namespace lqe::lql
