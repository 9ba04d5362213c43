// OTLP/JSON (the OTLP/HTTP JSON encoding) read into the protobuf request. Not protobuf's JSON
// parser: OTLP's JSON writes trace and span ids as hex (not base64) and takes enum values as
// numbers; 64-bit integers may be JSON strings or numbers. Field names are lowerCamelCase (the
// proto's snake_case names are taken too); unknown fields are ignored, as the specification asks.
#pragma once

#include <string>
#include <string_view>

#include "lqe/otlp/logs_service.pb.h"

namespace lqe::gateway::ingest::otlp {

// False, with *error naming the field (e.g. "resourceLogs[0].scopeLogs[0].logRecords[2].traceId:
// ..."), for text that is not OTLP/JSON. Never throws for any input.
bool ParseOtlpJson(std::string_view text,
                   opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest* request,
                   std::string* error);

}  // namespace lqe::gateway::ingest::otlp
