// Checks of the management API's untrusted JSON bodies: each failure names the field, so the
// client gets a 4xx that says what to fix.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace lqe::gateway::management {

// A refusal: HTTP status, the field (may be empty) and what is wrong with it.
struct Invalid {
  int status = 400;
  std::string field;
  std::string message;
};

// The body as JSON (an object or, where batches are allowed, an array).
std::optional<Invalid> ParseBody(std::string_view body, boost::json::value* out);

// The drain types lqe delivers to; the other Logflare backend types are refused by name.
bool SupportedBackendType(std::string_view type);
// The type's config: required fields present with the right types, URLs http(s).
std::optional<Invalid> CheckBackendConfig(std::string_view type, const boost::json::value& config);
// A create (`creating`) or an update body of /api/backends.
std::optional<Invalid> CheckBackendBody(const boost::json::object& body, bool creating);
// A create or update body of /api/sources.
std::optional<Invalid> CheckSourceBody(const boost::json::object& body, bool creating);
// A rule body: backend_id, source_id (integers) and lql_string (parsed with lqe's LQL).
std::optional<Invalid> CheckRuleBody(const boost::json::object& body);
// An integer id given as a JSON number or a string of digits.
std::optional<long long> IdOf(const boost::json::value* value);

}  // namespace lqe::gateway::management
