// A rendered result turned into the bytes every hit sends: each form (plain, gzip) is the fixed
// part of the head and the body in one exactly sized buffer, built once per fill.
#include "http/wire.h"
#include "lqe/gateway/handler.h"
#include "lqe/gateway/result_cache.h"

namespace lqe::gateway {
namespace {

WireForm Serialise(std::string_view body, bool gzip, bool has_gzip, bool truncated) {
  Response fixed;
  fixed.body_is_gzip = gzip;
  if (has_gzip) fixed.AddHeader("Vary", "Accept-Encoding");
  if (truncated) fixed.AddHeader("X-Result-Truncated", "true");
  AddCommonHeaders(fixed);
  return SerializeWireForm(fixed, body);
}

}  // namespace

ResultPtr MakeCachedResult(std::string_view body, std::string_view gzip_body, bool truncated) {
  auto result = std::make_shared<CachedResult>();
  const bool has_gzip = !gzip_body.empty();
  result->plain = Serialise(body, false, has_gzip, truncated);
  if (has_gzip) result->gzip = Serialise(gzip_body, true, true, truncated);
  result->truncated = truncated;
  // make_shared puts the result and its reference counts in one block.
  result->footprint = HeapFootprint(sizeof(CachedResult) + 16) +
                      StringFootprint(result->plain.bytes) + StringFootprint(result->gzip.bytes);
  return result;
}

}  // namespace lqe::gateway
