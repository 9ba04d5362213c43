// Request parameters: merged from the query string and a JSON body, validated against the
// endpoint's declarations before any query runs, normalised for binding and for cache keys.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "lqe/gateway/config.h"
#include "lqe/gateway/errors.h"
#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

// Raw inputs by name; a name given twice keeps the last value.
using RawParams = std::map<std::string, std::string, std::less<>>;

// Decodes the query string of `target` with Boost.URL. Returns false on a malformed target.
bool ParseQueryString(std::string_view target, std::string* path, RawParams* out);
// Merges a JSON object body (POST, or GET on sandbox endpoints) into `out`; numbers and booleans
// become their text. Returns an error message for a body that is not a JSON object.
std::optional<std::string> MergeJsonBody(std::string_view body, RawParams* out);

struct ValidatedParams {
  // Declared name -> normalised text value, or nullopt for SQL NULL.
  std::map<std::string, std::optional<std::string>, std::less<>> values;
  std::optional<std::string> sql;  // sandbox consumer query, when non-empty
  std::optional<std::string> lql;
  std::string canonical;  // stable text of the values, for cache keys
};

// Validates `raw` against `endpoint`: every name and value passes CheckParamText (valid UTF-8,
// no NUL, no control character but tab, LF and CR), then the declarations. Returns the 400.
std::variant<ValidatedParams, GatewayError> ValidateParams(const EndpointDef& endpoint,
                                                           const RawParams& raw);
// Checks and normalises one value of a declared type; returns an error message naming what is
// allowed. Timestamps become YYYY-MM-DDTHH:MM:SS.ffffffZ (UTC).
std::optional<std::string> NormaliseValue(const ParamDef& def, std::string_view value,
                                          std::string* error);
std::optional<std::string> NormaliseTimestamp(std::string_view text);

}  // namespace lqe::gateway
