// Translating the stored logs.all endpoint (eleven CTEs) sandboxed with Studio's API gateway log
// list query (UNNEST chain, regexp filters, ORDER BY, LIMIT): the work the gateway does per
// request. Run: build/bench/translate/bench_translate
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "lqe/translate.h"

namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Fixture {
  lqe::Catalog catalog;
  std::string stored;
  lqe::TranslateOptions options;

  Fixture() {
    std::string error;
    catalog = lqe::Catalog::FromEntries(
        lqe::Catalog::ParseTsv(ReadAll(LQE_SOURCE_DIR "/schema/catalogue_seed.tsv"), &error),
        &error);
    stored = ReadAll(LQE_SOURCE_DIR "/sql/logs.all.sql");
    options.catalog = &catalog;
    const auto string_type = lqe::Type::Scalar(lqe::TypeKind::kString);
    options.params = {{"project", string_type},
                      {"iso_timestamp_start", string_type},
                      {"iso_timestamp_end", string_type}};
  }
};

constexpr const char* kEdgeListQuery = R"sql(
select id, edge_logs.timestamp, event_message, request.method, request.path, response.status_code
from edge_logs
cross join unnest(metadata) as metadata
cross join unnest(metadata.request) as request
cross join unnest(metadata.response) as response
where regexp_contains(request.path, '/rest/v1|/auth/v1')
  and not regexp_contains(request.path, r'(?i)health')
  and response.status_code >= 400
order by timestamp desc
limit 100
)sql";

// As the gateway runs it: the endpoint's StoredQueryCache keeps the stored WITH translated.
void BM_TranslateLogsAllWithConsumer(benchmark::State& state) {
  Fixture f;
  lqe::StoredQueryCache stored_cache;
  f.options.stored_cache = &stored_cache;
  f.options.consumer = lqe::ConsumerQuery{lqe::ConsumerQuery::Language::kSql, kEdgeListQuery};
  for (auto _ : state) {
    lqe::TranslateResult r = lqe::Translate(f.stored, f.options);
    if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TranslateLogsAllWithConsumer)->Unit(benchmark::kMicrosecond);

void BM_TranslateLogsAllStored(benchmark::State& state) {
  Fixture f;
  for (auto _ : state) {
    lqe::TranslateResult r = lqe::Translate(f.stored, f.options);
    if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TranslateLogsAllStored)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
