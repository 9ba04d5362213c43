#include "lqe/gateway/params.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "lqe/base/ascii.h"
#include "lqe/gateway/errors.h"
#include "lqe/gateway/render.h"
#include "params/text_check.h"

namespace lqe::gateway {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii::ToLower(c);
  return out;
}

std::string AllowedText(const ParamDef& def) {
  switch (def.type) {
    case ParamType::kInteger:
      return "an integer";
    case ParamType::kFloat:
      return "a number";
    case ParamType::kBoolean:
      return "true or false";
    case ParamType::kTimestamp:
      return def.required ? "an ISO-8601 timestamp" : "an ISO-8601 timestamp or empty";
    case ParamType::kEnum: {
      std::string out = "one of ";
      for (std::size_t i = 0; i < def.values.size(); ++i) {
        out += (i ? ", " : "") + def.values[i];
      }
      return out;
    }
    case ParamType::kString:
      return "a string";
  }
  return "";
}

bool IsReserved(std::string_view name) {
  return name == "sql" || name == "lql" || name == "api_key";
}

}  // namespace

bool ParseQueryString(std::string_view target, std::string* path, RawParams* out) {
  auto parsed = boost::urls::parse_origin_form(target);
  if (!parsed) return false;
  const boost::urls::url_view& url = *parsed;
  *path = url.path();  // percent-decoded
  for (auto param : url.params()) {
    (*out)[std::string(param.key)] = param.has_value ? std::string(param.value) : std::string();
  }
  return true;
}

std::optional<std::string> MergeJsonBody(std::string_view body, RawParams* out) {
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(body, ec);
  if (ec || !parsed.is_object()) return std::string("the request body must be a JSON object");
  for (const auto& item : parsed.get_object()) {
    const boost::json::value& v = item.value();
    std::string key(item.key());
    if (v.is_string()) {
      (*out)[key] = std::string(v.get_string());
    } else if (v.is_null()) {
      out->erase(key);
    } else {
      (*out)[key] = boost::json::serialize(v);
    }
  }
  return std::nullopt;
}

std::optional<std::string> NormaliseValue(const ParamDef& def, std::string_view value,
                                          std::string* error) {
  auto fail = [&]() -> std::optional<std::string> {
    *error = "invalid value for parameter " + def.name + ": expected " + AllowedText(def);
    return std::nullopt;
  };
  switch (def.type) {
    case ParamType::kString:
      return std::string(value);
    case ParamType::kInteger: {
      std::string_view digits = value.substr(!value.empty() && value[0] == '+' ? 1 : 0);
      std::int64_t n = 0;
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return fail();
      return std::to_string(n);
    }
    case ParamType::kFloat: {
      std::string text(value);
      char* end = nullptr;
      double d = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(d) ||
          ascii::IsSpace(text[0])) {
        return fail();
      }
      return text;
    }
    case ParamType::kBoolean: {
      std::string lower = Lower(value);
      if (lower == "true" || lower == "1") return std::string("true");
      if (lower == "false" || lower == "0") return std::string("false");
      return fail();
    }
    case ParamType::kTimestamp: {
      if (value.empty() && !def.required) return std::string();
      auto normalised = NormaliseTimestamp(value);
      if (!normalised) return fail();
      return normalised;
    }
    case ParamType::kEnum:
      for (const std::string& allowed : def.values) {
        if (allowed == value) return allowed;
      }
      return fail();
  }
  return fail();
}

std::variant<ValidatedParams, GatewayError> ValidateParams(const EndpointDef& endpoint,
                                                           const RawParams& raw) {
  ValidatedParams out;
  for (const auto& [name, value] : raw) {
    if (auto problem = CheckParamText(name)) {
      return MakeError(400, "a parameter name " + *problem, "invalid_parameter");
    }
    if (auto problem = CheckParamText(value)) {
      return MakeError(400, "parameter " + name + " " + *problem, "invalid_parameter",
                       {{"parameter", name}});
    }
  }
  for (const auto& [name, value] : raw) {
    if (IsReserved(name)) continue;
    if (endpoint.params.find(name) == endpoint.params.end()) {
      std::string declared;
      for (const auto& [n, def] : endpoint.params) {
        declared.append(declared.empty() ? "" : ", ").append(n);
      }
      if (declared.empty()) declared = "none";
      std::string message = "unknown parameter ";
      message.append(name).append(" (declared: ").append(declared).append(")");
      return MakeError(400, std::move(message), "unknown_parameter", {{"parameter", name}});
    }
  }
  for (const auto& [name, def] : endpoint.params) {
    auto it = raw.find(name);
    if (it == raw.end()) {
      if (def.required) {
        return MakeError(400, "missing required parameter " + name, "missing_parameter",
                         {{"parameter", name}});
      }
      out.values[name] = def.default_value;
    } else {
      std::string error;
      auto normalised = NormaliseValue(def, it->second, &error);
      if (!normalised) {
        return MakeError(400, error, "invalid_parameter", {{"parameter", name}});
      }
      if (def.required && normalised->empty() && def.type != ParamType::kString) {
        return MakeError(400, "missing required parameter " + name, "missing_parameter",
                         {{"parameter", name}});
      }
      out.values[name] = std::move(*normalised);
    }
  }
  if (auto it = raw.find("sql"); it != raw.end() && !it->second.empty()) out.sql = it->second;
  // A non-empty sql wins; lql counts only when no sql key was sent at all.
  if (auto it = raw.find("lql"); it != raw.end() && !it->second.empty() && !raw.contains("sql")) {
    out.lql = it->second;
  }
  // A JSON object in name order, written directly: this runs on every cache hit.
  out.canonical.push_back('{');
  for (const auto& [name, value] : out.values) {
    if (out.canonical.size() > 1) out.canonical.push_back(',');
    AppendJsonString(out.canonical, name);
    out.canonical.push_back(':');
    if (value) {
      AppendJsonString(out.canonical, *value);
    } else {
      out.canonical.append("null");
    }
  }
  out.canonical.push_back('}');
  return out;
}

}  // namespace lqe::gateway
