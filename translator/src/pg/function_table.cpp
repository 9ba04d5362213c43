// The function table (one row per BigQuery function) and the call dispatcher.
#include "pg/function_table.h"

#include <algorithm>
#include <unordered_map>

#include "lqe/ascii.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
constexpr FnKind kAgg = FnKind::kAggregate;
constexpr FnKind kWin = FnKind::kWindow;
constexpr FnKind kFn = FnKind::kScalar;

constexpr FunctionEntry kFunctions[] = {
    // Time
    {"TIMESTAMP_TRUNC", {2, 3}, EmitTimestampTrunc, kFn, true},
    {"DATETIME_TRUNC", {2, 2}, EmitDatetimeTrunc, kFn, true},
    {"DATE_TRUNC", {2, 2}, EmitDateTrunc, kFn, true},
    {"TIMESTAMP_ADD", {2, 2}, EmitTimestampAdd},
    {"TIMESTAMP_SUB", {2, 2}, EmitTimestampSub},
    {"DATETIME_ADD", {2, 2}, EmitDatetimeAdd},
    {"DATETIME_SUB", {2, 2}, EmitDatetimeSub},
    {"DATE_ADD", {2, 2}, EmitDateAdd},
    {"DATE_SUB", {2, 2}, EmitDateSub},
    {"TIMESTAMP_DIFF", {3, 3}, EmitTimestampDiff},
    {"DATETIME_DIFF", {3, 3}, EmitDatetimeDiff},
    {"DATE_DIFF", {3, 3}, EmitDateDiff},
    {"CURRENT_TIMESTAMP", {0, 0}, EmitCurrentTimestamp, kFn, true},
    {"CURRENT_DATE", {0, 1}, EmitCurrentDate, kFn, true},
    {"CURRENT_DATETIME", {0, 1}, EmitCurrentDatetime, kFn, true},
    {"TIMESTAMP", {1, 2}, EmitTimestampFn},
    {"DATETIME", {1, 6}, EmitDatetimeFn},
    {"DATE", {1, 3}, EmitDateFn},
    {"TIMESTAMP_MICROS", {1, 1}, EmitTimestampMicros},
    {"TIMESTAMP_MILLIS", {1, 1}, EmitTimestampMillis},
    {"TIMESTAMP_SECONDS", {1, 1}, EmitTimestampSeconds},
    {"UNIX_MICROS", {1, 1}, EmitUnixMicros, kFn, true},
    {"UNIX_MILLIS", {1, 1}, EmitUnixMillis, kFn, true},
    {"UNIX_SECONDS", {1, 1}, EmitUnixSeconds, kFn, true},
    {"UNIX_DATE", {1, 1}, EmitUnixDate, kFn, true},
    {"FORMAT_TIMESTAMP", {2, 3}, EmitFormatTimestamp},
    {"FORMAT_DATE", {2, 2}, EmitFormatDate},
    {"FORMAT_DATETIME", {2, 2}, EmitFormatDatetime},
    {"PARSE_TIMESTAMP", {2, 3}, EmitParseTimestamp},
    {"PARSE_DATE", {2, 2}, EmitParseDate},
    {"PARSE_DATETIME", {2, 2}, EmitParseDatetime},
    {"GENERATE_TIMESTAMP_ARRAY", {3, 3}, EmitGenerateTimestampArray},
    {"GENERATE_DATE_ARRAY", {2, 3}, EmitGenerateDateArray},
    // Aggregates
    {"COUNT", {0, 1}, EmitCount, kAgg},
    {"COUNTIF", {1, 1}, EmitCountIf, kAgg},
    {"SUM", {1, 1}, EmitSum, kAgg},
    {"AVG", {1, 1}, EmitAvg, kAgg},
    {"MIN", {1, 1}, EmitMinMax, kAgg},
    {"MAX", {1, 1}, EmitMinMax, kAgg},
    {"ANY_VALUE", {1, 1}, EmitAnyValue, kAgg},
    {"ARRAY_AGG", {1, 1}, EmitArrayAgg, kAgg},
    {"STRING_AGG", {1, 2}, EmitStringAgg, kAgg},
    {"APPROX_COUNT_DISTINCT", {1, 1}, EmitApproxCountDistinct, kAgg},
    {"APPROX_QUANTILES", {2, 2}, EmitApproxQuantiles, kAgg},
    {"LOGICAL_AND", {1, 1}, EmitLogicalAnd, kAgg},
    {"LOGICAL_OR", {1, 1}, EmitLogicalOr, kAgg},
    {"STDDEV", {1, 1}, EmitStatAgg, kAgg},
    {"STDDEV_SAMP", {1, 1}, EmitStatAgg, kAgg},
    {"STDDEV_POP", {1, 1}, EmitStatAgg, kAgg},
    {"VARIANCE", {1, 1}, EmitStatAgg, kAgg},
    {"VAR_SAMP", {1, 1}, EmitStatAgg, kAgg},
    {"VAR_POP", {1, 1}, EmitStatAgg, kAgg},
    // Window (analytic) functions
    {"ROW_NUMBER", {0, 0}, EmitRankLike, kWin},
    {"RANK", {0, 0}, EmitRankLike, kWin},
    {"DENSE_RANK", {0, 0}, EmitRankLike, kWin},
    {"PERCENT_RANK", {0, 0}, EmitRankLike, kWin},
    {"CUME_DIST", {0, 0}, EmitRankLike, kWin},
    {"NTILE", {1, 1}, EmitNtile, kWin},
    {"LAG", {1, 3}, EmitLagLead, kWin},
    {"LEAD", {1, 3}, EmitLagLead, kWin},
    {"FIRST_VALUE", {1, 1}, EmitFirstLastValue, kWin},
    {"LAST_VALUE", {1, 1}, EmitFirstLastValue, kWin},
    {"NTH_VALUE", {2, 2}, EmitNthValue, kWin},
    {"PERCENTILE_CONT", {2, 2}, EmitPercentile, kWin},
    {"PERCENTILE_DISC", {2, 2}, EmitPercentile, kWin},
    // Conditional
    {"IF", {3, 3}, EmitIf, kFn, true},
    {"IFNULL", {2, 2}, EmitIfNull, kFn, true},
    {"NULLIF", {2, 2}, EmitNullIf, kFn, true},
    {"COALESCE", {1, -1}, EmitCoalesce, kFn, true},
    {"GREATEST", {1, -1}, EmitGreatestLeast, kFn, true},
    {"LEAST", {1, -1}, EmitGreatestLeast, kFn, true},
    // Math
    {"SAFE_DIVIDE", {2, 2}, EmitSafeDivide, kFn, true},
    {"DIV", {2, 2}, EmitDiv},
    {"MOD", {2, 2}, EmitMod},
    {"ROUND", {1, 2}, EmitRound, kFn, true},
    {"TRUNC", {1, 2}, EmitTrunc, kFn, true},
    {"CEIL", {1, 1}, EmitCeilFloor, kFn, true},
    {"CEILING", {1, 1}, EmitCeilFloor, kFn, true},
    {"FLOOR", {1, 1}, EmitCeilFloor, kFn, true},
    {"ABS", {1, 1}, EmitAbs},
    {"SIGN", {1, 1}, EmitSign, kFn, true},
    {"POW", {2, 2}, EmitPow},
    {"POWER", {2, 2}, EmitPow},
    {"SQRT", {1, 1}, EmitFloatFn},
    {"EXP", {1, 1}, EmitFloatFn},
    {"LN", {1, 1}, EmitFloatFn},
    {"LOG10", {1, 1}, EmitFloatFn},
    {"LOG", {1, 2}, EmitLog},
    {"RAND", {0, 0}, EmitRand, kFn, true},
    // Arrays
    {"ARRAY_LENGTH", {1, 1}, EmitArrayLength, kFn, true},
    {"ARRAY_TO_STRING", {2, 3}, EmitArrayToString, kFn, true},
    {"ARRAY_CONCAT", {1, -1}, EmitArrayConcat, kFn, true},
    {"GENERATE_ARRAY", {2, 3}, EmitGenerateArray},
    {"GENERATE_UUID", {0, 0}, EmitGenerateUuid, kFn, true},
    // Strings
    {"CONCAT", {1, -1}, EmitConcat, kFn, true},
    {"STRPOS", {2, 2}, EmitStrpos, kFn, true},
    {"STARTS_WITH", {2, 2}, EmitStartsWith, kFn, true},
    {"ENDS_WITH", {2, 2}, EmitEndsWith, kFn, true},
    {"CONTAINS_SUBSTR", {2, 2}, EmitContainsSubstr, kFn, true},
    {"LOWER", {1, 1}, EmitCaseFn, kFn, true},
    {"UPPER", {1, 1}, EmitCaseFn, kFn, true},
    {"LENGTH", {1, 1}, EmitLength, kFn, true},
    {"CHAR_LENGTH", {1, 1}, EmitLength, kFn, true},
    {"CHARACTER_LENGTH", {1, 1}, EmitLength, kFn, true},
    {"BYTE_LENGTH", {1, 1}, EmitByteLength, kFn, true},
    {"SUBSTR", {2, 3}, EmitSubstr},
    {"SUBSTRING", {2, 3}, EmitSubstr},
    {"TRIM", {1, 2}, EmitTrimFn, kFn, true},
    {"LTRIM", {1, 2}, EmitTrimFn, kFn, true},
    {"RTRIM", {1, 2}, EmitTrimFn, kFn, true},
    {"REPLACE", {3, 3}, EmitReplace, kFn, true},
    {"SPLIT", {1, 2}, EmitSplit, kFn, true},
    {"FORMAT", {1, -1}, EmitFormat},
    {"LPAD", {2, 3}, EmitPad},
    {"RPAD", {2, 3}, EmitPad},
    {"REPEAT", {2, 2}, EmitRepeat},
    {"REVERSE", {1, 1}, EmitReverse, kFn, true},
    {"LEFT", {2, 2}, EmitLeftRight},
    {"RIGHT", {2, 2}, EmitLeftRight},
    {"INITCAP", {1, 1}, EmitInitcap, kFn, true},
    {"TO_HEX", {1, 1}, EmitToHex, kFn, true},
    {"FROM_HEX", {1, 1}, EmitFromHex},
    {"SHA256", {1, 1}, EmitSha, kFn, true},
    {"SHA512", {1, 1}, EmitSha, kFn, true},
    {"MD5", {1, 1}, EmitMd5, kFn, true},
    {"TO_BASE64", {1, 1}, EmitToBase64, kFn, true},
    // Regular expressions
    {"REGEXP_CONTAINS", {2, 2}, EmitRegexpContains, kFn, true},
    {"REGEXP_EXTRACT", {2, 2}, EmitRegexpExtract, kFn, true},
    {"REGEXP_SUBSTR", {2, 2}, EmitRegexpExtract, kFn, true},
    {"REGEXP_EXTRACT_ALL", {2, 2}, EmitRegexpExtractAll, kFn, true},
    {"REGEXP_REPLACE", {3, 3}, EmitRegexpReplace, kFn, true},
    // JSON
    {"JSON_VALUE", {1, 2}, EmitJsonValue, kFn, true},
    {"JSON_EXTRACT_SCALAR", {1, 2}, EmitJsonValue, kFn, true},
    {"JSON_QUERY", {1, 2}, EmitJsonQuery, kFn, true},
    {"JSON_EXTRACT", {1, 2}, EmitJsonQuery, kFn, true},
    {"JSON_QUERY_ARRAY", {1, 2}, EmitJsonQueryArray, kFn, true},
    {"JSON_EXTRACT_ARRAY", {1, 2}, EmitJsonQueryArray, kFn, true},
    {"TO_JSON_STRING", {1, 1}, EmitToJsonString, kFn, true},
    {"TO_JSON", {1, 1}, EmitToJson, kFn, true},
    {"PARSE_JSON", {1, 1}, EmitParseJson},
    {"JSON_TYPE", {1, 1}, EmitJsonType, kFn, true},
};

std::string ArityText(Arity a) {
  if (a.max < 0) return "at least " + std::to_string(a.min);
  if (a.min == a.max) return std::to_string(a.min);
  return std::to_string(a.min) + " to " + std::to_string(a.max);
}

}  // namespace

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) { return ascii::ToUpper(c); });
  return out;
}

const FunctionEntry* FindFunction(std::string_view name) {
  // Built once: upper-case name -> entry.
  static const auto* const kIndex = [] {
    auto* index = new std::unordered_map<std::string_view, const FunctionEntry*>();
    for (const auto& f : kFunctions) index->emplace(f.name, &f);
    return index;
  }();
  char upper[32];
  if (name.size() >= sizeof(upper)) return nullptr;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    upper[i] = c >= 'a' && c <= 'z' ? static_cast<char>(c - ('a' - 'A')) : c;
  }
  const auto it = kIndex->find(std::string_view(upper, name.size()));
  return it == kIndex->end() ? nullptr : it->second;
}

std::vector<std::string_view> FunctionNames() {
  std::vector<std::string_view> names;
  for (const auto& f : kFunctions) names.push_back(f.name);
  return names;
}

Value Emitter::EmitCall(const ast::Call& call) {
  const FunctionEntry* f = FindFunction(call.name.name);
  const std::string name = Upper(call.name.name);
  if (!f) Fail(DiagCode::kUnsupported, call.name.span, "unsupported function " + name);
  const int n = static_cast<int>(call.args.size()) + (call.star ? 1 : 0);
  if (n < f->arity.min || (f->arity.max >= 0 && n > f->arity.max)) {
    Fail(DiagCode::kType, call.span,
         "function " + name + " expects " + ArityText(f->arity) + " argument" +
             (f->arity.min == 1 && f->arity.max == 1 ? "" : "s") + ", got " + std::to_string(n));
  }
  if (call.star && name != "COUNT") {
    Fail(DiagCode::kSyntax, call.span, "only COUNT accepts *");
  }
  if (call.safe && !f->safe_ok) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported SAFE. prefix on " + name);
  }
  const bool agg_modifiers = call.distinct || !call.order_by.empty() || call.limit ||
                             call.null_handling != ast::Call::NullHandling::kDefault;
  if (agg_modifiers && f->kind != FnKind::kAggregate) {
    Fail(DiagCode::kUnsupported, call.span,
         "unsupported DISTINCT, ORDER BY, LIMIT or NULLS modifier in " + name);
  }
  if (call.over && f->kind == FnKind::kScalar) {
    Fail(DiagCode::kSyntax, call.span, name + " is not an analytic function");
  }
  if (!call.over && f->kind == FnKind::kWindow) {
    Fail(DiagCode::kSyntax, call.span, name + " needs an OVER clause");
  }
  return f->emit(*this, call);
}

std::vector<Value> EmitArgs(Emitter& e, const ast::Call& call) {
  std::vector<Value> out;
  out.reserve(call.args.size());
  for (const auto& a : call.args) out.push_back(e.EmitExpr(*a));
  return out;
}

std::string JoinSql(const std::vector<Value>& args, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < args.size(); ++i) out += (i > from ? ", " : "") + args[i].sql;
  return out;
}

Value MakeValue(std::string sql, TypeKind kind) {
  return MakeValue(std::move(sql), Type::Scalar(kind));
}

Value MakeValue(std::string sql, TypePtr type) {
  Value v;
  v.sql = std::move(sql);
  v.type = std::move(type);
  return v;
}

std::string Over(Emitter& e, const ast::Call& call) {
  if (!call.over) return "";
  const ast::WindowSpec& w = *call.over;
  // OVER w names the window; PG refuses OVER (w) when w has a frame.
  if (w.base_name && w.partition_by.empty() && w.order_by.empty() && !w.frame) {
    return " OVER " + e.EmitWindowSpec(w);
  }
  return " OVER (" + e.EmitWindowSpec(w) + ")";
}

DatePart ReadDatePart(const ast::Expr& arg) {
  static constexpr std::string_view kDays[] = {"SUNDAY",   "MONDAY", "TUESDAY", "WEDNESDAY",
                                               "THURSDAY", "FRIDAY", "SATURDAY"};
  if (arg.Is<ast::Path>() && arg.As<ast::Path>().parts.size() == 1) {
    return {Upper(arg.As<ast::Path>().parts[0].name), -1};
  }
  if (arg.Is<ast::Call>() && arg.As<ast::Call>().args.size() == 1 &&
      Upper(arg.As<ast::Call>().name.name) == "WEEK") {
    const auto& day = *arg.As<ast::Call>().args[0];
    if (day.Is<ast::Path>() && day.As<ast::Path>().parts.size() == 1) {
      const std::string d = Upper(day.As<ast::Path>().parts[0].name);
      for (int i = 0; i < 7; ++i) {
        if (kDays[i] == d) return {"WEEK", i};
      }
    }
    Fail(DiagCode::kSyntax, day.span, "WEEK(...) expects a weekday such as MONDAY");
  }
  Fail(DiagCode::kSyntax, arg.span, "expected a date part such as DAY or HOUR");
}

const ast::Literal& StringLiteralArg(const ast::Call& call, std::size_t i, std::string_view what) {
  const ast::Expr& arg = *call.args[i];
  if (!arg.Is<ast::Literal>() ||
      arg.As<ast::Literal>().literal_kind != ast::Literal::Kind::kString) {
    Fail(DiagCode::kUnsupported, arg.span,
         Upper(call.name.name) + " needs a literal " + std::string(what));
  }
  return arg.As<ast::Literal>();
}

}  // namespace lqe::pg
