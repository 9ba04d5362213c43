#include "ingest/otlp_source.h"

#include <array>
#include <utility>

namespace lqe::gateway::ingest::otlp {
namespace {

// The service names of a self-hosted Supabase stack (as their own OTLP exporters or a collector
// label them), with the source Logflare's Vector pipeline sends each one's logs to.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kServices{{
    {"postgres", "postgres.logs"},
    {"gotrue", "gotrue.logs.prod"},
    {"auth", "gotrue.logs.prod"},
    {"postgrest", "postgREST.logs.prod"},
    {"rest", "postgREST.logs.prod"},
    {"realtime", "realtime.logs.prod"},
    {"storage", "storage.logs.prod.2"},
    {"edge-runtime", "deno-relay-logs"},
    {"functions", "deno-relay-logs"},
    {"kong", "cloudflare.logs.prod"},
    {"supavisor", "supavisor.logs.prod"},
    {"pgbouncer", "pgbouncer.logs.prod"},
}};

const IngestSource* ByName(const std::vector<IngestSource>& sources, std::string_view name) {
  for (const auto& s : sources) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace

const IngestSource* SourceForService(const std::vector<IngestSource>& sources,
                                     std::string_view service) {
  if (service.empty()) return nullptr;
  if (const IngestSource* s = ByName(sources, service)) return s;
  for (const auto& s : sources) {
    if (s.table == service) return &s;
  }
  for (const auto& [name, source] : kServices) {
    if (name == service) return ByName(sources, source);
  }
  return nullptr;
}

}  // namespace lqe::gateway::ingest::otlp
