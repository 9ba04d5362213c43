// Content-Encoding of ingest bodies: gzip and deflate, bounded so that a small compressed body
// cannot expand past a limit (zip bombs).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lqe::gateway::ingest {

enum class DecodeStatus : std::uint8_t { kOk, kTooLarge, kBadData };

// Decompresses `data` in `encoding` ("gzip" or "deflate"; zlib-wrapped or raw deflate) into *out,
// never holding more than `max_bytes` of output.
DecodeStatus Decompress(std::string_view encoding, std::string_view data, std::size_t max_bytes,
                        std::string* out);

}  // namespace lqe::gateway::ingest
