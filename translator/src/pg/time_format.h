// BigQuery format strings (FORMAT_TIMESTAMP / PARSE_TIMESTAMP / FORMAT_DATE ..., strftime-like
// %Y-%m-%d) to PostgreSQL to_char / to_timestamp templates.
#pragma once

#include <string>
#include <string_view>

namespace lqe::pg {

struct TimeFormatConversion {
  std::string pattern;           // PG template; literal text double-quoted
  std::string error;             // non-empty: an element with no faithful PG equivalent
  std::size_t error_offset = 0;  // byte offset of that element in the BigQuery format
};

TimeFormatConversion ConvertTimeFormat(std::string_view bigquery_format);

}  // namespace lqe::pg
