#include "lqe/schema/event.h"

#include <boost/json/parser.hpp>

#include "lqe/schema/timestamp.h"

namespace lqe::schema {
namespace {

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

const char* KindName(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::null:
      return "null";
    case boost::json::kind::bool_:
      return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_:
      return "a number";
    case boost::json::kind::string:
      return "a string";
    case boost::json::kind::array:
      return "an array";
    case boost::json::kind::object:
      return "an object";
  }
  return "a value";
}

// PostgreSQL text and jsonb cannot hold NUL characters.
bool HasNul(std::string_view s) {
  return s.find('\0') != std::string_view::npos;
}

bool OptionalString(const boost::json::value& v, const char* name, std::optional<std::string>* out,
                    std::string* error) {
  if (v.is_null()) return true;
  if (!v.is_string())
    return Fail(error, std::string(name) + " must be a string, got " + KindName(v));
  if (HasNul(v.get_string())) return Fail(error, std::string(name) + " contains a NUL character");
  *out = std::string(v.get_string());
  return true;
}

bool ParseTimestampValue(const boost::json::value& v, Event* event, std::string* error) {
  std::optional<std::int64_t> micros;
  std::string why;
  if (v.is_null()) return true;
  if (v.is_string()) {
    micros = ParseTimestampText(v.get_string(), &why);
  } else if (v.is_int64()) {
    micros = EpochToMicros(v.get_int64(), &why);
  } else if (v.is_uint64()) {
    why = "timestamp out of range (1970-01-01 to 2099-12-31)";
  } else if (v.is_double()) {
    micros = EpochToMicros(v.get_double(), &why);
  } else {
    return Fail(error, std::string("timestamp must be a string or a number, got ") + KindName(v));
  }
  if (!micros) return Fail(error, why);
  event->timestamp_micros = micros;
  return true;
}

}  // namespace

bool EventFromJson(const boost::json::value& value, Event* event, std::string* error) {
  if (!value.is_object())
    return Fail(error, std::string("not a JSON object, got ") + KindName(value));
  *event = Event{};
  bool has_message = false;
  for (const auto& [key, v] : value.get_object()) {
    if (key == "event_message") {
      if (!v.is_string()) {
        return Fail(error, std::string("event_message must be a string, got ") + KindName(v));
      }
      if (HasNul(v.get_string())) return Fail(error, "event_message contains a NUL character");
      event->event_message = std::string(v.get_string());
      has_message = true;
    } else if (key == "id") {
      if (!OptionalString(v, "id", &event->id, error)) return false;
      if (event->id && event->id->empty()) event->id.reset();
    } else if (key == "project") {
      if (!OptionalString(v, "project", &event->project, error)) return false;
    } else if (key == "timestamp") {
      if (!ParseTimestampValue(v, event, error)) return false;
    } else if (key == "metadata") {
      if (v.is_object()) {
        event->metadata = &v.get_object();
      } else if (!v.is_null()) {
        return Fail(error, std::string("metadata must be an object, got ") + KindName(v));
      }
    } else {
      return Fail(error, "unknown top-level field \"" + std::string(key) +
                             "\" (expected event_message, id, timestamp, project, metadata)");
    }
  }
  if (!has_message) return Fail(error, "event_message is required");
  return true;
}

bool ParseEventLine(std::string_view line, const boost::json::storage_ptr& storage,
                    boost::json::value* value, Event* event, std::string* error) {
  // Reused across lines: the parser keeps its internal stack allocation.
  thread_local boost::json::parser parser;
  parser.reset(storage);
  boost::json::error_code ec;
  const std::size_t used = parser.write(line.data(), line.size(), ec);
  if (ec) {
    return Fail(error, "invalid JSON at column " + std::to_string(used + 1) + ": " + ec.message());
  }
  *value = parser.release();
  return EventFromJson(*value, event, error);
}

}  // namespace lqe::schema
