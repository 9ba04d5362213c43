// Deterministic, realistic log events for the nine sources, in the ingest NDJSON shape.
// The same options (seed, now, projects) always give the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace lqe::demo {

// The nine log sources, in the order `--source all` writes them.
const std::vector<std::string>& GeneratorSources();

struct GeneratorOptions {
  std::string source;  // one of GeneratorSources()
  std::uint64_t seed = 1;
  std::int64_t now_micros = 0;  // events fall in the 8 days before this instant
  int projects = 50;            // distinct projects; "default" is the most popular
  // When > 0, every event falls in the live_seconds before now_micros instead (a live stream,
  // as shippers send it: their events share minutes, which changes what rollups cost).
  std::int64_t live_seconds = 0;
};

class EventGenerator {
 public:
  // Throws std::invalid_argument for an unknown source or projects < 1.
  explicit EventGenerator(const GeneratorOptions& options);
  ~EventGenerator();
  EventGenerator(const EventGenerator&) = delete;
  EventGenerator& operator=(const EventGenerator&) = delete;

  // Appends one event as a JSON line (with the trailing newline).
  void Next(std::string* out);

  struct Context;

 private:
  std::unique_ptr<Context> context_;
  void (*write_)(Context&, std::string*);
};

// Parses an ISO 8601 instant for --now (lqe/base/iso8601.h: "2026-11-21T12:00:00Z", offsets such as
// "+02:00", fractions, a bare date). Returns false when malformed.
bool ParseNow(std::string_view text, std::int64_t* micros);

}  // namespace lqe::demo
