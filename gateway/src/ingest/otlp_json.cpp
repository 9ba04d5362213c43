#include "ingest/otlp_json.h"

#include <openssl/evp.h>

#include <boost/json/parser.hpp>
#include <charconv>
#include <limits>
#include <vector>

namespace lqe::gateway::ingest::otlp {
namespace {

namespace json = boost::json;
namespace pb = opentelemetry::proto;

// A field that is not what OTLP/JSON puts there: its path and why.
struct BadField {
  std::string path;
  std::string why;
};

// The field by its lowerCamelCase name, else its proto name. Null (absent) counts as absent.
const json::value* Field(const json::object& object, std::string_view camel,
                         std::string_view snake = {}) {
  const json::value* v = object.if_contains(camel);
  if (v == nullptr && !snake.empty()) v = object.if_contains(snake);
  return v != nullptr && !v->is_null() ? v : nullptr;
}

std::string At(const std::string& path, std::string_view field) {
  return path + "." + std::string(field);
}

std::string At(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

const json::object& Object(const json::value& v, const std::string& path) {
  if (!v.is_object()) throw BadField{path, "not a JSON object"};
  return v.get_object();
}

const json::array& Array(const json::value& v, const std::string& path) {
  if (!v.is_array()) throw BadField{path, "not a JSON array"};
  return v.get_array();
}

std::string String(const json::value& v, const std::string& path) {
  if (!v.is_string()) throw BadField{path, "not a JSON string"};
  return std::string(v.get_string());
}

// A 64-bit integer as a JSON number or a decimal string (proto3 JSON writes 64-bit ints as text).
template <typename Int>
Int Integer(const json::value& v, const std::string& path) {
  if (v.is_number()) {
    json::error_code ec;
    const Int out = v.to_number<Int>(ec);  // range-checked; a double must be integral
    if (!ec) return out;
  } else if (v.is_string()) {
    std::string_view s = v.get_string();
    Int out{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc() && end == s.data() + s.size() && !s.empty()) return out;
  }
  throw BadField{path, "not an integer in range"};
}

double Double(const json::value& v, const std::string& path) {
  if (v.is_double()) return v.get_double();
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  if (v.is_string()) {
    // proto3 JSON's spellings of the values JSON numbers cannot hold.
    std::string_view s = v.get_string();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  throw BadField{path, "not a number"};
}

std::string Bytes(const json::value& v, const std::string& path) {
  std::string text = String(v, path);
  // Standard or URL-safe alphabet, padded or not (proto3 JSON accepts both).
  for (char& c : text) {
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  while (text.size() % 4 != 0) text += '=';
  std::vector<unsigned char> out(text.size() / 4 * 3 + 1);
  const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) throw BadField{path, "not base64"};
  std::size_t size = static_cast<std::size_t>(n);
  for (std::size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --size;  // the padding
  return {reinterpret_cast<const char*>(out.data()), size};
}

// OTLP/JSON's trace and span ids: hex of exactly `bytes` bytes, or "" (no id).
std::string HexId(const json::value& v, std::size_t bytes, const std::string& path) {
  std::string text = String(v, path);
  if (text.empty()) return {};
  if (text.size() != bytes * 2) {
    throw BadField{path, "not " + std::to_string(bytes * 2) + " hexadecimal digits"};
  }
  std::string out(bytes, '\0');
  for (std::size_t i = 0; i < bytes; ++i) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(text.data() + 2 * i, text.data() + 2 * i + 2, value, 16);
    if (ec != std::errc() || end != text.data() + 2 * i + 2) {
      throw BadField{path, "not " + std::to_string(bytes * 2) + " hexadecimal digits"};
    }
    out[i] = static_cast<char>(value);
  }
  return out;
}

void ReadKeyValues(const json::value& v, const std::string& path,
                   google::protobuf::RepeatedPtrField<pb::common::v1::KeyValue>* to);

void ReadAnyValue(const json::value& v, const std::string& path, pb::common::v1::AnyValue* to) {
  const json::object& o = Object(v, path);
  if (const auto* f = Field(o, "stringValue", "string_value")) {
    to->set_string_value(String(*f, At(path, "stringValue")));
    return;
  }
  if (const auto* f = Field(o, "boolValue", "bool_value")) {
    if (!f->is_bool()) throw BadField{At(path, "boolValue"), "not true or false"};
    to->set_bool_value(f->get_bool());
    return;
  }
  if (const auto* f = Field(o, "intValue", "int_value")) {
    to->set_int_value(Integer<std::int64_t>(*f, At(path, "intValue")));
    return;
  }
  if (const auto* f = Field(o, "doubleValue", "double_value")) {
    to->set_double_value(Double(*f, At(path, "doubleValue")));
    return;
  }
  if (const auto* f = Field(o, "bytesValue", "bytes_value")) {
    to->set_bytes_value(Bytes(*f, At(path, "bytesValue")));
    return;
  }
  if (const auto* f = Field(o, "arrayValue", "array_value")) {
    const std::string p = At(path, "arrayValue");
    auto* array = to->mutable_array_value();
    if (const auto* values = Field(Object(*f, p), "values")) {
      const json::array& a = Array(*values, At(p, "values"));
      for (std::size_t i = 0; i < a.size(); ++i) {
        ReadAnyValue(a[i], At(At(p, "values"), i), array->add_values());
      }
    }
    return;
  }
  if (const auto* f = Field(o, "kvlistValue", "kvlist_value")) {
    const std::string p = At(path, "kvlistValue");
    auto* list = to->mutable_kvlist_value();
    if (const auto* values = Field(Object(*f, p), "values")) {
      ReadKeyValues(*values, At(p, "values"), list->mutable_values());
    }
  }
  // {} (or only unknown fields): OTLP's empty value.
}

void ReadKeyValues(const json::value& v, const std::string& path,
                   google::protobuf::RepeatedPtrField<pb::common::v1::KeyValue>* to) {
  const json::array& a = Array(v, path);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string p = At(path, i);
    const json::object& o = Object(a[i], p);
    auto* kv = to->Add();
    if (const auto* key = Field(o, "key")) kv->set_key(String(*key, At(p, "key")));
    if (const auto* value = Field(o, "value")) {
      ReadAnyValue(*value, At(p, "value"), kv->mutable_value());
    }
  }
}

void ReadLogRecord(const json::object& o, const std::string& path, pb::logs::v1::LogRecord* to) {
  if (const auto* f = Field(o, "timeUnixNano", "time_unix_nano")) {
    to->set_time_unix_nano(Integer<std::uint64_t>(*f, At(path, "timeUnixNano")));
  }
  if (const auto* f = Field(o, "observedTimeUnixNano", "observed_time_unix_nano")) {
    to->set_observed_time_unix_nano(Integer<std::uint64_t>(*f, At(path, "observedTimeUnixNano")));
  }
  if (const auto* f = Field(o, "severityNumber", "severity_number")) {
    const std::string p = At(path, "severityNumber");
    pb::logs::v1::SeverityNumber number{};
    // A number, as OTLP/JSON writes enums; the enum's name is taken too (protobuf's JSON form).
    if (f->is_string() &&
        pb::logs::v1::SeverityNumber_Parse(std::string(f->get_string()), &number)) {
      to->set_severity_number(number);
    } else {
      const auto n = Integer<std::int32_t>(*f, p);
      if (!pb::logs::v1::SeverityNumber_IsValid(n)) {
        throw BadField{p, "not a severity number (0-24)"};
      }
      to->set_severity_number(static_cast<pb::logs::v1::SeverityNumber>(n));
    }
  }
  if (const auto* f = Field(o, "severityText", "severity_text")) {
    to->set_severity_text(String(*f, At(path, "severityText")));
  }
  if (const auto* f = Field(o, "body")) ReadAnyValue(*f, At(path, "body"), to->mutable_body());
  if (const auto* f = Field(o, "attributes")) {
    ReadKeyValues(*f, At(path, "attributes"), to->mutable_attributes());
  }
  if (const auto* f = Field(o, "droppedAttributesCount", "dropped_attributes_count")) {
    to->set_dropped_attributes_count(
        Integer<std::uint32_t>(*f, At(path, "droppedAttributesCount")));
  }
  if (const auto* f = Field(o, "flags")) {
    to->set_flags(Integer<std::uint32_t>(*f, At(path, "flags")));
  }
  if (const auto* f = Field(o, "traceId", "trace_id")) {
    to->set_trace_id(HexId(*f, 16, At(path, "traceId")));
  }
  if (const auto* f = Field(o, "spanId", "span_id")) {
    to->set_span_id(HexId(*f, 8, At(path, "spanId")));
  }
  if (const auto* f = Field(o, "eventName", "event_name")) {
    to->set_event_name(String(*f, At(path, "eventName")));
  }
}

void ReadScopeLogs(const json::object& o, const std::string& path, pb::logs::v1::ScopeLogs* to) {
  if (const auto* f = Field(o, "scope")) {
    const std::string p = At(path, "scope");
    const json::object& s = Object(*f, p);
    auto* scope = to->mutable_scope();
    if (const auto* n = Field(s, "name")) scope->set_name(String(*n, At(p, "name")));
    if (const auto* v = Field(s, "version")) scope->set_version(String(*v, At(p, "version")));
    if (const auto* a = Field(s, "attributes")) {
      ReadKeyValues(*a, At(p, "attributes"), scope->mutable_attributes());
    }
  }
  if (const auto* f = Field(o, "schemaUrl", "schema_url")) {
    to->set_schema_url(String(*f, At(path, "schemaUrl")));
  }
  if (const auto* f = Field(o, "logRecords", "log_records")) {
    const std::string p = At(path, "logRecords");
    const json::array& a = Array(*f, p);
    for (std::size_t i = 0; i < a.size(); ++i) {
      ReadLogRecord(Object(a[i], At(p, i)), At(p, i), to->add_log_records());
    }
  }
}

void ReadRequest(const json::value& root, pb::collector::logs::v1::ExportLogsServiceRequest* to) {
  const json::object& o = Object(root, "the body");
  const json::value* f = Field(o, "resourceLogs", "resource_logs");
  if (f == nullptr) return;  // nothing to export
  const json::array& a = Array(*f, "resourceLogs");
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string p = At("resourceLogs", i);
    const json::object& r = Object(a[i], p);
    auto* resource_logs = to->add_resource_logs();
    if (const auto* res = Field(r, "resource")) {
      const json::object& ro = Object(*res, At(p, "resource"));
      if (const auto* attrs = Field(ro, "attributes")) {
        ReadKeyValues(*attrs, At(At(p, "resource"), "attributes"),
                      resource_logs->mutable_resource()->mutable_attributes());
      }
    }
    if (const auto* url = Field(r, "schemaUrl", "schema_url")) {
      resource_logs->set_schema_url(String(*url, At(p, "schemaUrl")));
    }
    if (const auto* scopes = Field(r, "scopeLogs", "scope_logs")) {
      const std::string sp = At(p, "scopeLogs");
      const json::array& sa = Array(*scopes, sp);
      for (std::size_t j = 0; j < sa.size(); ++j) {
        ReadScopeLogs(Object(sa[j], At(sp, j)), At(sp, j), resource_logs->add_scope_logs());
      }
    }
  }
}

}  // namespace

bool ParseOtlpJson(std::string_view text,
                   pb::collector::logs::v1::ExportLogsServiceRequest* request, std::string* error) {
  json::parse_options options;
  options.max_depth = 256;  // nested AnyValues are walked recursively: bounded here
  json::parser parser({}, options);
  json::error_code ec;
  const std::size_t used = parser.write(text.data(), text.size(), ec);
  if (ec) {
    *error = "malformed JSON at byte " + std::to_string(used + 1) + ": " + ec.message();
    return false;
  }
  try {
    ReadRequest(parser.release(), request);
  } catch (const BadField& bad) {
    *error = bad.path + ": " + bad.why;
    return false;
  }
  return true;
}

}  // namespace lqe::gateway::ingest::otlp
