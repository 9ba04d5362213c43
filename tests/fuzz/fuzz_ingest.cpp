// libFuzzer target for HTTP ingest bodies: content type and encoding checks, bounded gzip and
// deflate decoding, the three body shapes and event forming (ingest::PrepareJob, everything an
// ingest request does before the queue). The first byte picks the Content-Type and
// Content-Encoding; the rest is the body. Checks:
//  - every refusal is a 400, 401, 406, 413 or 415 with a JSON body, never an exception;
//  - a job holds only formed events, and at most as many events plus refusals as the body had
//    elements;
//  - a decoded body never exceeds the decompression limit.
#include <boost/json/parse.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "ingest/body.h"
#include "ingest/decode.h"
#include "ingest/ingest_handler.h"
#include "lqe/gateway/handler.h"

namespace {

using lqe::gateway::GatewayState;
using lqe::gateway::IngestJob;
using lqe::gateway::PendingRequest;
using lqe::gateway::Request;
using lqe::gateway::Response;

void Check(bool ok) {
  if (!ok) __builtin_trap();
}

constexpr std::size_t kMaxDecoded = 1 << 20;

const GatewayState& State() {
  static const GatewayState state = [] {
    GatewayState s;
    s.config.ingest.max_decompressed_bytes = kMaxDecoded;
    s.config.api_keys.emplace_back();
    s.config.api_keys.back().all_sources = true;
    return s;
  }();
  return state;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  Request request;
  request.method = "POST";
  request.target = "/api/logs";
  request.body.assign(reinterpret_cast<const char*>(data + 1), size - 1);
  static const char* const kTypes[] = {"application/json", "application/x-ndjson",
                                       "application/cloudevents+json", "text/plain"};
  static const char* const kEncodings[] = {"", "gzip", "deflate", "br"};
  request.headers["content-type"] = kTypes[mode & 3];
  if (((mode >> 2) & 3) != 0) request.headers["content-encoding"] = kEncodings[(mode >> 2) & 3];

  std::string decoded;
  const auto status = lqe::gateway::ingest::Decompress((mode & 16) != 0 ? "deflate" : "gzip",
                                                       request.body, kMaxDecoded, &decoded);
  Check(decoded.size() <= kMaxDecoded || status != lqe::gateway::ingest::DecodeStatus::kOk);

  PendingRequest pending;
  pending.kind = PendingRequest::Kind::kIngest;
  pending.ingest.key = &State().config.api_keys.front();
  // Half the inputs name the source up front; the others must name it in a single object.
  if ((mode & 32) != 0) pending.ingest.source = &State().config.sources.front();
  auto outcome = lqe::gateway::ingest::PrepareJob(request, pending, State(),
                                                  [] { return 1'763'850'000'000'000; });
  if (const auto* response = std::get_if<Response>(&outcome)) {
    const int s = response->status;
    Check(s == 200 || s == 400 || s == 401 || s == 406 || s == 413 || s == 415);
    boost::system::error_code ec;
    boost::json::parse(response->body, ec);
    Check(!ec);
  } else {
    const auto& job = std::get<IngestJob>(outcome);
    Check(job.table == "edge" || (mode & 32) == 0);
    Check(job.bytes <= kMaxDecoded);
    for (const auto& event : job.events) Check(!event.id.empty());
  }
  return 0;
}
