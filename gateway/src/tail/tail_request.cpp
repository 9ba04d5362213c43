#include "tail/tail_request.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <charconv>

#include "lqe/gateway/auth.h"
#include "lqe/gateway/errors.h"

namespace lqe::gateway::tail {
namespace {

namespace json = boost::json;

const IngestSource* FindSource(const GatewayState& state, std::string_view name) {
  for (const auto& s : state.config.sources) {
    if (s.name == name || (!s.id.empty() && s.id == name)) return &s;
  }
  return nullptr;
}

bool WantsNdjson(const Request& request) {
  const std::string* accept = request.Header("accept");
  return accept != nullptr && accept->find("application/x-ndjson") != std::string::npos;
}

}  // namespace

std::optional<int> ParseSince(std::string_view text) {
  if (text.size() < 2) return std::nullopt;
  int unit = 0;
  switch (text.back()) {
    case 's':
      unit = 1;
      break;
    case 'm':
      unit = 60;
      break;
    case 'h':
      unit = 3600;
      break;
    case 'd':
      unit = 86400;
      break;
    default:
      return std::nullopt;
  }
  int count = 0;
  std::string_view digits = text.substr(0, text.size() - 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (ec != std::errc() || end != digits.data() + digits.size() || count <= 0 ||
      count > 400 * 86400 / unit) {
    return std::nullopt;
  }
  return count * unit;
}

FastOutcome HandleFast(const Request& request, const RawParams& raw, Context& context) {
  const GatewayState& state = *context.state;
  const std::string* api_key_param = nullptr;
  if (auto it = raw.find("api_key"); it != raw.end()) api_key_param = &it->second;
  std::string token = ExtractToken(request, api_key_param);
  if (token.empty()) return ToResponse(MakeError(401, "missing API key", "unauthorized"));
  const ApiKey* key = FindApiKey(state.config.api_keys, token);
  if (key == nullptr) return ToResponse(MakeError(401, "invalid API key", "unauthorized"));
  // Raw events are what every endpoint reads: only a key that may run all of them sees them.
  if (!key->all_endpoints) {
    return ToResponse(MakeError(
        403, "this API key may not read log events (it needs endpoints: ['*'])", "forbidden"));
  }
  for (const auto& [name, value] : raw) {
    if (name != "source" && name != "lql" && name != "since" && name != "api_key") {
      return ToResponse(
          MakeError(400, "unknown parameter " + name + " (the tail takes source, lql and since)",
                    "unknown_parameter", {{"parameter", name}}));
    }
  }
  auto source_param = raw.find("source");
  if (source_param == raw.end() || source_param->second.empty()) {
    return ToResponse(MakeError(400,
                                "missing parameter source (a source name, e.g. "
                                "cloudflare.logs.prod)",
                                "missing_parameter", {{"parameter", "source"}}));
  }
  const IngestSource* source = FindSource(state, source_param->second);
  if (source == nullptr) {
    return ToResponse(MakeError(404, "no source named " + source_param->second, "not_found",
                                {{"parameter", "source"}}));
  }
  auto tail = std::make_shared<TailRequest>();
  tail->ndjson = WantsNdjson(request);
  tail->source = source->name;
  tail->table = source->table;
  tail->heartbeat_ms = state.config.tail.heartbeat_ms;
  tail->replay_max = state.config.tail.replay_max_events;
  if (auto since = raw.find("since"); since != raw.end()) {
    auto seconds = ParseSince(since->second);
    if (!seconds || *seconds > state.config.tail.replay_max_seconds) {
      return ToResponse(MakeError(400,
                                  "since must be a duration like 30s, 15m, 2h or 1d, at most " +
                                      std::to_string(state.config.tail.replay_max_seconds) +
                                      " seconds; got \"" + since->second + "\"",
                                  "invalid_parameter", {{"parameter", "since"}}));
    }
    tail->since_seconds = *seconds;
  }
  std::string lql;
  if (auto it = raw.find("lql"); it != raw.end()) lql = it->second;
  auto match = EventMatch::Compile(lql, context.now());
  if (auto* diag = std::get_if<Diagnostic>(&match)) {
    GatewayError error = DiagnosticError(*diag, lql);
    error.details["parameter"] = "lql";
    return ToResponse(error);
  }
  if (context.tails == nullptr) {
    return ToResponse(MakeError(503, "the live tail is not running", "unavailable"));
  }
  auto opened = context.tails->Open(state.config.tail, source->table, key->name,
                                    std::get<EventMatch>(std::move(match)));
  if (auto* refusal = std::get_if<Hub::Refusal>(&opened)) {
    GatewayError error = MakeError(refusal->status, refusal->message, refusal->reason);
    error.headers.emplace_back("Retry-After", "5");
    return ToResponse(error);
  }
  tail->hub = context.tails;
  tail->subscriber = std::get<std::shared_ptr<Subscriber>>(std::move(opened));
  PendingRequest pending;
  pending.kind = PendingRequest::Kind::kTail;
  pending.tail = std::move(tail);
  return pending;
}

Replay ReadReplay(const TailRequest& tail, const Context& context) {
  Replay replay;
  if (tail.since_seconds <= 0 || tail.replay_max == 0) return replay;
  // The table name comes from the config's sources (checked to [a-z0-9_]).
  const std::string sql =
      "SELECT id, (extract(epoch FROM \"timestamp\") * 1000000)::bigint, event_message, project, "
      "metadata::text, extra::text FROM logs." +
      tail.table +
      " WHERE \"timestamp\" >= now() - make_interval(secs => $1::int) "
      "ORDER BY \"timestamp\" DESC LIMIT $2::int";
  QueryResult result =
      context.run_query(sql, {std::to_string(tail.since_seconds), std::to_string(tail.replay_max)},
                        -1, context.state->config.statement_timeout_ms, nullptr);
  if (result.status != QueryStatus::kOk) {
    replay.error = result.message;
    return replay;
  }
  const ResultRows& rows = result.rows;
  for (std::size_t n = rows.size(); n-- > 0;) {  // newest first in the result: replay oldest first
    auto cell = [&](std::size_t c) { return rows.Cell(n, c); };
    std::int64_t micros = 0;
    if (auto t = cell(1)) std::from_chars(t->data(), t->data() + t->size(), micros);
    json::object fields;
    fields["id"] = cell(0) ? json::value(*cell(0)) : json::value(nullptr);
    fields["timestamp"] = IsoMicros(micros);
    fields["event_message"] = cell(2) ? json::value(*cell(2)) : json::value(nullptr);
    if (cell(3)) fields["project"] = *cell(3);
    std::error_code ec;
    json::value metadata = cell(4) ? json::parse(*cell(4), ec) : json::object();
    fields["metadata"] = ec ? json::object() : std::move(metadata);
    ec.clear();
    json::value extra = cell(5) ? json::parse(*cell(5), ec) : json::object();
    fields["extra"] = ec ? json::object() : std::move(extra);
    if (cell(0)) replay.ids.emplace_back(*cell(0));
    if (!tail.subscriber->match().Matches(EventView{&fields, micros})) continue;
    replay.events.push_back(json::serialize(fields));
  }
  return replay;
}

}  // namespace lqe::gateway::tail
