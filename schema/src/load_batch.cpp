#include "load_batch.h"

#include <functional>

namespace lqe::schema {

Batch::Batch(std::size_t expected_bytes) {
  text_.reserve(expected_bytes);
}

bool Batch::Repeats(std::string_view id, std::uint64_t hash, std::int64_t ts, bool given_ts) const {
  if (slots_.empty()) return false;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask; slots_[i] != 0; i = (i + 1) & mask) {
    const Row& other = rows_[slots_[i] - 1];
    if (other.id_hash != hash || Id(other) != id) continue;
    if (!given_ts || other.ts == ts) return true;
  }
  return false;
}

void Batch::Index(std::uint32_t row) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = rows_[row].id_hash & mask;
  while (slots_[i] != 0) i = (i + 1) & mask;
  slots_[i] = row + 1;
}

// At most half full, so probe sequences stay short.
void Batch::Grow() {
  slots_.assign(slots_.empty() ? 1024 : slots_.size() * 2, 0);
  for (std::uint32_t r = 0; r < rows_.size(); ++r) Index(r);
}

bool Batch::Add(std::string_view id, std::int64_t ts, bool given_ts, std::int64_t line_no,
                const RollupInput& rollup) {
  const std::uint64_t hash = std::hash<std::string_view>{}(id);
  if (Repeats(id, hash, ts, given_ts)) {
    Drop();
    return false;
  }
  Row row;
  row.line_no = line_no;
  row.given_ts = given_ts;
  row.ts = ts;
  row.id_hash = hash;
  row.id_offset = ids_.size();
  row.id_size = id.size();
  ids_.append(id);
  row.rollup_offset = rollup_text_.size();
  if (rollup.url) {
    row.url_size = static_cast<std::int32_t>(rollup.url->size());
    rollup_text_.append(*rollup.url);
  }
  if (rollup.path) {
    row.path_size = static_cast<std::int32_t>(rollup.path->size());
    rollup_text_.append(*rollup.path);
  }
  row.text_offset = committed_;
  row.text_size = text_.size() - committed_;
  committed_ = text_.size();
  rows_.push_back(row);
  if ((rows_.size() + 1) * 2 > slots_.size()) {
    Grow();
  } else {
    Index(static_cast<std::uint32_t>(rows_.size() - 1));
  }
  const std::int64_t day = DayOfMicros(ts);
  if (days_.empty() || day != last_day_) {
    days_.insert(day);
    last_day_ = day;
  }
  return true;
}

}  // namespace lqe::schema
