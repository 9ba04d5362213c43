#include "http/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>

namespace lqe::gateway {

std::string Gzip(std::string_view data, int level) {
  z_stream stream{};
  // windowBits 15 + 16 selects the gzip wrapper.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&stream, data.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return rc == Z_STREAM_END ? out : std::string();
}

bool AcceptsGzip(const Request& request) {
  const std::string* header = request.Header("accept-encoding");
  if (header == nullptr) return false;
  std::string value(*header);
  std::transform(value.begin(), value.end(), value.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::size_t pos = value.find("gzip");
  if (pos == std::string::npos) return false;
  std::string rest = value.substr(pos + 4, value.find(',', pos) - pos - 4);
  rest.erase(std::remove(rest.begin(), rest.end(), ' '), rest.end());
  if (rest.rfind(";q=", 0) != 0) return true;
  return std::strtod(rest.c_str() + 3, nullptr) > 0;
}

}  // namespace lqe::gateway
