// One NDJSON line of `lqe load`: a JSON object posted as one event, formed by FormEvent
// (event_form.h), the same function HTTP ingest uses.
#pragma once

#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "lqe/schema/event_form.h"

namespace lqe::schema {

// Parses one line into *value (memory from `storage`), then forms *event from it. *value and
// *event should use `storage` too: a value of another memory resource gets a copy of the tree.
// Returns false and sets *error for a line to reject: "invalid JSON at column 7: ...", "not a JSON
// object, got an array", or FormEvent's refusal.
bool ParseEventLine(std::string_view line, const boost::json::storage_ptr& storage,
                    boost::json::value* value, const EventFormOptions& options, FormedEvent* event,
                    std::string* error);

}  // namespace lqe::schema
