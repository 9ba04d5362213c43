// Remembers, per I/O thread, what request preparation concluded for a GET that was answered from
// the cache, so that the same request again (same target, same credentials, same redaction
// headers, same config snapshot) goes straight to the cache lookup: no URL parsing, key hashing
// or parameter validation. The memo key holds every input preparation reads, so a memo hit only
// repeats a decision already made; a miss, or anything unusual, takes the full path.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "lqe/gateway/http_types.h"

namespace lqe::gateway {

struct EndpointDef;
struct GatewayState;

class HitMemo {
 public:
  struct Entry {
    const EndpointDef* endpoint = nullptr;  // owned by the snapshot the entries belong to
    bool redact = false;
    std::string cache_key;
  };

  // The memo key of a request, or nullptr when it is not memoisable (not a bodiless GET, or
  // too long to be worth keeping). The key lives in a buffer of the memo that the next call
  // reuses, so a repeated hit builds it without allocating.
  const std::string* KeyFor(const Request& request);
  // The entry for key under `state`; a new snapshot empties the memo first.
  const Entry* Find(const std::string& key, const std::shared_ptr<const GatewayState>& state);
  void Remember(std::string key, const std::shared_ptr<const GatewayState>& state, Entry entry);
  std::size_t size() const { return entries_.size(); }

  static constexpr std::size_t kMaxEntries = 1024;  // then it starts over
  static constexpr std::size_t kMaxKeyBytes = 2048;

 private:
  void Use(const std::shared_ptr<const GatewayState>& state);
  // Weak, so a memo never keeps a replaced snapshot (and its connection pool) alive. Entries are
  // used only while the caller holds that same snapshot; owner equivalence cannot be fooled by a
  // new snapshot at a reused address, since the weak reference keeps the control block.
  std::weak_ptr<const GatewayState> state_;
  std::unordered_map<std::string, Entry> entries_;
  std::string key_;  // KeyFor's buffer
};

}  // namespace lqe::gateway
