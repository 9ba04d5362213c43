// The BigQuery function table: one row per function, each with its arity and emitter. A function
// not in the table is refused ("unsupported function FOO"), never passed through.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pg/emitter.h"

namespace lqe::pg {

struct Arity {
  int min = 0;
  int max = 0;  // -1: any number
};

enum class FnKind : std::uint8_t { kScalar, kAggregate, kWindow };

using EmitFn = Value (*)(Emitter&, const ast::Call&);

struct FunctionEntry {
  std::string_view name;  // upper case
  Arity arity;
  EmitFn emit;
  FnKind kind = FnKind::kScalar;
  bool safe_ok = false;  // SAFE.f() is f(): the PG form never raises for valid input types
};

// nullptr when `name` (any case) is not a supported function.
const FunctionEntry* FindFunction(std::string_view name);
std::vector<std::string_view> FunctionNames();

// Helpers shared by the function emitters.
std::vector<Value> EmitArgs(Emitter& e, const ast::Call& call);
std::string JoinSql(const std::vector<Value>& args, std::size_t from = 0);
Value MakeValue(std::string sql, TypeKind kind);
Value MakeValue(std::string sql, TypePtr type);
// " OVER (...)" when the call has a window, else "".
std::string Over(Emitter& e, const ast::Call& call);
// The upper-case name of a date part argument (MINUTE, WEEK, ...) and its weekday for
// WEEK(<weekday>) (0 = Sunday; -1 when absent). Throws for anything else.
struct DatePart {
  std::string name;
  int weekday = -1;
};
DatePart ReadDatePart(const ast::Expr& arg);
// The text of a string literal argument; throws `what` needs a literal otherwise.
const ast::Literal& StringLiteralArg(const ast::Call& call, std::size_t i, std::string_view what);
std::string Upper(std::string_view s);

// Emitters defined in functions_*.cpp.
#define LQE_FN(name) Value name(Emitter& e, const ast::Call& call);
// time
LQE_FN(EmitTimestampTrunc)
LQE_FN(EmitDatetimeTrunc)
LQE_FN(EmitDateTrunc)
LQE_FN(EmitTimestampAdd) LQE_FN(EmitTimestampSub) LQE_FN(EmitDatetimeAdd) LQE_FN(EmitDatetimeSub)
    LQE_FN(EmitDateAdd) LQE_FN(EmitDateSub) LQE_FN(EmitTimestampDiff) LQE_FN(EmitDatetimeDiff)
        LQE_FN(EmitDateDiff) LQE_FN(EmitCurrentTimestamp) LQE_FN(EmitCurrentDate)
            LQE_FN(EmitCurrentDatetime) LQE_FN(EmitTimestampFn) LQE_FN(EmitDatetimeFn)
                LQE_FN(EmitDateFn) LQE_FN(EmitTimestampMicros) LQE_FN(EmitTimestampMillis)
                    LQE_FN(EmitTimestampSeconds) LQE_FN(EmitUnixMicros) LQE_FN(EmitUnixMillis)
                        LQE_FN(EmitUnixSeconds) LQE_FN(EmitUnixDate) LQE_FN(EmitFormatTimestamp)
                            LQE_FN(EmitFormatDate) LQE_FN(EmitFormatDatetime)
                                LQE_FN(EmitParseTimestamp) LQE_FN(EmitParseDate)
                                    LQE_FN(EmitParseDatetime) LQE_FN(EmitGenerateTimestampArray)
                                        LQE_FN(EmitGenerateDateArray)
    // aggregates and windows
    LQE_FN(EmitCount) LQE_FN(EmitCountIf) LQE_FN(EmitSum) LQE_FN(EmitAvg) LQE_FN(EmitMinMax)
        LQE_FN(EmitAnyValue) LQE_FN(EmitArrayAgg) LQE_FN(EmitStringAgg)
            LQE_FN(EmitApproxCountDistinct) LQE_FN(EmitApproxQuantiles) LQE_FN(EmitLogicalAnd)
                LQE_FN(EmitLogicalOr) LQE_FN(EmitStatAgg) LQE_FN(EmitRankLike) LQE_FN(EmitNtile)
                    LQE_FN(EmitLagLead) LQE_FN(EmitFirstLastValue) LQE_FN(EmitNthValue)
                        LQE_FN(EmitPercentile)
    // conditional, math, arrays
    LQE_FN(EmitIf) LQE_FN(EmitIfNull) LQE_FN(EmitNullIf) LQE_FN(EmitCoalesce)
        LQE_FN(EmitGreatestLeast) LQE_FN(EmitSafeDivide) LQE_FN(EmitDiv) LQE_FN(EmitMod)
            LQE_FN(EmitRound) LQE_FN(EmitTrunc) LQE_FN(EmitCeilFloor) LQE_FN(EmitAbs)
                LQE_FN(EmitSign) LQE_FN(EmitPow) LQE_FN(EmitFloatFn) LQE_FN(EmitLog)
                    LQE_FN(EmitRand) LQE_FN(EmitArrayLength) LQE_FN(EmitArrayToString)
                        LQE_FN(EmitArrayConcat) LQE_FN(EmitGenerateArray) LQE_FN(EmitGenerateUuid)
    // strings, regular expressions, JSON
    LQE_FN(EmitConcat) LQE_FN(EmitStrpos) LQE_FN(EmitStartsWith) LQE_FN(EmitEndsWith)
        LQE_FN(EmitContainsSubstr) LQE_FN(EmitCaseFn) LQE_FN(EmitLength) LQE_FN(EmitByteLength)
            LQE_FN(EmitSubstr) LQE_FN(EmitTrimFn) LQE_FN(EmitReplace) LQE_FN(EmitSplit)
                LQE_FN(EmitFormat) LQE_FN(EmitPad) LQE_FN(EmitRepeat) LQE_FN(EmitReverse)
                    LQE_FN(EmitLeftRight) LQE_FN(EmitToHex) LQE_FN(EmitFromHex) LQE_FN(EmitSha)
                        LQE_FN(EmitMd5) LQE_FN(EmitToBase64) LQE_FN(EmitInitcap)
                            LQE_FN(EmitRegexpContains) LQE_FN(EmitRegexpExtract)
                                LQE_FN(EmitRegexpExtractAll) LQE_FN(EmitRegexpReplace)
                                    LQE_FN(EmitJsonValue) LQE_FN(EmitJsonQuery)
                                        LQE_FN(EmitJsonQueryArray) LQE_FN(EmitToJsonString)
                                            LQE_FN(EmitToJson) LQE_FN(EmitParseJson)
                                                LQE_FN(EmitJsonType)
#undef LQE_FN

}  // namespace lqe::pg
