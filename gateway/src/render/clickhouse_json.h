// Result values of a `language: clickhouse` endpoint, as ClickHouse's JSON output format writes
// them with its default settings (ClickHouse 26), which is what Studio's OTEL log pages parse.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lqe/types.h"

namespace lqe::gateway {

// Appends the JSON of one PostgreSQL text value (nullopt = NULL) of type `type`:
// - TIMESTAMP: "YYYY-MM-DD HH:MM:SS.ffffff" in UTC (ClickHouse's DateTime64(6));
// - INT64: a JSON number (output_format_json_quote_64bit_integers defaults to 0);
// - JSON (the OTEL maps), arrays and records: the JSON text itself, objects not wrapped in
//   one-element arrays (ClickHouse's Map and Tuple are plain JSON objects);
// - FLOAT64: a JSON number, NaN and infinities as null (output_format_json_quote_denormals = 0);
// - anything else as the BigQuery-dialect rendering writes it.
// Every string value is redacted when `redact`.
void AppendClickHouseValue(std::string& out, const Type& type, std::optional<std::string_view> text,
                           bool redact);

// microseconds since the epoch -> "YYYY-MM-DD HH:MM:SS.ffffff" (UTC).
std::string ClickHouseDateTime64(std::int64_t micros);

}  // namespace lqe::gateway
