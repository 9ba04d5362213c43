// Sources created through the management API (or by OTLP ingest), each with a log table of its
// own (023_api_sources.sql): added to every configuration snapshot beside the declared sources.
#pragma once

#include <vector>

#include "lqe/gateway/config.h"

namespace lqe::gateway::management {

// The created sources of `config.dsn` (name, UUID and table). One whose name a declared source
// has is left out with a warning; a database without them, or out of reach, gives none.
std::vector<IngestSource> LoadApiSources(const Config& config);

}  // namespace lqe::gateway::management
