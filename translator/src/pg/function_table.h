// The PostgreSQL side of the function list (functions/function_list.def): each row's emitter,
// the call dispatcher and helpers the emitters share. A function not in the list is refused
// ("unsupported function FOO"), never passed through.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "functions/function_list.h"
#include "pg/emitter.h"

namespace lqe::pg {

using functions::FnKind;
using EmitFn = Value (*)(Emitter&, const ast::Call&);

// The emitter of a row of functions/function_list.def.
EmitFn EmitterFor(const functions::Signature& f);

// A call of functions/internal_call.h (made by the ClickHouse lowering, never by query text).
Value EmitInternalCall(Emitter& e, const ast::Call& call);

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
// The function's name in lower case ("safe_add").
std::string LowerName(const ast::Call& call);
// The kind of a value (kUnknown for an untyped NULL).
TypeKind KindOf(const Value& v);
// Fails at argument i unless its kind is one of `kinds` (a NULL passes):
// "<FUNCTION> expects <what>, got <type>".
void RequireArg(const ast::Call& call, const std::vector<Value>& args, std::size_t i,
                std::initializer_list<TypeKind> kinds, std::string_view what);
// Every argument INT64, FLOAT64, NUMERIC or NULL.
void RequireNumberArgs(const ast::Call& call, const std::vector<Value>& args);
// The value cast to bigint / double precision.
std::string AsBigint(const Value& v);
std::string AsDouble(const Value& v);
// The common supertype of args[from..] (kUnknown when all are untyped NULLs).
TypePtr Common(const std::vector<Value>& args, std::size_t from);
// `sql` typed as the common type of args[from..], loose (an untyped integer literal) and a JSON
// array only when every such argument is.
Value Typed(std::string sql, const std::vector<Value>& args, std::size_t from);
// Argument i (INT64) as a bigint, or `fallback` when the call has fewer arguments.
std::string BigintArgOr(const ast::Call& call, const std::vector<Value>& args, std::size_t i,
                        std::string_view fallback);

// Emitters, one file per domain (functions_<domain>.cpp).
// time
Value EmitTimestampTrunc(Emitter& e, const ast::Call& call);
Value EmitDatetimeTrunc(Emitter& e, const ast::Call& call);
Value EmitDateTrunc(Emitter& e, const ast::Call& call);
Value EmitTimestampAdd(Emitter& e, const ast::Call& call);
Value EmitTimestampSub(Emitter& e, const ast::Call& call);
Value EmitDatetimeAdd(Emitter& e, const ast::Call& call);
Value EmitDatetimeSub(Emitter& e, const ast::Call& call);
Value EmitDateAdd(Emitter& e, const ast::Call& call);
Value EmitDateSub(Emitter& e, const ast::Call& call);
Value EmitTimestampDiff(Emitter& e, const ast::Call& call);
Value EmitDatetimeDiff(Emitter& e, const ast::Call& call);
Value EmitDateDiff(Emitter& e, const ast::Call& call);
Value EmitCurrentTimestamp(Emitter& e, const ast::Call& call);
Value EmitCurrentDate(Emitter& e, const ast::Call& call);
Value EmitCurrentDatetime(Emitter& e, const ast::Call& call);
Value EmitTimestampFn(Emitter& e, const ast::Call& call);
Value EmitDatetimeFn(Emitter& e, const ast::Call& call);
Value EmitDateFn(Emitter& e, const ast::Call& call);
Value EmitTimestampMicros(Emitter& e, const ast::Call& call);
Value EmitTimestampMillis(Emitter& e, const ast::Call& call);
Value EmitTimestampSeconds(Emitter& e, const ast::Call& call);
Value EmitUnixMicros(Emitter& e, const ast::Call& call);
Value EmitUnixMillis(Emitter& e, const ast::Call& call);
Value EmitUnixSeconds(Emitter& e, const ast::Call& call);
Value EmitUnixDate(Emitter& e, const ast::Call& call);
Value EmitFormatTimestamp(Emitter& e, const ast::Call& call);
Value EmitFormatDate(Emitter& e, const ast::Call& call);
Value EmitFormatDatetime(Emitter& e, const ast::Call& call);
Value EmitFormatTime(Emitter& e, const ast::Call& call);
Value EmitParseTimestamp(Emitter& e, const ast::Call& call);
Value EmitParseDate(Emitter& e, const ast::Call& call);
Value EmitParseDatetime(Emitter& e, const ast::Call& call);
Value EmitParseTime(Emitter& e, const ast::Call& call);
Value EmitGenerateTimestampArray(Emitter& e, const ast::Call& call);
Value EmitGenerateDateArray(Emitter& e, const ast::Call& call);
Value EmitLastDay(Emitter& e, const ast::Call& call);
Value EmitDateFromUnixDate(Emitter& e, const ast::Call& call);
// time of day
Value EmitTimeFn(Emitter& e, const ast::Call& call);
Value EmitTimeAdd(Emitter& e, const ast::Call& call);
Value EmitTimeSub(Emitter& e, const ast::Call& call);
Value EmitTimeDiff(Emitter& e, const ast::Call& call);
Value EmitTimeTrunc(Emitter& e, const ast::Call& call);
Value EmitCurrentTime(Emitter& e, const ast::Call& call);
// aggregate
Value EmitCount(Emitter& e, const ast::Call& call);
Value EmitCountIf(Emitter& e, const ast::Call& call);
Value EmitSum(Emitter& e, const ast::Call& call);
Value EmitAvg(Emitter& e, const ast::Call& call);
Value EmitMinMax(Emitter& e, const ast::Call& call);
Value EmitAnyValue(Emitter& e, const ast::Call& call);
Value EmitArrayAgg(Emitter& e, const ast::Call& call);
Value EmitStringAgg(Emitter& e, const ast::Call& call);
Value EmitApproxCountDistinct(Emitter& e, const ast::Call& call);
Value EmitApproxQuantiles(Emitter& e, const ast::Call& call);
Value EmitLogicalAnd(Emitter& e, const ast::Call& call);
Value EmitLogicalOr(Emitter& e, const ast::Call& call);
Value EmitStatAgg(Emitter& e, const ast::Call& call);
Value EmitRankLike(Emitter& e, const ast::Call& call);
Value EmitNtile(Emitter& e, const ast::Call& call);
Value EmitLagLead(Emitter& e, const ast::Call& call);
Value EmitFirstLastValue(Emitter& e, const ast::Call& call);
Value EmitNthValue(Emitter& e, const ast::Call& call);
Value EmitPercentile(Emitter& e, const ast::Call& call);
Value EmitBitAgg(Emitter& e, const ast::Call& call);
Value EmitCovariance(Emitter& e, const ast::Call& call);
Value EmitArrayConcatAgg(Emitter& e, const ast::Call& call);
Value EmitMaxMinBy(Emitter& e, const ast::Call& call);
// conditional
Value EmitIf(Emitter& e, const ast::Call& call);
Value EmitIfNull(Emitter& e, const ast::Call& call);
Value EmitNullIf(Emitter& e, const ast::Call& call);
Value EmitCoalesce(Emitter& e, const ast::Call& call);
Value EmitGreatestLeast(Emitter& e, const ast::Call& call);
// math
Value EmitSafeDivide(Emitter& e, const ast::Call& call);
Value EmitDiv(Emitter& e, const ast::Call& call);
Value EmitMod(Emitter& e, const ast::Call& call);
Value EmitRound(Emitter& e, const ast::Call& call);
Value EmitTrunc(Emitter& e, const ast::Call& call);
Value EmitCeilFloor(Emitter& e, const ast::Call& call);
Value EmitAbs(Emitter& e, const ast::Call& call);
Value EmitSign(Emitter& e, const ast::Call& call);
Value EmitPow(Emitter& e, const ast::Call& call);
Value EmitFloatFn(Emitter& e, const ast::Call& call);
Value EmitLog(Emitter& e, const ast::Call& call);
Value EmitRand(Emitter& e, const ast::Call& call);
Value EmitSafeArith(Emitter& e, const ast::Call& call);
Value EmitIeeeDivide(Emitter& e, const ast::Call& call);
Value EmitIsNanInf(Emitter& e, const ast::Call& call);
Value EmitBitCount(Emitter& e, const ast::Call& call);
Value EmitTrig(Emitter& e, const ast::Call& call);
Value EmitRangeBucket(Emitter& e, const ast::Call& call);
// array
Value EmitArrayLength(Emitter& e, const ast::Call& call);
Value EmitArrayToString(Emitter& e, const ast::Call& call);
Value EmitArrayConcat(Emitter& e, const ast::Call& call);
Value EmitGenerateArray(Emitter& e, const ast::Call& call);
Value EmitArrayReverse(Emitter& e, const ast::Call& call);
Value EmitArrayFirstLast(Emitter& e, const ast::Call& call);
Value EmitArraySlice(Emitter& e, const ast::Call& call);
Value EmitArrayIncludes(Emitter& e, const ast::Call& call);
Value EmitArrayIncludesAnyAll(Emitter& e, const ast::Call& call);
// string
Value EmitGenerateUuid(Emitter& e, const ast::Call& call);
Value EmitConcat(Emitter& e, const ast::Call& call);
Value EmitStrpos(Emitter& e, const ast::Call& call);
Value EmitStartsWith(Emitter& e, const ast::Call& call);
Value EmitEndsWith(Emitter& e, const ast::Call& call);
Value EmitContainsSubstr(Emitter& e, const ast::Call& call);
Value EmitCaseFn(Emitter& e, const ast::Call& call);
Value EmitLength(Emitter& e, const ast::Call& call);
Value EmitByteLength(Emitter& e, const ast::Call& call);
Value EmitSubstr(Emitter& e, const ast::Call& call);
Value EmitTrimFn(Emitter& e, const ast::Call& call);
Value EmitReplace(Emitter& e, const ast::Call& call);
Value EmitSplit(Emitter& e, const ast::Call& call);
Value EmitPad(Emitter& e, const ast::Call& call);
Value EmitRepeat(Emitter& e, const ast::Call& call);
Value EmitReverse(Emitter& e, const ast::Call& call);
Value EmitLeftRight(Emitter& e, const ast::Call& call);
Value EmitToHex(Emitter& e, const ast::Call& call);
Value EmitFromHex(Emitter& e, const ast::Call& call);
Value EmitSha(Emitter& e, const ast::Call& call);
Value EmitMd5(Emitter& e, const ast::Call& call);
Value EmitToBase64(Emitter& e, const ast::Call& call);
Value EmitInitcap(Emitter& e, const ast::Call& call);
Value EmitAscii(Emitter& e, const ast::Call& call);
Value EmitChr(Emitter& e, const ast::Call& call);
Value EmitCodePointsToString(Emitter& e, const ast::Call& call);
Value EmitToCodePoints(Emitter& e, const ast::Call& call);
Value EmitTranslate(Emitter& e, const ast::Call& call);
Value EmitFromBase64(Emitter& e, const ast::Call& call);
Value EmitInstr(Emitter& e, const ast::Call& call);
Value EmitNormalize(Emitter& e, const ast::Call& call);
// format
Value EmitFormat(Emitter& e, const ast::Call& call);
// regex
Value EmitRegexpContains(Emitter& e, const ast::Call& call);
Value EmitRegexpExtract(Emitter& e, const ast::Call& call);
Value EmitRegexpExtractAll(Emitter& e, const ast::Call& call);
Value EmitRegexpReplace(Emitter& e, const ast::Call& call);
Value EmitRegexpInstr(Emitter& e, const ast::Call& call);
// json
Value EmitJsonValue(Emitter& e, const ast::Call& call);
Value EmitJsonQuery(Emitter& e, const ast::Call& call);
Value EmitJsonQueryArray(Emitter& e, const ast::Call& call);
Value EmitToJsonString(Emitter& e, const ast::Call& call);
Value EmitToJson(Emitter& e, const ast::Call& call);
Value EmitParseJson(Emitter& e, const ast::Call& call);
Value EmitJsonType(Emitter& e, const ast::Call& call);
Value EmitJsonValueArray(Emitter& e, const ast::Call& call);
// conversion
Value EmitLaxJson(Emitter& e, const ast::Call& call);
Value EmitJsonConvert(Emitter& e, const ast::Call& call);
Value EmitParseNumeric(Emitter& e, const ast::Call& call);
// net
Value EmitNetHost(Emitter& e, const ast::Call& call);
Value EmitNetIpv4ToInt64(Emitter& e, const ast::Call& call);
Value EmitNetIpv4FromInt64(Emitter& e, const ast::Call& call);
Value EmitNetIpFromString(Emitter& e, const ast::Call& call);
Value EmitNetIpToString(Emitter& e, const ast::Call& call);
Value EmitNetIpNetMask(Emitter& e, const ast::Call& call);
Value EmitNetIpTrunc(Emitter& e, const ast::Call& call);

}  // namespace lqe::pg
