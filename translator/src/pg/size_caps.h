// Caps on what one call can make PostgreSQL build, so a caller's query cannot make the server
// allocate gigabytes. A call whose constant arguments exceed a cap is refused at translation
// (positioned, 400); otherwise the emitted SQL calls a bq.* helper (migration 052) that checks
// the same cap at run time and raises SQLSTATE 22023, which the gateway also answers with 400.
#pragma once

#include <cstdint>

#include "ast/expr.h"

namespace lqe::pg {

// GENERATE_ARRAY, GENERATE_DATE_ARRAY, GENERATE_TIMESTAMP_ARRAY: elements per array.
inline constexpr std::int64_t kMaxGeneratedArrayElements = 1'000'000;
// REPEAT: bytes of the result. LPAD, RPAD: the length argument, in characters.
inline constexpr std::int64_t kMaxStringResultBytes = 1'048'576;
inline constexpr std::int64_t kMaxPadLength = 1'048'576;

// Translation-time checks; each throws a positioned kUnsupported diagnostic over its cap and
// does nothing when an argument is not a constant.
void CheckGenerateArrayCap(const ast::Call& call);
void CheckGenerateTimeArrayCap(const ast::Call& call, bool dates);
void CheckRepeatCap(const ast::Call& call);
void CheckPadCap(const ast::Call& call);

}  // namespace lqe::pg
