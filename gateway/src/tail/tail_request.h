// GET /api/logs/tail: the request's checks (key, parameters, LQL, caps) on the fast path, and the
// replay of `since` from the source's table. The session streams what follows (tail_stream.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lqe/gateway/handler.h"
#include "tail/tail_hub.h"

namespace lqe::gateway::tail {

// An open tail, closed (its cap slot given back) when the last owner drops it.
struct TailRequest {
  Hub* hub = nullptr;
  std::shared_ptr<Subscriber> subscriber;
  bool ndjson = false;    // Accept: application/x-ndjson; otherwise Server-Sent Events
  std::string source;     // the source's name
  std::string table;      // its log table
  int since_seconds = 0;  // 0: no replay
  std::size_t replay_max = 0;
  int heartbeat_ms = 15000;

  TailRequest() = default;
  TailRequest(const TailRequest&) = delete;
  TailRequest& operator=(const TailRequest&) = delete;
  ~TailRequest() {
    if (hub != nullptr && subscriber) hub->CloseTail(subscriber);
  }
};

// Auth (a key that may run every endpoint), `source`, `lql`, `since`, and a slot under the caps;
// the error response otherwise (400, 401, 403, 429).
FastOutcome HandleFast(const Request& request, const RawParams& raw, Context& context);

// The last `since` of the table's events (at most replay_max, the newest), oldest first, as
// serialised event objects that match the tail's filter. Blocks on PostgreSQL; an empty list and
// *error set when the query failed.
struct Replay {
  std::vector<std::string> events;
  std::vector<std::string> ids;  // of every event read, so live copies are not sent twice
  std::string error;
};
Replay ReadReplay(const TailRequest& tail, const Context& context);

// "15m" -> 900; seconds, minutes, hours or days. Nullopt when malformed.
std::optional<int> ParseSince(std::string_view text);

}  // namespace lqe::gateway::tail
