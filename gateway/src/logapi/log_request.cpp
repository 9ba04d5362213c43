#include "logapi/log_request.h"

#include <charconv>

#include "lqe/base/iso8601.h"
#include "lqe/gateway/auth.h"

namespace lqe::gateway::logapi {
namespace {

const IngestSource* FindSource(const GatewayState& state, std::string_view name) {
  for (const auto& s : state.config.sources) {
    if (s.name == name || (!s.id.empty() && s.id == name)) return &s;
  }
  return nullptr;
}

std::vector<std::string_view> Allowed(LogApi api) {
  switch (api) {
    case LogApi::kEvents:
      return {"source", "lql", "start", "end", "limit", "api_key"};
    case LogApi::kHits:
      return {"source", "lql", "start", "end", "buckets", "api_key"};
    case LogApi::kFacets:
      return {"source", "lql", "start", "end", "field", "limit", "api_key"};
  }
  return {};
}

std::string AllowedText(LogApi api) {
  std::string out;
  for (std::string_view name : Allowed(api)) {
    if (name == "api_key") continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

GatewayError Invalid(const std::string& parameter, const std::string& message) {
  return MakeError(400, message, "invalid_parameter", {{"parameter", parameter}});
}

// An integer parameter in [low, high], or `fallback` when absent.
std::variant<int, GatewayError> IntParam(const RawParams& raw, const std::string& name, int low,
                                         int high, int fallback) {
  auto it = raw.find(name);
  if (it == raw.end()) return fallback;
  const std::string& text = it->second;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < low ||
      value > high) {
    return Invalid(name, name + " must be an integer from " + std::to_string(low) + " to " +
                             std::to_string(high) + "; got \"" + text + "\"");
  }
  return value;
}

std::variant<std::optional<std::int64_t>, GatewayError> TimeParam(const RawParams& raw,
                                                                  const std::string& name) {
  auto it = raw.find(name);
  if (it == raw.end()) return std::optional<std::int64_t>();
  auto instant = iso8601::Parse(it->second);
  if (!instant) {
    return Invalid(name, name + " must be an ISO 8601 timestamp like 2026-01-02T03:04:05Z; got \"" +
                             it->second + "\"");
  }
  return std::optional<std::int64_t>(instant->micros);
}

}  // namespace

std::optional<LogApi> LogApiOf(std::string_view path) {
  if (path == "/api/logs/events") return LogApi::kEvents;
  if (path == "/api/logs/hits") return LogApi::kHits;
  if (path == "/api/logs/facets") return LogApi::kFacets;
  return std::nullopt;
}

std::optional<std::vector<std::string>> ParseFieldPath(std::string_view field) {
  std::vector<std::string> path;
  std::size_t from = 0;
  for (;;) {
    const std::size_t dot = field.find('.', from);
    const std::string_view part =
        field.substr(from, dot == std::string_view::npos ? std::string_view::npos : dot - from);
    if (part.empty()) return std::nullopt;
    path.emplace_back(part);
    if (dot == std::string_view::npos) break;
    from = dot + 1;
  }
  if (path.front() == "m") path.front() = "metadata";
  const std::string& column = path.front();
  const bool text_column = column == "event_message" || column == "id" || column == "project";
  if (text_column && path.size() == 1) return path;
  if ((column == "metadata" || column == "extra") && path.size() <= 32) return path;
  return std::nullopt;
}

std::variant<LogRequest, GatewayError> ParseLogRequest(LogApi api, const Request& request,
                                                       const RawParams& raw,
                                                       const GatewayState& state,
                                                       std::chrono::system_clock::time_point now) {
  const std::string* api_key_param = nullptr;
  if (auto it = raw.find("api_key"); it != raw.end()) api_key_param = &it->second;
  std::string token = ExtractToken(request, api_key_param);
  if (token.empty()) return MakeError(401, "missing API key", "unauthorized");
  const ApiKey* key = FindApiKey(state.config.api_keys, token);
  if (key == nullptr) return MakeError(401, "invalid API key", "unauthorized");
  // Raw events are what every endpoint reads: only a key that may run all of them sees them.
  if (!key->all_endpoints) {
    return MakeError(403, "this API key may not read log events (it needs endpoints: ['*'])",
                     "forbidden");
  }
  const std::vector<std::string_view> allowed = Allowed(api);
  for (const auto& [name, value] : raw) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      return MakeError(400,
                       "unknown parameter " + name + " (this API takes " + AllowedText(api) + ")",
                       "unknown_parameter", {{"parameter", name}});
    }
  }
  LogRequest out;
  out.api = api;
  auto source_param = raw.find("source");
  if (source_param == raw.end() || source_param->second.empty()) {
    return MakeError(400, "missing parameter source (a source name, e.g. cloudflare.logs.prod)",
                     "missing_parameter", {{"parameter", "source"}});
  }
  const IngestSource* source = FindSource(state, source_param->second);
  if (source == nullptr) {
    return MakeError(404, "no source named " + source_param->second, "not_found",
                     {{"parameter", "source"}});
  }
  out.source = source->name;
  out.table = source->table;
  if (auto it = raw.find("lql"); it != raw.end()) out.lql = it->second;

  auto start = TimeParam(raw, "start");
  if (auto* error = std::get_if<GatewayError>(&start)) return std::move(*error);
  auto end = TimeParam(raw, "end");
  if (auto* error = std::get_if<GatewayError>(&end)) return std::move(*error);
  const auto& given_start = std::get<std::optional<std::int64_t>>(start);
  const auto& given_end = std::get<std::optional<std::int64_t>>(end);
  const std::int64_t now_micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  out.end_micros = given_end.value_or(now_micros);
  out.start_micros = given_start.value_or(out.end_micros - 3600LL * 1000000);
  out.range_given = given_start && given_end;
  if (out.end_micros <= out.start_micros) {
    return Invalid(given_end ? "end" : "start", "end must be after start");
  }
  if (out.end_micros - out.start_micros > kMaxRangeMicros) {
    return Invalid(given_end ? "end" : "start", "the range from start to end is at most 31 days");
  }

  switch (api) {
    case LogApi::kEvents: {
      auto limit = IntParam(raw, "limit", 1, 1000, 100);
      if (auto* error = std::get_if<GatewayError>(&limit)) return std::move(*error);
      out.limit = std::get<int>(limit);
      break;
    }
    case LogApi::kHits: {
      auto buckets = IntParam(raw, "buckets", 10, 500, 60);
      if (auto* error = std::get_if<GatewayError>(&buckets)) return std::move(*error);
      out.buckets = std::get<int>(buckets);
      break;
    }
    case LogApi::kFacets: {
      auto limit = IntParam(raw, "limit", 1, 100, 10);
      if (auto* error = std::get_if<GatewayError>(&limit)) return std::move(*error);
      out.limit = std::get<int>(limit);
      auto field = raw.find("field");
      if (field == raw.end() || field->second.empty()) {
        return MakeError(400, "missing parameter field (a field path, e.g. metadata.level)",
                         "missing_parameter", {{"parameter", "field"}});
      }
      auto path = ParseFieldPath(field->second);
      if (!path) {
        return Invalid("field",
                       "field must be event_message, id, project, or a dotted path under "
                       "metadata (m) or extra, e.g. metadata.level; got \"" +
                           field->second + "\"");
      }
      out.field = field->second;
      out.field_path = std::move(*path);
      break;
    }
  }
  return out;
}

}  // namespace lqe::gateway::logapi
