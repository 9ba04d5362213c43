#include "ingest/otlp_logs.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <array>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <deque>
#include <future>
#include <limits>
#include <map>

#include "ingest/decode.h"
#include "ingest/otlp_json.h"
#include "ingest/otlp_source.h"
#include "ingest/otlp_values.h"
#include "lqe/base/ascii.h"
#include "lqe/gateway/errors.h"
#include "lqe/schema/delivery_ids.h"

namespace lqe::gateway::ingest::otlp {
namespace {

namespace json = boost::json;
namespace pb = opentelemetry::proto;

// At most this many refusal reasons in partial_success.error_message.
constexpr std::size_t kMaxReasons = 10;

Response Error(int status, std::string_view message, std::string reason) {
  Response response = ErrorResponse(status, message, {{"reason", reason}});
  response.endpoint_name = "ingest";
  response.reason = std::move(reason);
  return response;
}

std::string MediaType(const std::string* header) {
  if (header == nullptr) return {};
  std::string_view s = std::string_view(*header).substr(0, header->find(';'));
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return ascii::Lower(s);
}

// The body with its Content-Encoding undone into *decoded (or left in place: *text).
std::optional<Response> Decode(const Request& request, std::size_t max_bytes, std::string* decoded,
                               std::string_view* text) {
  *text = request.body;
  if (const std::string* header = request.Header("content-encoding")) {
    const std::string encoding = MediaType(header);
    if (encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate") {
      const DecodeStatus status =
          Decompress(encoding == "deflate" ? "deflate" : "gzip", request.body, max_bytes, decoded);
      if (status == DecodeStatus::kTooLarge) {
        return Error(413,
                     "the decompressed body is larger than " + std::to_string(max_bytes) + " bytes",
                     "body_too_large");
      }
      if (status == DecodeStatus::kBadData) {
        return Error(400, "the body is not valid " + encoding + " data", "bad_encoding");
      }
      *text = *decoded;
    } else if (!encoding.empty() && encoding != "identity") {
      return Error(400, "unsupported Content-Encoding " + *header + " (gzip or none)",
                   "unsupported_encoding");
    }
  }
  if (text->size() > max_bytes) {
    return Error(413, "the body is larger than " + std::to_string(max_bytes) + " bytes",
                 "body_too_large");
  }
  return std::nullopt;
}

std::string ServiceName(const pb::logs::v1::ResourceLogs& resource) {
  for (const auto& kv : resource.resource().attributes()) {
    if (kv.key() == "service.name" && kv.value().has_string_value()) {
      return kv.value().string_value();
    }
  }
  return {};
}

// A string attribute, by its key as sent.
const std::string* StringAttribute(const KeyValues& attributes, std::string_view key) {
  for (const auto& kv : attributes) {
    if (kv.key() == key && kv.value().has_string_value()) return &kv.value().string_value();
  }
  return nullptr;
}

// The level a severity number stands for (OTLP's ranges of four), for records without text.
std::string_view LevelOf(int number) {
  static constexpr std::array<std::string_view, 6> kLevels{"trace", "debug", "info",
                                                           "warn",  "error", "fatal"};
  if (number < 1 || number > 24) return {};
  return kLevels[static_cast<std::size_t>((number - 1) / 4)];
}

// RFC 3339 text of a time in nanoseconds (to the microsecond, as the log tables keep it).
std::string IsoTime(std::uint64_t nanos) {
  const auto micros = static_cast<std::int64_t>(nanos / 1000);
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(micros % 1000000));
  return text;
}

// The record's own fields go into metadata beside its attributes; an attribute with the same
// key moves to metadata.attributes, so neither is lost.
class Metadata {
 public:
  explicit Metadata(json::object attributes) : object_(std::move(attributes)) {}

  void Put(std::string_view key, json::value value) {
    if (json::value* old = object_.if_contains(key)) displaced_[key] = std::move(*old);
    object_[key] = std::move(value);
  }

  json::object Release() && {
    if (!displaced_.empty()) {
      if (json::value* old = object_.if_contains("attributes")) {
        displaced_["attributes"] = std::move(*old);
      }
      object_["attributes"] = std::move(displaced_);
    }
    return std::move(object_);
  }

 private:
  json::object object_;
  json::object displaced_;
};

bool KeyMayIngest(const ApiKey& key, const IngestSource& source) {
  if (key.all_sources) return true;
  return std::find(key.ingest.begin(), key.ingest.end(), source.name) != key.ingest.end();
}

std::int64_t SystemNowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Response Answer(bool protobuf, std::int64_t rejected, const std::string& message) {
  pb::collector::logs::v1::ExportLogsServiceResponse answer;
  if (rejected > 0 || !message.empty()) {
    answer.mutable_partial_success()->set_rejected_log_records(rejected);
    answer.mutable_partial_success()->set_error_message(message);
  }
  Response response;
  response.endpoint_name = "ingest";
  if (protobuf) {
    response.content_type = "application/x-protobuf";
    answer.SerializeToString(&response.body);
  } else {
    (void)google::protobuf::util::MessageToJsonString(answer, &response.body);
  }
  return response;
}

}  // namespace

bool IsOtlpLogsPath(std::string_view path) {
  return path == "/v1/logs";
}

json::object RecordToEvent(const pb::logs::v1::ResourceLogs& resource,
                           const pb::logs::v1::ScopeLogs& scope,
                           const pb::logs::v1::LogRecord& record,
                           const json::storage_ptr& storage) {
  json::object event(storage);
  const std::uint64_t nanos =
      record.time_unix_nano() != 0 ? record.time_unix_nano() : record.observed_time_unix_nano();
  // No time at all: FormEvent stamps the ingest time.
  if (nanos != 0) event["timestamp"] = json::string(IsoTime(nanos), storage);
  Metadata metadata(AttributesToJson(record.attributes(), storage));
  if (record.has_body()) {
    if (record.body().has_string_value()) {
      event["event_message"] = json::string(record.body().string_value(), storage);
    } else {
      json::value body = ToJson(record.body(), storage);
      event["event_message"] = json::string(json::serialize(body), storage);
      metadata.Put("body", std::move(body));
    }
  }
  const std::string* project = StringAttribute(record.attributes(), "project");
  if (project == nullptr) project = StringAttribute(resource.resource().attributes(), "project");
  if (project != nullptr) event["project"] = json::string(*project, storage);
  if (const std::string service = ServiceName(resource); !service.empty()) {
    event["service_name"] = json::string(service, storage);  // where logs.otel reads service_name
  }
  if (resource.resource().attributes_size() > 0) {
    metadata.Put("resource", AttributesToJson(resource.resource().attributes(), storage));
  }
  if (scope.has_scope()) {
    json::object s(storage);
    if (!scope.scope().name().empty()) s["name"] = json::string(scope.scope().name(), storage);
    if (!scope.scope().version().empty()) {
      s["version"] = json::string(scope.scope().version(), storage);
    }
    if (scope.scope().attributes_size() > 0) {
      s["attributes"] = AttributesToJson(scope.scope().attributes(), storage);
    }
    if (!s.empty()) metadata.Put("scope", std::move(s));
  }
  const int number = record.severity_number();
  if (!record.severity_text().empty()) {
    metadata.Put("level", json::string(ascii::Lower(record.severity_text()), storage));
    metadata.Put("severity_text", json::string(record.severity_text(), storage));
  } else if (!LevelOf(number).empty()) {
    metadata.Put("level", json::string(LevelOf(number), storage));
  }
  if (number != 0) metadata.Put("severity_number", number);
  // The names logs.otel reads trace_id and span_id from.
  if (!record.trace_id().empty()) {
    metadata.Put("otel_trace_id", json::string(Hex(record.trace_id()), storage));
  }
  if (!record.span_id().empty()) {
    metadata.Put("otel_span_id", json::string(Hex(record.span_id()), storage));
  }
  if (record.flags() != 0) metadata.Put("flags", record.flags());
  if (!record.event_name().empty()) {
    metadata.Put("event_name", json::string(record.event_name(), storage));
  }
  if (record.dropped_attributes_count() != 0) {
    metadata.Put("dropped_attributes_count", record.dropped_attributes_count());
  }
  // What the timestamp column cannot hold: the nanoseconds, and the observed time beside it.
  if (nanos % 1000 != 0) {
    metadata.Put("time_unix_nano", json::string(std::to_string(nanos), storage));
  }
  if (record.time_unix_nano() != 0 && record.observed_time_unix_nano() != 0) {
    metadata.Put("observed_time_unix_nano",
                 json::string(std::to_string(record.observed_time_unix_nano()), storage));
  }
  event["metadata"] = std::move(metadata).Release();
  return event;
}

std::variant<Response, OtlpBatch> PrepareOtlp(const Request& request, const IngestTarget& target,
                                              const GatewayState& state,
                                              const std::function<std::int64_t()>& now_micros,
                                              IngestService* creator) {
  OtlpBatch batch;
  const std::string type = MediaType(request.Header("content-type"));
  if (type == "application/x-protobuf" || type == "application/protobuf") {
    batch.protobuf = true;
  } else if (type != "application/json") {
    return Error(415,
                 "unsupported Content-Type " + (type.empty() ? std::string("(none)") : type) +
                     " for OTLP (send application/x-protobuf or application/json)",
                 "unsupported_media_type");
  }
  std::string decoded;
  std::string_view text;
  if (auto refusal = Decode(request, state.config.ingest.max_decompressed_bytes, &decoded, &text)) {
    return std::move(*refusal);
  }
  pb::collector::logs::v1::ExportLogsServiceRequest export_request;
  if (batch.protobuf) {
    if (text.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        !export_request.ParseFromArray(text.data(), static_cast<int>(text.size()))) {
      return Error(400, "the body is not an OTLP ExportLogsServiceRequest in protobuf",
                   "bad_protobuf");
    }
  } else {
    std::string error;
    if (!ParseOtlpJson(text, &export_request, &error)) {
      return Error(400, "the body is not an OTLP ExportLogsServiceRequest in JSON: " + error,
                   "bad_json");
    }
  }
  // Every resource's source first: a request with one that cannot be placed stores nothing.
  std::vector<const IngestSource*> sources;
  std::deque<IngestSource> created;  // sources made for this request (stable addresses)
  for (int i = 0; i < export_request.resource_logs_size(); ++i) {
    const IngestSource* source = target.source;
    const auto& scopes = export_request.resource_logs(i).scope_logs();
    const bool has_records = std::any_of(scopes.begin(), scopes.end(), [](const auto& scope) {
      return scope.log_records_size() > 0;
    });
    if (source == nullptr && has_records) {
      const std::string service = ServiceName(export_request.resource_logs(i));
      source = SourceForService(state.config.sources, service);
      if (source == nullptr && !service.empty() && creator != nullptr) {
        // A service of its own: its source is made on first sight, if this key may send to it.
        if (!target.key->all_sources &&
            std::find(target.key->ingest.begin(), target.key->ingest.end(), service) ==
                target.key->ingest.end()) {
          return Error(401, "this key may not ingest into source " + service, "source_not_allowed");
        }
        auto made = creator->EnsureSource(service, *target.key);
        if (auto* refusal = std::get_if<IngestService::SourceRefusal>(&made)) {
          const int status = refusal->status;
          return Error(
              status, refusal->message,
              status == 503 ? "unavailable" : (status == 422 ? "source_limit" : "unknown_source"));
        }
        source = &created.emplace_back(std::get<IngestSource>(std::move(made)));
      }
      if (source == nullptr) {
        const std::string where = "resourceLogs[" + std::to_string(i) + "]";
        std::string message;
        if (service.empty()) {
          message = where;
          message +=
              " has no service.name resource attribute and the request names no source "
              "(X-Source header, source or source_name parameter)";
        } else {
          message = "no source for service.name \"";
          message += service;
          message += "\" (";
          message += where;
          message +=
              "): name one with the X-Source header or the source_name parameter, or send "
              "a service.name that is a source's name, a log table's name or a Supabase "
              "service's name";
        }
        return Error(400, message, "unknown_source");
      }
      if (!KeyMayIngest(*target.key, *source)) {
        return Error(401, "this key may not ingest into source " + source->name,
                     "source_not_allowed");
      }
    }
    sources.push_back(source);
  }
  // Ids from the body as received and the record's position in it: a retried request gets the
  // same ids, and the writers never store an (id, timestamp) twice.
  std::map<std::string_view, std::size_t> job_of_table;
  std::map<std::string_view, schema::DeliveryIds> ids;
  std::uint64_t position = 0;
  std::string_view table;
  schema::EventFormOptions options;
  const std::int64_t now = now_micros ? now_micros() : SystemNowMicros();
  options.now_micros = [now] { return now; };
  options.new_id = [&ids, &table, &position] { return ids.at(table).At(position); };
  std::size_t records = 0;
  for (int i = 0; i < export_request.resource_logs_size(); ++i) {
    const auto& resource = export_request.resource_logs(i);
    if (sources[static_cast<std::size_t>(i)] == nullptr) continue;  // no records
    const IngestSource& source = *sources[static_cast<std::size_t>(i)];
    table = source.table;
    ids.try_emplace(table, table, request.body);
    auto [it, added] = job_of_table.try_emplace(table, batch.jobs.size());
    if (added) {
      batch.jobs.emplace_back();
      batch.jobs.back().table = source.table;
      batch.jobs.back().source = source.name;
    }
    IngestJob& job = batch.jobs[it->second];
    for (int j = 0; j < resource.scope_logs_size(); ++j) {
      const auto& scope = resource.scope_logs(j);
      for (int k = 0; k < scope.log_records_size(); ++k, ++position, ++records) {
        schema::FormedEvent event;
        std::string refusal;
        if (!schema::FormEvent(RecordToEvent(resource, scope, scope.log_records(k)), options,
                               &event, &refusal)) {
          ++batch.refused;
          batch.refusals.push_back("resourceLogs[" + std::to_string(i) + "].scopeLogs[" +
                                   std::to_string(j) + "].logRecords[" + std::to_string(k) +
                                   "]: " + refusal);
          continue;
        }
        job.events.push_back(std::move(event));
      }
    }
  }
  // Queue accounting: each job's share of the decoded body.
  for (IngestJob& job : batch.jobs) {
    job.bytes = records == 0 ? 0 : text.size() * job.events.size() / records + job.events.size();
  }
  std::erase_if(batch.jobs, [](const IngestJob& job) { return job.events.empty(); });
  for (const IngestJob& job : batch.jobs) batch.job_events.push_back(job.events.size());
  if (batch.jobs.empty()) {
    return OtlpAnswer(batch, {}, 1);  // nothing to store: every record refused, or none sent
  }
  return batch;
}

Response OtlpAnswer(const OtlpBatch& batch,
                    const std::vector<std::optional<IngestOutcome>>& outcomes,
                    int retry_after_seconds) {
  std::int64_t rejected = static_cast<std::int64_t>(batch.refused);
  std::vector<std::string> reasons = batch.refusals;
  std::size_t inferred = 0;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& outcome = outcomes[i];
    if (!outcome) {
      // Retrying the whole request is safe: what was stored is recognised by its ids.
      Response response = Error(429, "the ingest queue is full, try again", "queue_full");
      response.AddHeader("Retry-After", std::to_string(retry_after_seconds));
      return response;
    }
    if (!outcome->stored && outcome->retryable) {
      Response response =
          Error(503, "events not stored, try again: " + outcome->error, "unavailable");
      response.AddHeader("Retry-After", "1");
      return response;
    }
    if (!outcome->stored) {
      // PostgreSQL refused this table's records themselves: sending them again fails again.
      rejected += static_cast<std::int64_t>(i < batch.job_events.size() ? batch.job_events[i] : 0);
      reasons.push_back("PostgreSQL refused these records: " + outcome->error);
      continue;
    }
    rejected += static_cast<std::int64_t>(outcome->refusals.size());
    reasons.insert(reasons.end(), outcome->refusals.begin(), outcome->refusals.end());
    inferred += outcome->timestamps_inferred;
  }
  std::string message;
  for (std::size_t i = 0; i < reasons.size() && i < kMaxReasons; ++i) {
    if (!message.empty()) message += "; ";
    message += reasons[i];
  }
  if (reasons.size() > kMaxReasons) {
    message += "; ... and " + std::to_string(reasons.size() - kMaxReasons) + " more";
  }
  Response response = Answer(batch.protobuf, rejected, message);
  if (inferred > 0) response.AddHeader("X-Lqe-Timestamps-Inferred", std::to_string(inferred));
  return response;
}

Response HandleOtlp(const Request& request, const PendingRequest& pending, Context& context) {
  auto prepared = PrepareOtlp(request, pending.ingest, *context.state, nullptr, context.ingest);
  if (auto* response = std::get_if<Response>(&prepared)) return std::move(*response);
  OtlpBatch& batch = std::get<OtlpBatch>(prepared);
  if (context.ingest == nullptr) return Error(503, "ingest is not running", "unavailable");
  std::vector<std::optional<IngestOutcome>> outcomes;
  for (IngestJob& job : batch.jobs) {
    auto promise = std::make_shared<std::promise<IngestOutcome>>();
    auto future = promise->get_future();
    job.done = [promise](IngestOutcome outcome) { promise->set_value(std::move(outcome)); };
    if (!context.ingest->Submit(std::move(job))) {
      outcomes.emplace_back();
      break;
    }
    outcomes.emplace_back(future.get());
  }
  return OtlpAnswer(batch, outcomes, context.ingest->RetryAfterSeconds());
}

}  // namespace lqe::gateway::ingest::otlp
