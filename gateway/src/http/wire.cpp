// Response heads are written here rather than through Beast's serializer: on a cache hit that
// serializer (a generic buffer-sequence machine over a node-allocated field list) cost more CPU
// than everything else lqe does in user space, and a response head is a dozen fixed lines. Beast
// still parses every request and supplies the reason phrases.
#include "http/wire.h"

#include <boost/beast/http/status.hpp>
#include <charconv>
#include <ostream>  // before Beast's status.hpp, which uses it without including it

#include "lqe/gateway/build_info.h"

namespace lqe::gateway {
namespace {

// "lqe/<version>", built once.
std::string_view ServerHeader() {
  static const std::string value = "lqe/" + std::string(BuildVersion());
  return value;
}

void AppendLine(std::string& out, std::string_view name, std::string_view value) {
  out.append(name);
  out.append(": ");
  out.append(value);
  out.append("\r\n");
}

bool HasLineBreak(std::string_view text) {
  for (char c : text) {
    if (c == '\r' || c == '\n') return true;
  }
  return false;
}

// Header values come from our own code, but a CR or LF in one would split the response; they
// are dropped rather than trusted.
void AppendHeader(std::string& out, std::string_view name, std::string_view value) {
  if (HasLineBreak(name) || name.find(':') != std::string_view::npos) return;
  if (!HasLineBreak(value)) {
    AppendLine(out, name, value);
    return;
  }
  std::string clean;
  for (char c : value) {
    if (c != '\r' && c != '\n') clean.push_back(c);
  }
  AppendLine(out, name, clean);
}

}  // namespace

namespace {

void AppendStatusLine(std::string& out, int status, unsigned version) {
  out.append(version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  char digits[16];
  auto end = std::to_chars(digits, digits + sizeof digits, status).ptr;
  out.append(digits, end);
  out.push_back(' ');
  out.append(boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(status)));
  out.append("\r\n");
}

// Server, Content-Type, Content-Encoding, the response's own headers and Content-Length.
void AppendFixedLines(std::string& out, const Response& response, std::size_t body_size) {
  AppendLine(out, "Server", ServerHeader());
  if (!response.content_type.empty()) AppendHeader(out, "Content-Type", response.content_type);
  if (response.body_is_gzip) AppendLine(out, "Content-Encoding", "gzip");
  for (const auto& [name, value] : response.headers) AppendHeader(out, name, value);
  // 1xx, 204 and 304 responses carry no body and no Content-Length (RFC 9110 8.6).
  bool bodiless = response.status < 200 || response.status == 204 || response.status == 304;
  if (!bodiless) {
    char digits[24];
    auto end = std::to_chars(digits, digits + sizeof digits, body_size).ptr;
    AppendLine(out, "Content-Length", std::string_view(digits, end - digits));
  }
}

void AppendConnection(std::string& out, unsigned version, bool keep_alive) {
  if (version == 10 && keep_alive) AppendLine(out, "Connection", "keep-alive");
  if (version != 10 && !keep_alive) AppendLine(out, "Connection", "close");
}

}  // namespace

void AppendHead(const Response& response, unsigned version, bool keep_alive, std::string& out) {
  AppendStatusLine(out, response.status, version);
  if (response.wire) {
    // The rest of the head, the blank line included, starts the pre-serialised buffer.
    for (const auto& [name, value] : response.headers) AppendHeader(out, name, value);
    AppendConnection(out, version, keep_alive);
    return;
  }
  AppendFixedLines(out, response, response.body.size());
  AppendConnection(out, version, keep_alive);
  out.append("\r\n");
}

std::string SerializeHead(const Response& response, unsigned version, bool keep_alive) {
  std::string out;
  out.reserve(256 + response.content_type.size());
  AppendHead(response, version, keep_alive, out);
  return out;
}

WireForm SerializeWireForm(const Response& fixed, std::string_view body) {
  std::string lines;
  AppendFixedLines(lines, fixed, body.size());
  lines.append("\r\n");
  WireForm form;
  form.bytes.reserve(lines.size() + body.size());  // exactly: the cache counts this capacity
  form.bytes.append(lines);
  form.bytes.append(body);
  form.body_offset = lines.size();
  form.gzip = fixed.body_is_gzip;
  return form;
}

}  // namespace lqe::gateway
