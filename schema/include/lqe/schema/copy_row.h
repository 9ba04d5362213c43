// COPY text-format rows for the log tables: id, timestamp, event_message, project, metadata,
// extra.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace lqe::schema {

// Appends `value` escaped for COPY text format (backslash, tab, newline, carriage return).
void AppendCopyEscaped(std::string_view value, std::string* out);

// Appends one complete row (with the trailing newline). A null message or project is \N.
void AppendCopyRow(std::string_view id, std::int64_t timestamp_micros,
                   const std::optional<std::string>& event_message,
                   const std::optional<std::string>& project, std::string_view metadata_json,
                   std::string_view extra_json, std::string* out);

// Random (version 4) UUIDs for events that come without an id.
class UuidGenerator {
 public:
  UuidGenerator();  // seeded from std::random_device
  std::string Next();

 private:
  std::mt19937_64 rng_;
};

}  // namespace lqe::schema
