// An LQL filter evaluated on one event in the gateway (the live tail): the endpoints' parser
// and clause semantics, applied to the event's JSON instead of translated to SQL.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/lql_filter.h"

namespace re2 {
class RE2;
}

namespace lqe::gateway::tail {

// An event as the tail sees it: the log table's columns (id, event_message, project, metadata,
// extra) as a JSON object, and its timestamp in microseconds since the epoch.
struct EventView {
  const boost::json::object* fields = nullptr;
  std::int64_t timestamp_micros = 0;
};

class EventMatch {
 public:
  // Compiles the LQL text; the positioned diagnostic when it does not parse or holds a regular
  // expression RE2 refuses.
  static std::variant<EventMatch, Diagnostic> Compile(std::string_view lql,
                                                      std::chrono::system_clock::time_point now);
  // Whether every clause holds for the event (an empty filter matches everything).
  bool Matches(const EventView& event) const;
  bool empty() const { return clauses_.empty(); }

 private:
  struct Clause {
    lql::FilterClause rule;
    std::shared_ptr<const re2::RE2> regex;  // kRegex, kArrayRegex
  };
  bool Holds(const Clause& clause, const EventView& event) const;
  std::vector<Clause> clauses_;
};

}  // namespace lqe::gateway::tail
