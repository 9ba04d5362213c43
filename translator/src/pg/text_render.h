// BigQuery's canonical text of a value (CAST(x AS STRING), FORMAT's %t, and every implicit
// rendering), and its literal form (FORMAT's %T). PostgreSQL's own text differs for TIMESTAMP
// (fraction digits, zone), FLOAT64 (Infinity/NaN), NUMERIC (trailing zeros) and BYTES.
#pragma once

#include <string>

#include "pg/scope.h"

namespace lqe::pg {

// A PG text expression; NULL stays NULL.
std::string BigQueryText(const Value& v);
// A PG text expression that is never NULL: a NULL value prints as NULL.
std::string BigQueryLiteralText(const Value& v);

}  // namespace lqe::pg
