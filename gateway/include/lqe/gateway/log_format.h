// Log line format: spdlog's text lines (default) or one JSON object per line (`log.format:
// json`), chosen once at start. Access lines carry the request id either way.
#pragma once

#include <string>
#include <string_view>

namespace lqe::gateway {

// Installs the JSON formatter on the default logger (json) or keeps spdlog's text pattern.
void UseJsonLogs(bool json);
bool JsonLogs();
// Put before a JSON object logged in JSON mode, its fields become the line's own fields (no
// other message can start with this control character).
std::string_view StructuredLogPrefix();

// A request's id: the client's X-Request-Id when it is 1..128 characters of [A-Za-z0-9._:+/=-]
// (what tracing tools send), otherwise a fresh random 32-digit hex id.
std::string RequestIdFor(const std::string* header);

}  // namespace lqe::gateway
