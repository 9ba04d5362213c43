// Shared state and random helpers of the event generator (internal).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "demo/json_writer.h"
#include "lqe/schema/demo_events.h"

namespace lqe::demo {

struct EventGenerator::Context {
  explicit Context(const GeneratorOptions& options);

  std::mt19937_64 rng;
  std::int64_t now_micros;
  std::int64_t live_seconds;
  std::vector<std::string> projects;  // index 0 is "default"
  std::vector<double> project_cdf;    // Zipf-like popularity

  std::uint64_t Below(std::uint64_t n) { return rng() % n; }
  bool Chance(double p) { return Unit() < p; }
  double Unit() { return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0); }
  template <typename T, std::size_t N>
  const T& Pick(const T (&items)[N]) {
    return items[Below(N)];
  }
  // Picks from items by cumulative integer weights.
  template <typename T, std::size_t N>
  const T& Weighted(const T (&items)[N], const int (&weights)[N]) {
    int total = 0;
    for (int w : weights) total += w;
    int r = static_cast<int>(Below(static_cast<std::uint64_t>(total)));
    for (std::size_t i = 0; i < N; ++i) {
      if (r < weights[i]) return items[i];
      r -= weights[i];
    }
    return items[N - 1];
  }

  const std::string& Project();
  std::int64_t Timestamp();  // half in the last 2 hours, the rest over 8 days
  std::string Uuid();
  std::string Hex(int digits);
  std::string Ipv4();
  std::string Ipv6();
  std::string Ip() { return Chance(0.2) ? Ipv6() : Ipv4(); }
  std::string Email();
  std::string UserAgent();
};

// "2026-11-21T19:50:57.327059Z"
std::string IsoTimestamp(std::int64_t micros);
// "Sat, 21 Nov 2026 19:50:57 GMT"
std::string HttpDate(std::int64_t micros);
// "2026-11-21 19:50:57.327 UTC" (PostgreSQL log style)
std::string PgLogTime(std::int64_t micros);

// One writer per source; each appends one JSON object (no newline).
void WriteEdge(EventGenerator::Context& c, std::string* out);
void WriteFunctionEdge(EventGenerator::Context& c, std::string* out);
void WriteFunctionEvents(EventGenerator::Context& c, std::string* out);
void WritePostgres(EventGenerator::Context& c, std::string* out);
void WriteAuth(EventGenerator::Context& c, std::string* out);
void WriteRealtime(EventGenerator::Context& c, std::string* out);
void WriteStorage(EventGenerator::Context& c, std::string* out);
void WriteRestapi(EventGenerator::Context& c, std::string* out);
void WritePooler(EventGenerator::Context& c, std::string* out);

}  // namespace lqe::demo
