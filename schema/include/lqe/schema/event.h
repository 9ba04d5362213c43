// One NDJSON line in the ingest shape: {"event_message": "...", "id"?, "timestamp"?, "project"?,
// "metadata"?: {...}}.
#pragma once

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lqe::schema {

struct Event {
  std::optional<std::string> id;
  std::optional<std::int64_t> timestamp_micros;
  std::string event_message;
  std::optional<std::string> project;
  const boost::json::object* metadata = nullptr;  // points into the parsed value; null means {}
};

// Checks the top-level shape of a parsed line. The value must outlive the event (metadata points
// into it). Returns false and sets *error ("event_message is required", "id must be a string",
// "unknown top-level field \"x\"", timestamp errors, ...) for a line to reject.
bool EventFromJson(const boost::json::value& value, Event* event, std::string* error);

// Parses one line into *value (memory from `storage`), then EventFromJson. Errors name the
// problem, e.g. "invalid JSON: syntax error at offset 7", "not a JSON object".
bool ParseEventLine(std::string_view line, const boost::json::storage_ptr& storage,
                    boost::json::value* value, Event* event, std::string* error);

}  // namespace lqe::schema
