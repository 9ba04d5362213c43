// The lowerings of the ClickHouse function table (functions.cpp), by family. Each takes the call
// with its arguments already lowered and returns the BigQuery AST that replaces it.
#pragma once

#include <cstddef>

#include "ast/query.h"

namespace lqe::clickhouse {

// A copy of argument i, for a lowering that reads it more than once; refuses what Clone cannot
// copy, by the function's name.
ast::ExprPtr CopyOf(const ast::Call& call, std::size_t i);
// Whether a lowered expression is never NULL: a literal other than NULL, an OTEL text column, or
// COALESCE(..., literal) (map access). Lowerings skip their NULL arm for these, and read the
// argument fewer times (each read of a map column computes it again).
bool NeverNull(const ast::Expr& e);
// The string literal argument i (a format, a JSON key); refuses anything else.
const std::string& StringArg(const ast::Call& call, std::size_t i);

// functions_aggregate.cpp
ast::ExprPtr LowerUniq(ast::Call& call);
ast::ExprPtr LowerQuantile(ast::Call& call);
ast::ExprPtr LowerQuantiles(ast::Call& call);
ast::ExprPtr LowerAny(ast::Call& call);
ast::ExprPtr LowerArgMax(ast::Call& call);
ast::ExprPtr LowerArgMin(ast::Call& call);
ast::ExprPtr LowerGroupArray(ast::Call& call);

// functions_convert.cpp
ast::ExprPtr LowerToInt32OrZero(ast::Call& call);
ast::ExprPtr LowerToInt32OrNull(ast::Call& call);
ast::ExprPtr LowerToInt64OrZero(ast::Call& call);
ast::ExprPtr LowerToInt64OrNull(ast::Call& call);
ast::ExprPtr LowerToUInt32OrZero(ast::Call& call);
ast::ExprPtr LowerToUInt32OrNull(ast::Call& call);
ast::ExprPtr LowerToUInt64OrZero(ast::Call& call);
ast::ExprPtr LowerToUInt64OrNull(ast::Call& call);
ast::ExprPtr LowerToFloat64OrZero(ast::Call& call);
ast::ExprPtr LowerToFloat64OrNull(ast::Call& call);
ast::ExprPtr LowerToDateTimeOrZero(ast::Call& call);
ast::ExprPtr LowerToDateTimeOrNull(ast::Call& call);

// functions_string.cpp
ast::ExprPtr LowerPosition(ast::Call& call);
ast::ExprPtr LowerPositionCaseInsensitive(ast::Call& call);
ast::ExprPtr LowerPositionUtf8(ast::Call& call);
ast::ExprPtr LowerLower(ast::Call& call);
ast::ExprPtr LowerUpper(ast::Call& call);
ast::ExprPtr LowerConcat(ast::Call& call);
ast::ExprPtr LowerSubstring(ast::Call& call);
ast::ExprPtr LowerSubstringUtf8(ast::Call& call);
ast::ExprPtr LowerLength(ast::Call& call);
ast::ExprPtr LowerLengthUtf8(ast::Call& call);
ast::ExprPtr LowerLike(ast::Call& call);
ast::ExprPtr LowerILike(ast::Call& call);
ast::ExprPtr LowerNotLike(ast::Call& call);
ast::ExprPtr LowerNotILike(ast::Call& call);

// functions_json.cpp
ast::ExprPtr LowerJsonExtractString(ast::Call& call);
ast::ExprPtr LowerJsonExtractInt(ast::Call& call);
ast::ExprPtr LowerJsonExtractFloat(ast::Call& call);
ast::ExprPtr LowerJsonExtractBool(ast::Call& call);
ast::ExprPtr LowerJsonExtractUInt(ast::Call& call);
ast::ExprPtr LowerJsonExtractRaw(ast::Call& call);
ast::ExprPtr LowerJsonHas(ast::Call& call);

// functions_cond.cpp: conditionals, NULLs, maps and arrays, integer division
ast::ExprPtr LowerMapContains(ast::Call& call);
ast::ExprPtr LowerHas(ast::Call& call);
ast::ExprPtr LowerEmpty(ast::Call& call);
ast::ExprPtr LowerNotEmpty(ast::Call& call);
ast::ExprPtr LowerCoalesce(ast::Call& call);
ast::ExprPtr LowerIfNull(ast::Call& call);
ast::ExprPtr LowerIntDiv(ast::Call& call);

// functions_time.cpp
ast::ExprPtr LowerToUnixTimestamp64Micro(ast::Call& call);
ast::ExprPtr LowerFormatDateTime(ast::Call& call);
ast::ExprPtr LowerStartOfFiveMinutes(ast::Call& call);
ast::ExprPtr LowerStartOfFifteenMinutes(ast::Call& call);

}  // namespace lqe::clickhouse
