// The source of an OTLP resource that the request does not name: its service.name, when it is a
// source's name, a log table's name, or the name a Supabase service reports itself by.
#pragma once

#include <string_view>
#include <vector>

#include "lqe/gateway/config.h"

namespace lqe::gateway::ingest::otlp {

// Null when `service` names no configured source.
const IngestSource* SourceForService(const std::vector<IngestSource>& sources,
                                     std::string_view service);

}  // namespace lqe::gateway::ingest::otlp
