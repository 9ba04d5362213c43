#include "ingest/otlp_values.h"

#include <openssl/evp.h>

#include <vector>

namespace lqe::gateway::ingest::otlp {
namespace {

namespace json = boost::json;
using opentelemetry::proto::common::v1::AnyValue;

// Puts `value` at the dotted path `key` in `into`; false when a step of the path is taken by a
// value that is not an object (or the last step by an object), leaving `into` unchanged.
bool PutNested(std::string_view key, json::value& value, json::object& into) {
  // An empty step ("a..b", ".a", "a."): no path, the key stays whole (checked first, so that no
  // step is made for it).
  if (key.starts_with('.') || key.ends_with('.') || key.find("..") != std::string_view::npos) {
    return false;
  }
  json::object* at = &into;
  std::size_t start = 0;
  for (std::size_t dot = key.find('.'); dot != std::string_view::npos;
       start = dot + 1, dot = key.find('.', start)) {
    std::string_view step = key.substr(start, dot - start);
    json::value* next = at->if_contains(step);
    if (next == nullptr) {
      next = &(*at)[step];
      *next = json::object(into.storage());
    }
    if (!next->is_object()) return false;
    at = &next->get_object();
  }
  std::string_view last = key.substr(start);
  if (json::value* old = at->if_contains(last); old != nullptr && old->is_object()) return false;
  (*at)[last] = std::move(value);
  return true;
}

}  // namespace

json::value ToJson(const AnyValue& value, const json::storage_ptr& storage) {
  switch (value.value_case()) {
    case AnyValue::kStringValue:
      return json::value(json::string(value.string_value(), storage));
    case AnyValue::kBoolValue:
      return json::value(value.bool_value(), storage);
    case AnyValue::kIntValue:
      return json::value(value.int_value(), storage);
    case AnyValue::kDoubleValue:
      return json::value(value.double_value(), storage);
    case AnyValue::kArrayValue: {
      json::array array(storage);
      array.reserve(static_cast<std::size_t>(value.array_value().values_size()));
      for (const AnyValue& v : value.array_value().values()) array.push_back(ToJson(v, storage));
      return array;
    }
    case AnyValue::kKvlistValue: {
      // A kvlist is a map of its own: its keys are kept as they are (not split at dots).
      json::object object(storage);
      for (const auto& kv : value.kvlist_value().values()) {
        object[kv.key()] = ToJson(kv.value(), storage);
      }
      return object;
    }
    case AnyValue::kBytesValue:
      return json::value(json::string(Base64(value.bytes_value()), storage));
    case AnyValue::VALUE_NOT_SET:
      break;
  }
  return json::value(nullptr, storage);
}

json::object AttributesToJson(const KeyValues& attributes, const json::storage_ptr& storage) {
  json::object object(storage);
  // Plain keys first, so that which of "a" and "a.b" was sent first does not matter.
  for (const auto& kv : attributes) {
    if (kv.key().find('.') == std::string::npos) object[kv.key()] = ToJson(kv.value(), storage);
  }
  for (const auto& kv : attributes) {
    if (kv.key().find('.') == std::string::npos) continue;
    json::value value = ToJson(kv.value(), storage);
    if (!PutNested(kv.key(), value, object)) object[kv.key()] = std::move(value);
  }
  return object;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

std::string Base64(std::string_view bytes) {
  if (bytes.empty()) return {};
  std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
  const int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  return {reinterpret_cast<const char*>(out.data()), static_cast<std::size_t>(n)};
}

}  // namespace lqe::gateway::ingest::otlp
