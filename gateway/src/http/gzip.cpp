#include "http/gzip.h"

#include <libdeflate.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>

#include "lqe/ascii.h"

namespace lqe::gateway {
namespace {

struct FreeCompressor {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

// A compressor holds a few hundred KiB of tables; each thread keeps one per level instead of
// allocating them for every response.
libdeflate_compressor* CompressorFor(int level) {
  thread_local std::array<std::unique_ptr<libdeflate_compressor, FreeCompressor>, 13> compressors;
  auto& slot = compressors[static_cast<std::size_t>(level)];
  if (!slot) slot.reset(libdeflate_alloc_compressor(level));
  return slot.get();
}

}  // namespace

std::string Gzip(std::string_view data, int level) {
  libdeflate_compressor* compressor = CompressorFor(std::clamp(level, 1, 12));
  if (compressor == nullptr) return {};
  std::string out(libdeflate_gzip_compress_bound(compressor, data.size()), '\0');
  std::size_t size =
      libdeflate_gzip_compress(compressor, data.data(), data.size(), out.data(), out.size());
  out.resize(size);  // 0: did not fit, which the bound rules out; callers treat empty as failure
  return out;
}

bool AcceptsGzip(const Request& request) {
  const std::string* header = request.Header("accept-encoding");
  if (header == nullptr) return false;
  std::string value(*header);
  std::transform(value.begin(), value.end(), value.begin(),
                 [](char c) { return ascii::ToLower(c); });
  std::size_t pos = value.find("gzip");
  if (pos == std::string::npos) return false;
  std::string rest = value.substr(pos + 4, value.find(',', pos) - pos - 4);
  rest.erase(std::remove(rest.begin(), rest.end(), ' '), rest.end());
  if (rest.rfind(";q=", 0) != 0) return true;
  return std::strtod(rest.c_str() + 3, nullptr) > 0;
}

}  // namespace lqe::gateway
