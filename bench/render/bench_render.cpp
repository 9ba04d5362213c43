// What a cache miss of the log listing spends outside Postgres: turning 100 rows of jsonb
// metadata text into the response's records-as-arrays JSON (plain and redacted), and gzip of the
// resulting body at the levels the gateway uses (1 for uncached results, 6 for cached ones).
#include <benchmark/benchmark.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "http/gzip.h"
#include "lqe/gateway/render.h"
#include "lqe/schema/demo_events.h"

namespace {

namespace json = boost::json;

// Postgres prints jsonb with ", " and ": " separators; the renderer must cope with that layout.
void PrintLikePostgres(const json::value& v, std::string& out) {
  switch (v.kind()) {
    case json::kind::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& item : v.get_object()) {
        if (!first) out.append(", ");
        first = false;
        out.append(json::serialize(json::string(item.key())));
        out.append(": ");
        PrintLikePostgres(item.value(), out);
      }
      out.push_back('}');
      break;
    }
    case json::kind::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& item : v.get_array()) {
        if (!first) out.append(", ");
        first = false;
        PrintLikePostgres(item, out);
      }
      out.push_back(']');
      break;
    }
    default:
      out.append(json::serialize(v));
  }
}

// The metadata column of 100 generated edge events, as Postgres would send it.
const std::vector<std::string>& ListingMetadata() {
  static const std::vector<std::string> texts = [] {
    lqe::demo::GeneratorOptions options;
    options.source = "edge";
    options.seed = 42;
    options.now_micros = 1'790'000'000'000'000;
    lqe::demo::EventGenerator generator(options);
    std::vector<std::string> out;
    for (int i = 0; i < 100; ++i) {
      std::string line;
      generator.Next(&line);
      std::string text;
      PrintLikePostgres(json::parse(line).at("metadata"), text);
      out.push_back(std::move(text));
    }
    return out;
  }();
  return texts;
}

std::string RenderAll(bool redact) {
  std::string out;
  out.reserve(200'000);  // the handler reserves from the values' sizes likewise
  for (const std::string& text : ListingMetadata()) {
    lqe::gateway::AppendJsonText(out, text, true, redact);
    out.push_back(',');
  }
  return out;
}

void BM_RenderListingMetadata(benchmark::State& state) {
  bool redact = state.range(0) != 0;
  std::size_t bytes = 0;
  for (const std::string& text : ListingMetadata()) bytes += text.size();
  for (auto _ : state) benchmark::DoNotOptimize(RenderAll(redact));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetLabel(redact ? "redacted" : "plain");
}
BENCHMARK(BM_RenderListingMetadata)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_GzipListingBody(benchmark::State& state) {
  static const std::string body = RenderAll(false);
  int level = static_cast<int>(state.range(0));
  std::size_t compressed = 0;
  for (auto _ : state) {
    std::string out = lqe::gateway::Gzip(body, level);
    compressed = out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * body.size()));
  state.SetLabel(std::to_string(body.size()) + " -> " + std::to_string(compressed) + " bytes");
}
BENCHMARK(BM_GzipListingBody)->Arg(1)->Arg(6)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
