#include "lqe/schema/event.h"

#include <boost/json/parser.hpp>

namespace lqe::schema {
namespace {

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

}  // namespace

bool ParseEventLine(std::string_view line, const boost::json::storage_ptr& storage,
                    boost::json::value* value, const EventFormOptions& options, FormedEvent* event,
                    std::string* error) {
  // Reused across lines: the parser keeps its internal stack allocation.
  thread_local boost::json::parser parser;
  parser.reset(storage);
  boost::json::error_code ec;
  const std::size_t used = parser.write(line.data(), line.size(), ec);
  if (ec) {
    *error = "invalid JSON at column " + std::to_string(used + 1) + ": " + ec.message();
    return false;
  }
  *value = parser.release();
  if (!value->is_object()) {
    *error = std::string("not a JSON object, got ") + KindName(*value);
    return false;
  }
  return FormEvent(std::move(value->get_object()), options, event, error);
}

}  // namespace lqe::schema
