// API keys: stored as SHA-256 digests and compared in constant time.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "lqe/gateway/config.h"
#include "lqe/gateway/http_types.h"
#include "lqe/schema/delivery_ids.h"

namespace lqe::gateway {

using schema::Sha256;
std::string HexEncode(const unsigned char* data, std::size_t size);
// Parses 64 hex digits; false on anything else.
bool ParseSha256Hex(std::string_view hex, std::array<unsigned char, 32>* out);
// The headers a token may come in (lower case, as Request stores them).
inline constexpr std::string_view kAuthorizationHeader = "authorization";
inline constexpr std::string_view kApiKeyHeader = "x-api-key";
// The presented token: Authorization: Bearer, then X-API-KEY, then ?api_key=. Empty when none.
std::string ExtractToken(const Request& request, const std::string* api_key_param);
// The matching key, or nullptr. Compares against every key without early exit.
const ApiKey* FindApiKey(const std::vector<ApiKey>& keys, std::string_view token);
bool KeyAllows(const ApiKey& key, const EndpointDef& endpoint);

}  // namespace lqe::gateway
