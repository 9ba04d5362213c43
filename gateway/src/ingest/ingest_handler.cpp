#include "ingest/ingest_handler.h"

#include <boost/json/serialize.hpp>
#include <future>

#include "ingest/body.h"
#include "ingest/otlp_logs.h"
#include "ingest/request_memory.h"
#include "lqe/base/ascii.h"
#include "lqe/gateway/auth.h"
#include "lqe/schema/delivery_ids.h"

namespace lqe::gateway::ingest {
namespace {

namespace json = boost::json;

// At most this many reasons in a 406 body; a batch of bad events must not make a huge answer.
constexpr std::size_t kMaxReasons = 100;

Response JsonResponse(int status, const json::value& body) {
  Response response;
  response.status = status;
  response.body = json::serialize(body);
  response.endpoint_name = "ingest";
  return response;
}

Response Unauthorized(std::string reason) {
  Response response = JsonResponse(401, json::object{{"error", "Unauthorized"}});
  response.reason = std::move(reason);
  return response;
}

Response Error(int status, std::string_view message, std::string reason) {
  Response response = ErrorResponse(status, message, {{"reason", reason}});
  response.endpoint_name = "ingest";
  return response;
}

const std::string* Param(const RawParams& raw, std::string_view name, std::string_view alias) {
  for (std::string_view n : {name, alias}) {
    if (auto it = raw.find(n); it != raw.end()) return &it->second;
  }
  return nullptr;
}

bool KeyMayIngest(const ApiKey& key, const IngestSource& source) {
  if (key.all_sources) return true;
  return std::find(key.ingest.begin(), key.ingest.end(), source.name) != key.ingest.end();
}

// The source by exact name, else by UUID (any case). Null: none (a non-UUID id finds nothing).
const IngestSource* FindSource(const GatewayState& state, const std::string* name,
                               const std::string* id) {
  const auto& sources = state.config.sources;
  if (name != nullptr) {
    for (const auto& s : sources) {
      if (s.name == *name) return &s;
    }
    return nullptr;
  }
  if (id != nullptr) {
    std::string lower = ascii::Lower(*id);
    for (const auto& s : sources) {
      if (!s.id.empty() && s.id == lower) return &s;
    }
  }
  return nullptr;
}

std::int64_t SystemNowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Response Preflight() {
  Response response;
  response.status = 204;
  response.content_type.clear();
  response.endpoint_name = "ingest";
  response.AddHeader("Access-Control-Allow-Methods", "POST, OPTIONS");
  response.AddHeader("Access-Control-Allow-Headers",
                     "Authorization, Content-Type, Content-Encoding, X-API-KEY, X-Source");
  response.AddHeader("Access-Control-Max-Age", "1728000");
  return response;
}

}  // namespace

bool IsIngestPath(std::string_view path) {
  return path == "/api/logs" || path == "/logs" || path == "/api/events" ||
         otlp::IsOtlpLogsPath(path);
}

FastOutcome HandleFast(const Request& request, const RawParams& raw, const GatewayState& state) {
  // As in Logflare, every method (OPTIONS too) is authenticated first.
  const std::string* param_key = Param(raw, "api_key", "api_key");
  const ApiKey* key = FindApiKey(state.config.api_keys, ExtractToken(request, param_key));
  if (key == nullptr) return Unauthorized("unknown_api_key");
  if (request.method == "OPTIONS") return Preflight();
  if (request.method != "POST") {
    Response response = Error(405, "method " + request.method + " is not allowed here (POST)",
                              "method_not_allowed");
    response.AddHeader("Allow", "POST, OPTIONS");
    return response;
  }
  PendingRequest pending;
  pending.kind = PendingRequest::Kind::kIngest;
  pending.ingest.key = key;
  pending.ingest.otlp =
      otlp::IsOtlpLogsPath(std::string_view(request.target).substr(0, request.target.find('?')));
  const std::string* name = Param(raw, "source_name", "collection_name");
  const std::string* id = Param(raw, "source", "collection");
  if (id == nullptr) id = request.Header("x-source");
  if (name != nullptr || id != nullptr) {
    pending.ingest.source = FindSource(state, name, id);
    if (pending.ingest.source == nullptr) return Unauthorized("unknown_source");
    if (!KeyMayIngest(*key, *pending.ingest.source)) return Unauthorized("source_not_allowed");
  }
  return pending;
}

std::variant<Response, IngestJob> PrepareJob(const Request& request, const PendingRequest& pending,
                                             const GatewayState& state,
                                             const std::function<std::int64_t()>& now_micros) {
  BodyLimits limits;
  limits.max_decompressed_bytes = state.config.ingest.max_decompressed_bytes;
  // Declared first, so every value made in it is gone before it is (or moves into the job).
  auto memory = std::make_unique<RequestMemory>(request.body.size());
  const json::storage_ptr storage = memory->Storage();
  ParsedBody body(storage);
  BodyError error;
  if (!ParseBody(request, limits, &body, &error)) {
    return Error(error.status, error.message, error.reason);
  }
  const IngestSource* source = pending.ingest.source;
  if (source == nullptr) {
    const std::string* name = body.source_name ? &*body.source_name : nullptr;
    const std::string* id = body.source_id ? &*body.source_id : nullptr;
    if (name != nullptr || id != nullptr) source = FindSource(state, name, id);
    if (source == nullptr) return Unauthorized("unknown_source");
    if (!KeyMayIngest(*pending.ingest.key, *source)) return Unauthorized("source_not_allowed");
  }
  // Ids of events sent without one come from the body as received and the event's position, so
  // a batch retried after its answer was lost is recognised (schema/delivery_ids.h).
  const schema::DeliveryIds delivery(source->table, request.body);
  std::size_t position = 0;
  schema::EventFormOptions options;
  const std::int64_t now = now_micros ? now_micros() : SystemNowMicros();
  options.now_micros = [now] { return now; };
  options.new_id = [&delivery, &position] { return delivery.At(position); };
  IngestJob job;
  job.table = source->table;
  job.source = source->name;
  job.events.reserve(body.events.size());
  for (std::size_t i = 0; i < body.events.size(); ++i) {
    position = i;
    json::value& element = body.events[i];
    if (!element.is_object()) {
      job.refusals.push_back("event " + std::to_string(i) + ": not a JSON object");
      continue;
    }
    schema::FormedEvent event(storage);
    std::string refusal;
    if (!schema::FormEvent(std::move(element.get_object()), options, &event, &refusal)) {
      job.refusals.push_back("event " + std::to_string(i) + ": " + refusal);
      continue;
    }
    job.events.push_back(std::move(event));
  }
  // What the queued job holds: the body as received (answered only after the write) and the
  // arena of its parsed tree and formed events.
  job.bytes = request.body.size() + memory->Bytes();
  job.memory = std::move(memory);
  // [] and {"batch":[]}: nothing to do. A batch whose events were all refused still goes
  // through the queue, so its refusals are counted like any other.
  if (job.events.empty() && job.refusals.empty()) {
    return OutcomeResponse(IngestOutcome{true, {}, {}, true});
  }
  return job;
}

Response QueueFullResponse(int retry_after_seconds) {
  Response response = JsonResponse(429, json::object{{"error", "Buffer Full: Too Many Requests"}});
  response.reason = "queue_full";
  response.AddHeader("Retry-After", std::to_string(retry_after_seconds));
  return response;
}

Response OutcomeResponse(const IngestOutcome& outcome) {
  if (!outcome.stored && !outcome.retryable) {
    return Error(
        400, "PostgreSQL refused these events (sending them again fails again): " + outcome.error,
        "refused_by_database");
  }
  if (!outcome.stored) {
    Response response = Error(503, "events not stored, try again: " + outcome.error, "unavailable");
    response.AddHeader("Retry-After", "1");
    return response;
  }
  // The body stays Logflare's (clients compare it); a header counts the unreadable timestamps.
  auto mark_inferred = [&outcome](Response response) {
    if (outcome.timestamps_inferred > 0) {
      response.AddHeader("X-Lqe-Timestamps-Inferred", std::to_string(outcome.timestamps_inferred));
    }
    return response;
  };
  if (outcome.refusals.empty()) {
    return mark_inferred(JsonResponse(200, json::object{{"message", "Logged!"}}));
  }
  json::array reasons;
  for (std::size_t i = 0; i < outcome.refusals.size() && i < kMaxReasons; ++i) {
    reasons.emplace_back(json::string(outcome.refusals[i]));
  }
  if (outcome.refusals.size() > kMaxReasons) {
    reasons.emplace_back("... and " + std::to_string(outcome.refusals.size() - kMaxReasons) +
                         " more events refused");
  }
  Response response = JsonResponse(406, json::object{{"message", std::move(reasons)}});
  response.reason = "events_refused";
  return mark_inferred(std::move(response));
}

Response SubmitAndWait(IngestJob job, Context& context) {
  if (context.ingest == nullptr) return Error(503, "ingest is not running", "unavailable");
  auto promise = std::make_shared<std::promise<IngestOutcome>>();
  auto future = promise->get_future();
  job.done = [promise](IngestOutcome outcome) { promise->set_value(std::move(outcome)); };
  if (!context.ingest->Submit(std::move(job))) {
    return QueueFullResponse(context.ingest->RetryAfterSeconds());
  }
  return OutcomeResponse(future.get());
}

}  // namespace lqe::gateway::ingest
