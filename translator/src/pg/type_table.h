// BigQuery types to PostgreSQL types (the output contract in brief/common.md).
#pragma once

#include <string>
#include <string_view>

#include "lqe/types.h"

namespace lqe::pg {

// "bigint", "double precision", ...; records, arrays and JSON are "jsonb".
std::string_view PgTypeName(TypeKind kind);
// A PG type for a value of `type` as the translator stores it (arrays of scalars as PG arrays).
std::string PgStorageType(const Type& type);
// INT64 and FLOAT64 and NUMERIC; the unknown NULL type counts as anything.
bool IsNumber(const TypePtr& type);
bool IsKind(const TypePtr& type, TypeKind kind);
// A STRING's TIMESTAMP (CAST and TIMESTAMP(string)). `row_free` (the text reads no row, see
// ast::IsRowFree): bq.timestamp_constant (migration 070), the same cast declared IMMUTABLE, so
// PostgreSQL folds it while planning and prunes day partitions then. Otherwise the plain (STABLE)
// cast: the function's SET clauses would cost on every row.
std::string TimestampFromText(const std::string& text_sql, bool row_free);

}  // namespace lqe::pg
