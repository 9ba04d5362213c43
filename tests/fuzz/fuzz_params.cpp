// libFuzzer target for request parameters: the query string parser, the JSON body merge, and
// validation against an endpoint that declares one parameter of every type (required and
// optional). The first byte picks what the rest is: a request target, a JSON body, or one value
// for every declared type. Checks:
//  - a failure always carries a message (400 with a JSON error body, or an error text);
//  - an accepted value is normalised: normalising it again gives it back unchanged;
//  - booleans become true/false, enums one of their values, integers decimal int64 text,
//    timestamps YYYY-MM-DDTHH:MM:SS.ffffffZ (or empty when optional).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "lqe/base/ascii.h"
#include "lqe/gateway/params.h"

namespace {

using lqe::gateway::EndpointDef;
using lqe::gateway::NormaliseValue;
using lqe::gateway::ParamDef;
using lqe::gateway::ParamType;
using lqe::gateway::RawParams;

void Check(bool ok) {
  if (!ok) __builtin_trap();
}

ParamDef Def(std::string name, ParamType type, bool required) {
  ParamDef def;
  def.name = std::move(name);
  def.type = type;
  def.required = required;
  if (type == ParamType::kEnum) def.values = {"minutely", "hourly", "daily", "1hr", ""};
  return def;
}

const EndpointDef& Endpoint() {
  static const EndpointDef endpoint = [] {
    EndpointDef e;
    e.name = "fuzz.params";
    e.sandbox = true;
    const std::pair<const char*, ParamType> types[] = {
        {"s", ParamType::kString},  {"i", ParamType::kInteger},   {"f", ParamType::kFloat},
        {"b", ParamType::kBoolean}, {"t", ParamType::kTimestamp}, {"e", ParamType::kEnum}};
    for (const auto& [name, type] : types) {
      e.params[name] = Def(name, type, false);
      e.params[std::string(name) + "_req"] = Def(std::string(name) + "_req", type, true);
    }
    return e;
  }();
  return endpoint;
}

bool IsNormalTimestamp(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS.ffffffZ
  constexpr std::string_view shape = "dddd-dd-ddTdd:dd:dd.ddddddZ";
  if (s.size() != shape.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (shape[i] == 'd' ? !lqe::ascii::IsDigit(s[i]) : s[i] != shape[i]) return false;
  }
  return true;
}

void CheckValue(const ParamDef& def, std::string_view value) {
  std::string error;
  auto normalised = NormaliseValue(def, value, &error);
  if (!normalised) {
    Check(!error.empty() && error.find(def.name) != std::string::npos);
    return;
  }
  std::string again_error;
  auto again = NormaliseValue(def, *normalised, &again_error);
  Check(again.has_value() && *again == *normalised);
  switch (def.type) {
    case ParamType::kBoolean:
      Check(*normalised == "true" || *normalised == "false");
      break;
    case ParamType::kEnum: {
      bool listed = false;
      for (const std::string& v : def.values) listed = listed || v == *normalised;
      Check(listed);
      break;
    }
    case ParamType::kInteger: {
      std::string_view digits(*normalised);
      if (!digits.empty() && digits[0] == '-') digits.remove_prefix(1);
      Check(!digits.empty() && digits.size() <= 19);
      for (char c : digits) Check(lqe::ascii::IsDigit(c));
      break;
    }
    case ParamType::kTimestamp:
      Check(IsNormalTimestamp(*normalised) || (normalised->empty() && !def.required));
      break;
    case ParamType::kString:
      Check(*normalised == value);
      break;
    case ParamType::kFloat:  // kept as sent, for PostgreSQL's float8 input to read
      Check(*normalised == value);
      break;
  }
}

void CheckValidation(const RawParams& raw) {
  auto result = lqe::gateway::ValidateParams(Endpoint(), raw);
  if (const auto* error = std::get_if<lqe::gateway::GatewayError>(&result)) {
    Check(error->status == 400 && !error->message.empty() && !error->reason.empty());
    return;
  }
  const auto& valid = std::get<lqe::gateway::ValidatedParams>(result);
  for (const auto& [name, value] : valid.values) {
    auto def = Endpoint().params.find(name);
    Check(def != Endpoint().params.end());
    if (value) CheckValue(def->second, *value);
  }
  Check(!valid.canonical.empty() && valid.canonical.front() == '{' &&
        valid.canonical.back() == '}');
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {  // a request target
      std::string path;
      RawParams raw;
      if (lqe::gateway::ParseQueryString(rest, &path, &raw)) CheckValidation(raw);
      break;
    }
    case 1: {  // a JSON body over a query string that already set two values
      RawParams raw{{"s_req", "x"}, {"e_req", "daily"}};
      auto error = lqe::gateway::MergeJsonBody(rest, &raw);
      if (error) {
        Check(!error->empty());
      } else {
        CheckValidation(raw);
      }
      break;
    }
    default:  // one value for every declared type
      for (const auto& [name, def] : Endpoint().params) CheckValue(def, rest);
      break;
  }
  return 0;
}
