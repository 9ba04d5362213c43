// The OTLP drain: the batch as an OTLP/HTTP logs export request, one resource per source
// (service.name), in protobuf (http/protobuf, OTLP's default) or OTLP's JSON (http/json).
#include <google/protobuf/util/json_util.h>

#include <boost/json/serialize.hpp>
#include <chrono>
#include <map>

#include "drain/drain_request.h"
#include "http/gzip.h"
#include "lqe/otlp/logs_service.pb.h"

namespace lqe::gateway::drain {
namespace {

namespace json = boost::json;
namespace otlp = opentelemetry::proto;

void SetValue(const json::value& from, otlp::common::v1::AnyValue* to) {
  switch (from.kind()) {
    case json::kind::string:
      to->set_string_value(std::string(from.get_string()));
      break;
    case json::kind::bool_:
      to->set_bool_value(from.get_bool());
      break;
    case json::kind::int64:
      to->set_int_value(from.get_int64());
      break;
    case json::kind::uint64:
      if (from.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
        to->set_int_value(static_cast<std::int64_t>(from.get_uint64()));
      } else {
        to->set_double_value(static_cast<double>(from.get_uint64()));
      }
      break;
    case json::kind::double_:
      to->set_double_value(from.get_double());
      break;
    case json::kind::array: {
      auto* array = to->mutable_array_value();
      for (const json::value& v : from.get_array()) SetValue(v, array->add_values());
      break;
    }
    case json::kind::object: {
      auto* list = to->mutable_kvlist_value();
      for (const auto& field : from.get_object()) {
        auto* kv = list->add_values();
        kv->set_key(std::string(field.key()));
        SetValue(field.value(), kv->mutable_value());
      }
      break;
    }
    case json::kind::null:
      break;  // an empty AnyValue: OTLP's null
  }
}

void AddAttribute(std::string_view key, const json::value& value,
                  google::protobuf::RepeatedPtrField<otlp::common::v1::KeyValue>* to) {
  auto* kv = to->Add();
  kv->set_key(std::string(key));
  SetValue(value, kv->mutable_value());
}

// OTLP's severity number for a level name (error, warn, info, debug, trace, fatal, and the like).
otlp::logs::v1::SeverityNumber SeverityOf(std::string_view level) {
  std::string l;
  for (char c : level) l += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (l == "trace") return otlp::logs::v1::SEVERITY_NUMBER_TRACE;
  if (l == "debug") return otlp::logs::v1::SEVERITY_NUMBER_DEBUG;
  if (l == "info" || l == "log" || l == "notice") return otlp::logs::v1::SEVERITY_NUMBER_INFO;
  if (l == "warn" || l == "warning") return otlp::logs::v1::SEVERITY_NUMBER_WARN;
  if (l == "error") return otlp::logs::v1::SEVERITY_NUMBER_ERROR;
  if (l == "fatal" || l == "panic" || l == "critical") return otlp::logs::v1::SEVERITY_NUMBER_FATAL;
  return otlp::logs::v1::SEVERITY_NUMBER_UNSPECIFIED;
}

// The level the sources carry: metadata.level (Supabase's services), else extra.level or
// extra.severity.
std::string LevelOf(const DrainEvent& event) {
  for (const char* holder : {"metadata", "extra"}) {
    const json::value* h = event.fields.if_contains(holder);
    if (h == nullptr || !h->is_object()) continue;
    for (const char* key : {"level", "severity", "error_severity"}) {
      const json::value* v = h->as_object().if_contains(key);
      if (v != nullptr && v->is_string()) return std::string(v->as_string());
    }
  }
  return "";
}

void AddRecord(const DrainEvent& event, std::uint64_t observed_nanos,
               otlp::logs::v1::LogRecord* record) {
  record->set_time_unix_nano(static_cast<std::uint64_t>(event.micros) * 1000);
  record->set_observed_time_unix_nano(observed_nanos);
  const std::string level = LevelOf(event);
  if (!level.empty()) {
    record->set_severity_text(level);
    record->set_severity_number(SeverityOf(level));
  }
  if (const json::value* m = event.fields.if_contains("event_message"); m && !m->is_null()) {
    SetValue(*m, record->mutable_body());
  }
  auto* attributes = record->mutable_attributes();
  for (std::string_view key : {"id", "project", "metadata"}) {
    if (const json::value* v = event.fields.if_contains(key)) AddAttribute(key, *v, attributes);
  }
  if (const json::value* extra = event.fields.if_contains("extra"); extra && extra->is_object()) {
    for (const auto& field : extra->as_object()) {
      AddAttribute(field.key(), field.value(), attributes);
    }
  }
}

}  // namespace

std::variant<PostRequest, std::string> OtlpRequest(const json::object& config,
                                                   const std::vector<DrainEvent>& events) {
  otlp::collector::logs::v1::ExportLogsServiceRequest export_request;
  std::map<std::string, otlp::logs::v1::ScopeLogs*> by_source;
  const auto observed =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  for (const DrainEvent& event : events) {
    otlp::logs::v1::ScopeLogs*& scope = by_source[event.source];
    if (scope == nullptr) {
      auto* resource_logs = export_request.add_resource_logs();
      AddAttribute("service.name", json::value(event.source),
                   resource_logs->mutable_resource()->mutable_attributes());
      scope = resource_logs->add_scope_logs();
      scope->mutable_scope()->set_name("lqe");
    }
    AddRecord(event, observed, scope->add_log_records());
  }
  PostRequest request;
  const json::value* endpoint = config.if_contains("endpoint");
  request.url = endpoint != nullptr && endpoint->is_string() ? std::string(endpoint->as_string())
                                                             : std::string();
  // An endpoint given as the collector's base (no path) takes OTLP's logs path.
  const std::size_t scheme = request.url.find("://");
  if (scheme != std::string::npos && request.url.find('/', scheme + 3) == std::string::npos) {
    request.url += "/v1/logs";
  }
  request.http2 = true;
  if (const json::value* headers = config.if_contains("headers"); headers && headers->is_object()) {
    for (const auto& h : headers->as_object()) {
      if (h.value().is_string()) {
        request.headers.emplace_back(std::string(h.key()), std::string(h.value().as_string()));
      }
    }
  }
  const json::value* protocol = config.if_contains("protocol");
  std::string body;
  if (protocol != nullptr && protocol->is_string() && protocol->as_string() == "http/json") {
    google::protobuf::util::JsonPrintOptions options;
    options.always_print_enums_as_ints = true;  // OTLP's JSON encoding
    if (!google::protobuf::util::MessageToJsonString(export_request, &body, options).ok()) {
      return std::string("the batch could not be written as OTLP JSON");
    }
    request.headers.emplace_back("Content-Type", "application/json");
  } else {
    if (!export_request.SerializeToString(&body)) {
      return std::string("the batch could not be written as OTLP protobuf");
    }
    request.headers.emplace_back("Content-Type", "application/x-protobuf");
  }
  const json::value* gzip = config.if_contains("gzip");
  if (gzip == nullptr || !gzip->is_bool() || gzip->as_bool()) {
    request.headers.emplace_back("Content-Encoding", "gzip");
    request.body = Gzip(body);
  } else {
    request.body = std::move(body);
  }
  return request;
}

}  // namespace lqe::gateway::drain
