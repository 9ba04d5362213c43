// The steps lqe takes per ingested event before PostgreSQL sees it, on generated edge events
// (about 1.8 KB each): parsing and forming a line (as `lqe load` does, in a per-line arena), the
// catalogue check of a formed event, and its COPY row (serialising metadata and extra, escaping).
// Items per second are events per second of one core.
#include <benchmark/benchmark.h>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serializer.hpp>
#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "lqe/schema/catalogue_evolution.h"
#include "lqe/schema/copy_row.h"
#include "lqe/schema/demo_events.h"
#include "lqe/schema/event.h"

namespace {

namespace json = boost::json;

constexpr std::int64_t kNow = 1795262400LL * 1000000;  // 2026-11-21T12:00:00Z

std::vector<std::string> EdgeLines(int count) {
  lqe::demo::GeneratorOptions options;
  options.source = "edge";
  options.now_micros = kNow;
  lqe::demo::EventGenerator generator(options);
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i) {
    std::string line;
    generator.Next(&line);
    line.pop_back();  // the newline
    lines.push_back(std::move(line));
  }
  return lines;
}

lqe::schema::EventFormOptions FormOptions() {
  lqe::schema::EventFormOptions options;
  options.now_micros = [] { return kNow; };
  options.new_id = [] { return std::string("00000000-0000-4000-8000-000000000000"); };
  return options;
}

void Serialize(const json::object& object, json::serializer& serializer, std::string* out) {
  out->clear();
  serializer.reset(&object);
  char chunk[16384];
  while (!serializer.done()) out->append(serializer.read(chunk));
}

// One line: parsed into the line's arena and formed into the stored event's parts.
void ParseAndForm(benchmark::State& state) {
  const auto lines = EdgeLines(1000);
  const auto options = FormOptions();
  std::vector<unsigned char> buffer(std::size_t{64} * 1024);
  std::size_t i = 0;
  for (auto _ : state) {
    json::monotonic_resource memory(buffer.data(), buffer.size());
    const json::storage_ptr storage(&memory);
    json::value value(storage);
    lqe::schema::FormedEvent event(storage);
    std::string error;
    if (!lqe::schema::ParseEventLine(lines[i++ % lines.size()], storage, &value, options, &event,
                                     &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(event.metadata.size());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(ParseAndForm);

// Formed events (formed once, outside the timing) for the steps after forming.
struct Formed {
  std::vector<std::unique_ptr<json::monotonic_resource>> memory;
  std::vector<lqe::schema::FormedEvent> events;
};

Formed FormAll(const std::vector<std::string>& lines) {
  Formed formed;
  const auto options = FormOptions();
  for (const auto& line : lines) {
    formed.memory.push_back(std::make_unique<json::monotonic_resource>());
    const json::storage_ptr storage(formed.memory.back().get());
    json::value value(storage);
    lqe::schema::FormedEvent event(storage);
    std::string error;
    if (lqe::schema::ParseEventLine(line, storage, &value, options, &event, &error)) {
      formed.events.push_back(std::move(event));
    }
  }
  return formed;
}

// The catalogue check of metadata and extra, once every field is known (the usual case).
void CatalogueCheck(benchmark::State& state) {
  const Formed formed = FormAll(EdgeLines(1000));
  lqe::schema::CatalogueEvolver metadata({}, "metadata");
  lqe::schema::CatalogueEvolver extra({}, "extra");
  std::string error;
  for (const auto& event : formed.events) {  // learn every field first
    metadata.Observe(&event.metadata, &error);
    extra.Observe(&event.extra, &error);
  }
  (void)metadata.TakeChanges();
  (void)extra.TakeChanges();
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& event = formed.events[i++ % formed.events.size()];
    benchmark::DoNotOptimize(metadata.Observe(&event.metadata, &error));
    benchmark::DoNotOptimize(extra.Observe(&event.extra, &error));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(CatalogueCheck);

// The COPY row: metadata and extra serialised, every text field escaped, into one batch text.
void CopyRow(benchmark::State& state) {
  const Formed formed = FormAll(EdgeLines(1000));
  json::serializer serializer;
  std::string metadata_text;
  std::string extra_text;
  std::string text;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& event = formed.events[i++ % formed.events.size()];
    if (text.size() > (std::size_t{16} << 20)) text.clear();  // a batch's worth, then again
    Serialize(event.metadata, serializer, &metadata_text);
    Serialize(event.extra, serializer, &extra_text);
    lqe::schema::AppendCopyRow(event.id, event.timestamp_micros, event.event_message, event.project,
                               metadata_text, extra_text, &text);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 1800);
}
BENCHMARK(CopyRow);

}  // namespace

BENCHMARK_MAIN();
