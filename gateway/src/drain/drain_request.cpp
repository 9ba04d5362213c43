#include "drain/drain_request.h"

#include <openssl/evp.h>

#include <array>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <map>
#include <utility>

#include "http/gzip.h"

namespace lqe::gateway::drain {
namespace {

namespace json = boost::json;

std::string StringOr(const json::object& config, std::string_view key, std::string fallback) {
  const json::value* v = config.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::move(fallback);
}

bool BoolOr(const json::object& config, std::string_view key, bool fallback) {
  const json::value* v = config.if_contains(key);
  return v != nullptr && v->is_bool() ? v->as_bool() : fallback;
}

void AddConfiguredHeaders(const json::object& config, PostRequest* request) {
  const json::value* headers = config.if_contains("headers");
  if (headers == nullptr || !headers->is_object()) return;
  for (const auto& h : headers->as_object()) {
    if (h.value().is_string()) {
      request->headers.emplace_back(std::string(h.key()), std::string(h.value().as_string()));
    }
  }
}

void Finish(std::string body, bool gzip, PostRequest* request) {
  request->headers.emplace_back("Content-Type", "application/json");
  if (gzip) {
    request->headers.emplace_back("Content-Encoding", "gzip");
    request->body = Gzip(body);
  } else {
    request->body = std::move(body);
  }
}

std::string Base64(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()),
                                static_cast<int>(data.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::string IsoOf(const DrainEvent& event) {
  const json::value* ts = event.fields.if_contains("timestamp");
  return ts != nullptr && ts->is_string() ? std::string(ts->as_string()) : std::string();
}

std::string MessageOf(const DrainEvent& event) {
  const json::value* m = event.fields.if_contains("event_message");
  return m != nullptr && m->is_string() ? std::string(m->as_string()) : std::string();
}

// Logflare's webhook body: a JSON array of the events.
PostRequest Webhook(const json::object& config, const std::vector<DrainEvent>& events) {
  PostRequest request;
  request.url = StringOr(config, "url", "");
  request.http2 = StringOr(config, "http", "http2") == "http2";
  AddConfiguredHeaders(config, &request);
  json::array body;
  body.reserve(events.size());
  for (const DrainEvent& e : events) body.emplace_back(LogflareBody(e));
  Finish(json::serialize(body), BoolOr(config, "gzip", true), &request);
  return request;
}

// Loki's push API: one stream per source (label `source`), each line the event's JSON, with
// nanosecond timestamps as strings.
PostRequest Loki(const json::object& config, const std::vector<DrainEvent>& events) {
  PostRequest request;
  request.url = StringOr(config, "url", "");
  AddConfiguredHeaders(config, &request);
  const std::string user = StringOr(config, "username", "");
  if (!user.empty()) {
    request.headers.emplace_back("Authorization",
                                 "Basic " + Base64(user + ":" + StringOr(config, "password", "")));
  }
  std::map<std::string, json::array> streams;
  for (const DrainEvent& e : events) {
    json::array value;
    value.emplace_back(std::to_string(e.micros) + "000");
    value.emplace_back(json::serialize(LogflareBody(e)));
    streams[e.source].emplace_back(std::move(value));
  }
  json::array list;
  for (auto& [source, values] : streams) {
    json::object stream;
    stream["stream"] = json::object{{"source", source}, {"service_name", source}};
    stream["values"] = std::move(values);
    list.emplace_back(std::move(stream));
  }
  Finish(json::serialize(json::object{{"streams", std::move(list)}}), BoolOr(config, "gzip", false),
         &request);
  return request;
}

// Datadog's logs intake (v2): message is the time and the event's message, data the event.
std::variant<PostRequest, std::string> Datadog(const json::object& config,
                                               const std::vector<DrainEvent>& events) {
  PostRequest request;
  const std::string region = StringOr(config, "region", "");
  request.url = StringOr(config, "endpoint", DatadogIntake(region));
  if (request.url.empty()) return "unknown Datadog region " + region;
  request.http2 = true;
  request.headers.emplace_back("DD-API-KEY", StringOr(config, "api_key", ""));
  json::array body;
  body.reserve(events.size());
  for (const DrainEvent& e : events) {
    body.emplace_back(json::object{{"message", IsoOf(e) + " " + MessageOf(e)},
                                   {"ddsource", "Supabase"},
                                   {"service", e.source},
                                   {"data", LogflareBody(e)}});
  }
  Finish(json::serialize(body), true, &request);
  return request;
}

// Datadog's sites by region name.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kIntakes = {{
    {"US1", "datadoghq.com"},
    {"US3", "us3.datadoghq.com"},
    {"US5", "us5.datadoghq.com"},
    {"EU", "datadoghq.eu"},
    {"AP1", "ap1.datadoghq.com"},
    {"US1-FED", "ddog-gov.com"},
}};

}  // namespace

json::object LogflareBody(const DrainEvent& event) {
  json::object body;
  if (const json::value* extra = event.fields.if_contains("extra"); extra && extra->is_object()) {
    for (const auto& field : extra->as_object()) body[field.key()] = field.value();
  }
  for (std::string_view key : {"id", "event_message", "project", "metadata"}) {
    if (const json::value* v = event.fields.if_contains(key)) body[key] = *v;
  }
  body["timestamp"] = event.micros;
  return body;
}

std::string DatadogIntake(std::string_view region) {
  for (const auto& [name, site] : kIntakes) {
    if (name == region) return "https://http-intake.logs." + std::string(site) + "/api/v2/logs";
  }
  return "";
}

std::string TestConnection(std::string_view type, const json::object& config) {
  DrainEvent probe;
  probe.source = "lqe.connection_test";
  probe.micros = std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  probe.fields = json::object{{"id", "lqe-connection-test"},
                              {"event_message", "lqe connection test"},
                              {"metadata", json::object()},
                              {"extra", json::object()}};
  auto request = BuildRequest(type, config, {probe});
  if (auto* why = std::get_if<std::string>(&request)) return *why;
  PostRequest& post = std::get<PostRequest>(request);
  post.timeout_ms = 10000;
  const PostResult result = Post(post);
  if (result.status >= 200 && result.status < 300) return "";
  if (result.status == 0) return result.error;
  return "HTTP " + std::to_string(result.status);
}

std::variant<PostRequest, std::string> BuildRequest(std::string_view type,
                                                    const json::object& config,
                                                    const std::vector<DrainEvent>& events) {
  if (type == "webhook") return Webhook(config, events);
  if (type == "loki") return Loki(config, events);
  if (type == "datadog") return Datadog(config, events);
  if (type == "otlp") return OtlpRequest(config, events);
  return "lqe does not deliver to backends of type " + std::string(type);
}

}  // namespace lqe::gateway::drain
