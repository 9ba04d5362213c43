#include "console/console_handler.h"

#include <map>
#include <memory>
#include <string>

#include "console/embedded_assets.h"
#include "http/gzip.h"
#include "http/wire.h"
#include "lqe/gateway/errors.h"

namespace lqe::gateway::console {
namespace {

constexpr std::string_view kPrefix = "/console/";

// Scripts, styles, fetches and images from this origin only; no inline script or style, no
// framing. `data:` images are the page's empty favicon.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

// One representation of a file: its ETag and its pre-serialised GET and HEAD answers (the HEAD
// form is the GET head, Content-Length included, without the body).
struct Representation {
  std::string etag;
  std::string content_type;  // also on the Response itself, for logs and callers that read it
  bool gzip = false;
  std::shared_ptr<const WireForm> get;
  std::shared_ptr<const WireForm> head;
};

struct Prepared {
  Representation plain;
  Representation gzip;
};

void AddFixedHeaders(Response& response, const std::string& etag) {
  response.AddHeader("ETag", etag);
  // Revalidated on every use: the names are not versioned, and a 304 from a local gateway costs
  // less than a stale script after an upgrade.
  response.AddHeader("Cache-Control", "no-cache");
  response.AddHeader("Vary", "Accept-Encoding");
  response.AddHeader("Content-Security-Policy", std::string(kContentSecurityPolicy));
  response.AddHeader("X-Content-Type-Options", "nosniff");
  response.AddHeader("Referrer-Policy", "no-referrer");
  response.AddHeader("X-Frame-Options", "DENY");
}

Representation MakeRepresentation(const EmbeddedAsset& asset, std::string_view body, bool gzip) {
  Representation r;
  // Strong, from the content hash taken at build time; the two encodings are different bytes.
  r.etag = "\"" + std::string(asset.sha256.substr(0, 32)) + (gzip ? "-gz\"" : "\"");
  r.content_type = std::string(asset.content_type);
  r.gzip = gzip;
  Response fixed;
  fixed.content_type = r.content_type;
  fixed.body_is_gzip = gzip;
  AddFixedHeaders(fixed, r.etag);
  WireForm full = SerializeWireForm(fixed, body);
  WireForm head = full;
  head.bytes.resize(head.body_offset);
  r.get = std::make_shared<const WireForm>(std::move(full));
  r.head = std::make_shared<const WireForm>(std::move(head));
  return r;
}

// Built once, at the first request: gzip at the strongest level, since it is paid only then.
const std::map<std::string_view, Prepared>& PreparedAssets() {
  static const std::map<std::string_view, Prepared> prepared = [] {
    std::map<std::string_view, Prepared> out;
    for (const EmbeddedAsset& asset : EmbeddedAssets()) {
      Prepared p;
      p.plain = MakeRepresentation(asset, asset.data, false);
      std::string compressed = Gzip(asset.data, 12);
      p.gzip = compressed.empty() || compressed.size() >= asset.data.size()
                   ? p.plain
                   : MakeRepresentation(asset, compressed, true);
      out.emplace(asset.name, std::move(p));
    }
    return out;
  }();
  return prepared;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// If-None-Match lists ETags (weak comparison, RFC 9110 13.1.2) or is "*".
bool Matches(const std::string* if_none_match, const std::string& etag) {
  if (if_none_match == nullptr) return false;
  std::string_view rest = *if_none_match;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view tag = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
  }
  return false;
}

// A HEAD answer: the GET answer's head, Content-Length included, without its body.
Response HeadOnly(const Response& response) {
  WireForm form = SerializeWireForm(response, response.body);
  form.bytes.resize(form.body_offset);
  Response head;
  head.status = response.status;
  head.wire = std::make_shared<const WireForm>(std::move(form));
  return head;
}

std::string_view FileFor(std::string_view path) {
  if (path == "/" || path == "/console" || path == kPrefix) return "index.html";
  return path.substr(kPrefix.size());
}

}  // namespace

bool IsConsolePath(std::string_view path) {
  return path == "/" || path == "/console" || path.substr(0, kPrefix.size()) == kPrefix;
}

Response Serve(const Request& request, std::string_view path) {
  const bool head = request.method == "HEAD";
  if (request.method != "GET" && !head) {
    GatewayError error =
        MakeError(405, "method " + request.method + " is not allowed here", "method_not_allowed");
    error.headers.emplace_back("Allow", "GET, HEAD");
    return ToResponse(error);
  }
  const auto& assets = PreparedAssets();
  auto it = assets.find(FileFor(path));
  if (it == assets.end()) {
    Response missing =
        ToResponse(MakeError(404, "no console file " + std::string(path), "not_found"));
    return head ? HeadOnly(missing) : missing;
  }
  const Representation& r = AcceptsGzip(request) ? it->second.gzip : it->second.plain;
  Response response;
  if (Matches(request.Header("if-none-match"), r.etag)) {
    response.status = 304;
    response.content_type.clear();
    AddFixedHeaders(response, r.etag);
    return response;
  }
  response.content_type = r.content_type;
  response.body_is_gzip = r.gzip;
  response.wire = head ? r.head : r.get;
  return response;
}

}  // namespace lqe::gateway::console
