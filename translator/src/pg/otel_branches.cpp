#include "pg/otel_branches.h"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace lqe::pg {
namespace {

struct Branch {
  std::string_view table;
  std::string_view source;
  std::string_view project;  // where logs.all reads the project, as the table's project index
};

// Migration 020's list, in its order (keep the two the same).
constexpr Branch kBranches[] = {
    {"edge", "edge_logs", "t.project"},
    {"postgres", "postgres_logs", "t.project"},
    {"function_edge", "function_edge_logs", "(t.metadata ->> 'project_ref')"},
    {"function_events", "function_logs", "(t.metadata ->> 'project_ref')"},
    {"auth", "auth_logs", "t.project"},
    {"realtime", "realtime_logs", "(t.metadata ->> 'project')"},
    {"storage", "storage_logs", "(t.metadata ->> 'project')"},
    {"restapi", "postgrest_logs", "t.project"},
    {"pooler", "pgbouncer_logs", "t.project"},
};

// One branch, as migration 020 writes it.
std::string BranchSql(const Branch& b) {
  const std::string p(b.project);
  return "SELECT t.id, t.\"timestamp\", " + p + " AS project, '" + std::string(b.source) +
         "'::text AS source, coalesce(t.event_message, '') AS event_message, "
         "logs.otel_severity_text(t.extra, t.metadata) AS severity_text, "
         "logs.otel_severity_number(logs.otel_severity_text(t.extra, t.metadata)) AS "
         "severity_number, logs.otel_service_name(t.extra, t.metadata) AS service_name, "
         "logs.otel_trace_id(t.extra, t.metadata) AS trace_id, "
         "logs.otel_span_id(t.extra, t.metadata) AS span_id, "
         "logs.otel_scope_name(t.extra, t.metadata) AS scope_name, "
         "logs.otel_log_attributes(" +
         p + ", t.extra, t.metadata) AS log_attributes, logs.otel_resource_attributes(" + p +
         ", t.extra, t.metadata) AS resource_attributes, ROW(" + p +
         ", t.extra, t.metadata)::logs.otel_event AS attributes_event FROM logs." +
         std::string(b.table) + " AS t";
}

}  // namespace

bool IsOtelSource(std::string_view source) {
  return std::any_of(std::begin(kBranches), std::end(kBranches),
                     [&](const Branch& b) { return b.source == source; });
}

std::string OtelBranchesSql(const std::vector<std::string>& sources) {
  std::string out;
  for (const Branch& b : kBranches) {
    if (std::find(sources.begin(), sources.end(), b.source) == sources.end()) continue;
    out += (out.empty() ? "" : " UNION ALL ") + BranchSql(b);
  }
  return out.empty() ? BranchSql(kBranches[0]) + " WHERE false" : out;
}

}  // namespace lqe::pg
