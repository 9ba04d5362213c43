#include "http/gzip.h"

#include <libdeflate.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <memory>

#include "lqe/base/ascii.h"

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

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ascii::ToLower(x) == ascii::ToLower(y);
         });
}

// The q of one Accept-Encoding element's parameters ("; q=0.5"); 1 when absent or unreadable.
double Quality(std::string_view params) {
  while (!params.empty()) {
    std::size_t semicolon = params.find(';');
    std::string_view param = Trim(params.substr(0, semicolon));
    params =
        semicolon == std::string_view::npos ? std::string_view() : params.substr(semicolon + 1);
    std::size_t equals = param.find('=');
    if (equals == std::string_view::npos ||
        !EqualsIgnoringCase(Trim(param.substr(0, equals)), "q")) {
      continue;
    }
    std::string_view value = Trim(param.substr(equals + 1));
    double q = 1;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), q);
    return ec == std::errc() ? q : 1;
  }
  return 1;
}

}  // namespace

// Allocation-free: it runs for every cache hit.
bool AcceptsGzip(const Request& request) {
  const std::string* header = request.Header("accept-encoding");
  if (header == nullptr) return false;
  std::string_view rest = *header;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view element = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    std::size_t semicolon = element.find(';');
    std::string_view coding = Trim(element.substr(0, semicolon));
    if (!EqualsIgnoringCase(coding, "gzip") && !EqualsIgnoringCase(coding, "x-gzip")) continue;
    if (semicolon == std::string_view::npos) return true;
    return Quality(element.substr(semicolon + 1)) > 0;
  }
  return false;
}

}  // namespace lqe::gateway
