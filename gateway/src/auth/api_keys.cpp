#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <boost/algorithm/hex.hpp>
#include <iterator>
#include <memory>

#include "lqe/base/ascii.h"
#include "lqe/gateway/auth.h"

namespace lqe::gateway {

std::string HexEncode(const unsigned char* data, std::size_t size) {
  std::string out;
  out.reserve(size * 2);
  boost::algorithm::hex_lower(data, data + size, std::back_inserter(out));
  return out;
}

bool ParseSha256Hex(std::string_view hex, std::array<unsigned char, 32>* out) {
  if (hex.size() != 64) return false;
  for (std::size_t i = 0; i < 32; ++i) {
    int hi = ascii::HexValue(hex[2 * i]);
    int lo = ascii::HexValue(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    (*out)[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return true;
}

std::string ExtractToken(const Request& request, const std::string* api_key_param) {
  if (const std::string* auth = request.Header(kAuthorizationHeader)) {
    std::string_view value = *auth;
    if (value.size() > 7 && (value.substr(0, 7) == "Bearer " || value.substr(0, 7) == "bearer ")) {
      return std::string(value.substr(7));
    }
  }
  if (const std::string* key = request.Header(kApiKeyHeader)) return *key;
  if (api_key_param != nullptr) return *api_key_param;
  return {};
}

const ApiKey* FindApiKey(const std::vector<ApiKey>& keys, std::string_view token) {
  if (token.empty()) return nullptr;
  auto digest = Sha256(token);
  const ApiKey* found = nullptr;
  // Every key is compared, whatever matched before, so timing does not reveal which one did.
  for (const ApiKey& key : keys) {
    if (CRYPTO_memcmp(digest.data(), key.sha256.data(), digest.size()) == 0 && found == nullptr) {
      found = &key;
    }
  }
  return found;
}

bool KeyAllows(const ApiKey& key, const EndpointDef& endpoint) {
  if (key.all_endpoints) return true;
  return std::any_of(key.endpoints.begin(), key.endpoints.end(),
                     [&](const std::string& e) { return e == endpoint.name || e == endpoint.id; });
}

}  // namespace lqe::gateway
