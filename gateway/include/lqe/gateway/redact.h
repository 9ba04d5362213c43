// PII redaction of result values: IPv4, then IPv6 (Logflare's matching rules), then e-mail
// addresses become "REDACTED" in string values, recursively; keys are never changed.
#pragma once

#include <boost/json/value.hpp>
#include <string>
#include <string_view>

namespace lqe::gateway {

std::string RedactString(std::string_view text);
void RedactJson(boost::json::value& value);
// The per-request switch headers, in precedence order (lower case); LF- is what existing
// clients of the reference service send.
inline constexpr std::string_view kRedactHeader = "svc-endpoint-redact-pii";
inline constexpr std::string_view kLegacyRedactHeader = "lf-endpoint-redact-pii";
// Per-request switch: a header value of "true" (any case) enables, any other value disables,
// no header keeps the endpoint's setting.
bool RedactionEnabled(const std::string* header_value, bool endpoint_default);

}  // namespace lqe::gateway
