// A batch of accepted events on its way from the parser to the database (internal to the loader).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "lqe/schema/catalogue_evolution.h"
#include "lqe/schema/timestamp.h"

namespace lqe::schema {

// One accepted event waiting for its batch's COPY.
struct Row {
  std::int64_t line_no = 0;
  std::string id;
  bool given_ts = false;  // the timestamp came with the event
  std::int64_t ts = 0;
  std::string copy_line;
};

class Batch {
 public:
  // False when the batch already holds a duplicate of this event.
  bool Add(Row row) {
    // Every id came with the event or from its delivery (DeliveryIds), so any row may repeat one.
    auto& stamps = ids_[row.id];
    for (const auto& [ts, given] : stamps) {
      if (!row.given_ts || ts == row.ts) return false;
    }
    stamps.emplace_back(row.ts, row.given_ts);
    days_.insert(DayOfMicros(row.ts));
    rows_.push_back(std::move(row));
    return true;
  }
  std::vector<Row>& rows() { return rows_; }
  const std::set<std::int64_t>& days() const { return days_; }
  bool empty() const { return rows_.empty(); }
  std::size_t size() const { return rows_.size(); }

  // Catalogue changes, used paths and type conflicts of the batch's events, written with them.
  std::vector<FieldChange> changes;
  std::vector<std::string> seen_paths;
  std::vector<TypeConflict> conflicts;

 private:
  std::vector<Row> rows_;
  std::unordered_map<std::string, std::vector<std::pair<std::int64_t, bool>>> ids_;
  std::set<std::int64_t> days_;
};

}  // namespace lqe::schema
