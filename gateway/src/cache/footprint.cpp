// What a heap block really costs, so the cache's byte budget matches the process's memory.
#include <algorithm>

#include "lqe/gateway/result_cache.h"

namespace lqe::gateway {

std::size_t HeapFootprint(std::size_t size) {
  // glibc malloc: an 8-byte size field, 16-byte granules, 32 bytes at least. Large blocks may be
  // mapped on their own, which rounds them to pages.
  constexpr std::size_t kPage = 4096;
  constexpr std::size_t kLarge = std::size_t{128} << 10;
  std::size_t chunk = std::max<std::size_t>(32, (size + 8 + 15) & ~std::size_t{15});
  if (chunk >= kLarge) chunk = (chunk + 16 + kPage - 1) & ~(kPage - 1);
  return chunk;
}

std::size_t StringFootprint(const std::string& text) {
  // Within the small-string buffer the text costs nothing beyond the string object itself.
  static const std::size_t inline_capacity = std::string().capacity();
  if (text.capacity() <= inline_capacity) return 0;
  return HeapFootprint(text.capacity() + 1);
}

}  // namespace lqe::gateway
