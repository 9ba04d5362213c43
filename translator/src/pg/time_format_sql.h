// BigQuery FORMAT_* and PARSE_* of TIMESTAMP, DATETIME, DATE and TIME, element by element.
// Formatting builds a PostgreSQL text expression: to_char for the elements its templates print
// exactly, hand-written SQL for the rest (space padding, Sunday weeks, trimmed fractions, epoch
// seconds, zone offsets). Parsing builds a POSIX regex with one group per element and names what
// each group holds; bq.parse_time (migration 053) assembles the value from the groups.
#pragma once

#include <string>
#include <string_view>

namespace lqe::pg {

struct TimeFormatInput {
  std::string function;    // "FORMAT_TIMESTAMP", for messages
  std::string local_sql;   // the value as a PG timestamp (without time zone), in its zone
  std::string epoch_sql;   // seconds since the epoch of the instant (for %s)
  std::string offset_sql;  // the zone's UTC offset in seconds at the instant; "0" for civil values
  std::string zone_name_sql;  // %Z; empty: refused
};

struct TimeFormatSql {
  std::string sql;               // a text expression
  std::string error;             // non-empty: an element refused
  std::size_t error_offset = 0;  // byte offset of that element in the format
  std::size_t error_length = 0;  // its length in bytes
};

TimeFormatSql FormatTimeSql(std::string_view bigquery_format, const TimeFormatInput& in);

struct TimeParseRegex {
  std::string regex;  // anchored POSIX ARE
  std::string roles;  // one letter per capture group (see bq.parse_time)
  std::string error;
  std::size_t error_offset = 0;
  std::size_t error_length = 0;
};

TimeParseRegex ParseTimeRegex(std::string_view bigquery_format, std::string_view function);

}  // namespace lqe::pg
