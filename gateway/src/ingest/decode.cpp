#include "ingest/decode.h"

#include <libdeflate.h>

#include <algorithm>
#include <memory>

namespace lqe::gateway::ingest {
namespace {

struct FreeDecompressor {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

libdeflate_decompressor* Decompressor() {
  thread_local std::unique_ptr<libdeflate_decompressor, FreeDecompressor> d(
      libdeflate_alloc_decompressor());
  return d.get();
}

enum class Format : std::uint8_t { kGzip, kZlib, kRaw };

libdeflate_result Run(Format format, std::string_view in, std::string& out, std::size_t* in_used,
                      std::size_t* out_size) {
  libdeflate_decompressor* d = Decompressor();
  if (d == nullptr) return LIBDEFLATE_BAD_DATA;
  switch (format) {
    case Format::kGzip:
      return libdeflate_gzip_decompress_ex(d, in.data(), in.size(), out.data(), out.size(), in_used,
                                           out_size);
    case Format::kZlib:
      return libdeflate_zlib_decompress_ex(d, in.data(), in.size(), out.data(), out.size(), in_used,
                                           out_size);
    case Format::kRaw:
      return libdeflate_deflate_decompress_ex(d, in.data(), in.size(), out.data(), out.size(),
                                              in_used, out_size);
  }
  return LIBDEFLATE_BAD_DATA;
}

// One stream (one gzip member), growing the output buffer by doubling up to `max_bytes`:
// libdeflate needs the whole output space up front and says when it was too small.
DecodeStatus DecodeOne(Format format, std::string_view in, std::size_t max_bytes,
                       std::size_t* in_used, std::string* out) {
  std::size_t capacity = std::min(max_bytes, std::max<std::size_t>(64 << 10, in.size() * 4));
  std::string buffer;
  for (;;) {
    buffer.resize(capacity);
    std::size_t out_size = 0;
    libdeflate_result r = Run(format, in, buffer, in_used, &out_size);
    if (r == LIBDEFLATE_SUCCESS) {
      buffer.resize(out_size);
      *out = std::move(buffer);
      return DecodeStatus::kOk;
    }
    if (r != LIBDEFLATE_INSUFFICIENT_SPACE) return DecodeStatus::kBadData;
    if (capacity >= max_bytes) return DecodeStatus::kTooLarge;
    capacity = std::min(max_bytes, capacity * 2);
  }
}

}  // namespace

DecodeStatus Decompress(std::string_view encoding, std::string_view data, std::size_t max_bytes,
                        std::string* out) {
  out->clear();
  if (encoding == "deflate") {
    std::size_t used = 0;
    DecodeStatus status = DecodeOne(Format::kZlib, data, max_bytes, &used, out);
    if (status == DecodeStatus::kBadData)
      status = DecodeOne(Format::kRaw, data, max_bytes, &used, out);
    return status;
  }
  // gzip: concatenated members decode to their concatenation (RFC 1952).
  while (!data.empty()) {
    std::size_t used = 0;
    std::string member;
    DecodeStatus status = DecodeOne(Format::kGzip, data, max_bytes - out->size(), &used, &member);
    if (status != DecodeStatus::kOk) return status;
    if (used == 0) return DecodeStatus::kBadData;
    out->append(member);
    data.remove_prefix(used);
    if (out->size() >= max_bytes && !data.empty()) return DecodeStatus::kTooLarge;
  }
  return DecodeStatus::kOk;
}

}  // namespace lqe::gateway::ingest
