// A batch of accepted events on its way from the parser to the database (internal to the loader).
// Its rows' COPY text and ids live in two buffers of the batch, not in a string per row: staging
// an event then allocates nothing once the buffers have grown, and a batch is freed at once.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/schema/catalogue_evolution.h"
#include "lqe/schema/timestamp.h"

namespace lqe::schema {

// One accepted event waiting for its batch's COPY.
struct Row {
  std::int64_t line_no = 0;
  bool given_ts = false;  // the timestamp came with the event
  std::int64_t ts = 0;
  std::uint64_t id_hash = 0;
  std::size_t id_offset = 0;  // in the batch's id text
  std::size_t id_size = 0;
  std::size_t text_offset = 0;  // the row's COPY line (with its newline) in the batch's text
  std::size_t text_size = 0;
  // The edge rollup's inputs, when the writer counts them (RollupInput): offsets into the batch's
  // rollup text, a size of -1 for NULL.
  std::size_t rollup_offset = 0;
  std::int32_t url_size = -1;
  std::int32_t path_size = -1;
};

// What the edge rollup reads of an event: (metadata -> 'request') ->> 'url' and ->> 'path'.
struct RollupInput {
  std::optional<std::string_view> url;
  std::optional<std::string_view> path;
};

class Batch {
 public:
  // expected_bytes: room reserved for the rows' COPY text (the last batch's size is a good guess).
  explicit Batch(std::size_t expected_bytes = 0);

  // The COPY text rows are appended to: append a row's line, then call Add.
  std::string& text() { return text_; }
  // Adds the row whose COPY line is the text appended since the last Add (or Drop). False (and
  // the line is dropped) when the batch already holds a duplicate of this event: a row of the
  // same id with the same timestamp, or of the same id at all when this event has no timestamp
  // of its own.
  bool Add(std::string_view id, std::int64_t ts, bool given_ts, std::int64_t line_no,
           const RollupInput& rollup = {});
  // Forgets the text appended since the last Add.
  void Drop() { text_.resize(committed_); }

  const std::vector<Row>& rows() const { return rows_; }
  std::string_view Id(const Row& row) const { return {ids_.data() + row.id_offset, row.id_size}; }
  std::string_view Line(const Row& row) const {
    return {text_.data() + row.text_offset, row.text_size};
  }
  const std::string& Text() const { return text_; }
  std::optional<std::string_view> Url(const Row& row) const { return Cell(row, 0, row.url_size); }
  std::optional<std::string_view> Path(const Row& row) const {
    return Cell(row, row.url_size < 0 ? 0 : row.url_size, row.path_size);
  }
  const std::set<std::int64_t>& days() const { return days_; }
  bool empty() const { return rows_.empty(); }
  std::size_t size() const { return rows_.size(); }

  // Catalogue changes, used paths and type conflicts of the batch's events, written with them.
  std::vector<FieldChange> changes;
  std::vector<std::string> seen_paths;
  std::vector<TypeConflict> conflicts;
  // Every row's RollupInput was read exactly as the rollup trigger reads it (false when an event
  // had a URL or path that is not a JSON string: the trigger then counts the batch itself).
  bool rollup_inputs_exact = true;

 private:
  std::optional<std::string_view> Cell(const Row& row, std::int32_t skip, std::int32_t size) const {
    if (size < 0) return std::nullopt;
    return std::string_view(rollup_text_).substr(row.rollup_offset + skip, size);
  }
  bool Repeats(std::string_view id, std::uint64_t hash, std::int64_t ts, bool given_ts) const;
  void Index(std::uint32_t row);
  void Grow();

  std::vector<Row> rows_;
  std::string text_;
  std::size_t committed_ = 0;  // text_'s size at the last Add
  std::string ids_;
  std::string rollup_text_;
  // Open addressing over rows_ by id hash: row index + 1, 0 for an empty slot. Every row is in
  // it, so the rows sharing an id are all found by one probe sequence.
  std::vector<std::uint32_t> slots_;
  std::set<std::int64_t> days_;
  std::int64_t last_day_ = -1;  // most rows fall on the day of the row before
};

}  // namespace lqe::schema
