// One event model for HTTP ingest and `lqe load`: forms the stored event from one posted JSON
// object the way Logflare does (message keys, timestamp forms, generated id, BigQuery column
// names at every depth, cleaning of empty values). Pure: the clock and the id source are injected.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/storage_ptr.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lqe::schema {

// The keys of `extra` marking an event whose timestamp could not be read (see FormedEvent).
inline constexpr std::string_view kTimestampOriginalKey = "timestamp_original";
inline constexpr std::string_view kTimestampInferredKey = "timestamp_inferred";

struct EventFormOptions {
  std::function<std::int64_t()> now_micros;  // ingest time, microseconds since the epoch
  std::function<std::string()> new_id;       // a fresh id (UUIDv4) for events without one
  // Events stamped later than now + this are refused (Logflare drops them; lqe says why).
  std::int64_t max_future_micros = 3600LL * 1000000;
};

struct FormedEvent {
  // metadata and extra live in `storage` (Boost.JSON containers keep the memory they start with).
  explicit FormedEvent(const boost::json::storage_ptr& storage = {})
      : metadata(storage), extra(storage) {}

  std::string id;
  bool id_given = false;  // the id came with the event
  std::int64_t timestamp_micros = 0;
  bool timestamp_given = false;  // false: the ingest time (absent or unreadable)
  // A timestamp was sent but could not be read: the event is stored at the ingest time, and
  // extra holds the value as sent (timestamp_original) and timestamp_inferred: true.
  bool timestamp_inferred = false;
  std::optional<std::string> event_message;  // null when the event has no message
  std::optional<std::string> project;
  boost::json::object metadata;  // cleaned and renamed; {} when absent
  // Every other top-level key (appname, severity, level, a non-object metadata, ...), cleaned and
  // renamed; stored in the log tables' `extra` column.
  boost::json::object extra;
};

// Forms an event. Returns false and sets *refusal for an event that is not stored: a timestamp
// more than max_future_micros ahead, or before 1970, or after 2099; a string with a NUL character
// (PostgreSQL cannot store it). Everything else is stored; nothing the shipper sent is dropped
// except empty values (null, "", [], {}).
bool FormEvent(const boost::json::object& posted, const EventFormOptions& options,
               FormedEvent* event, std::string* refusal);
// The same, taking the posted object apart instead of copying it (cheapest when `posted` and
// *event share one memory resource).
bool FormEvent(boost::json::object&& posted, const EventFormOptions& options, FormedEvent* event,
               std::string* refusal);

// BigQuery column rules, applied in this order, each adding one leading '_': a key with '-' has
// its dashes turned into '_'; a key with other characters outside [A-Za-z0-9_] has each of them
// turned into '_'; a key starting with a digit; a key starting with a reserved prefix (_TABLE_,
// _FILE_, _PARTITION, any case); a key longer than 128 bytes keeps its first 128 characters.
// E.g. "x-forwarded-for" -> "_x_forwarded_for", "a.b" -> "_a_b", "a-b.c" -> "__a_b_c".
std::string NormaliseKey(std::string_view key);

// The timestamp of a posted value in microseconds into *micros, or nullopt there when it cannot
// be read (the event then gets the ingest time and is marked, see FormedEvent):
// - ISO 8601 text, with T, t or a space between date and time, and an optional zone (Z, UTC,
//   +HH, +HH:MM, +HHMM); text without a zone is UTC (BigQuery's rule); a date alone is midnight
//   UTC; "," as decimal mark and any number of fraction digits (truncated to microseconds);
// - integers scaled by their digit count (19 ns, 16 us, 13 ms, 10 s, 7 digits x 10^9, any other
//   count us); floats rounded first; text holding such a number with 10, 13, 16 or 19 digits;
// - negative numbers, other text and other JSON types: nullopt.
// Returns false and sets *refusal for a well-formed time outside 1970-01-01 .. 2099-12-31.
bool PostedTimestampMicros(const boost::json::value& value, std::optional<std::int64_t>* micros,
                           std::string* refusal);

}  // namespace lqe::schema
