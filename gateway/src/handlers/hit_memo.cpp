#include "lqe/gateway/hit_memo.h"

#include <array>
#include <string_view>

#include "lqe/gateway/auth.h"
#include "lqe/gateway/redact.h"

namespace lqe::gateway {
namespace {

// Every header request preparation reads (credentials and the redaction switches): the same
// constants Prepare reads them by.
constexpr std::array<std::string_view, 4> kPreparedHeaders = {kAuthorizationHeader, kApiKeyHeader,
                                                              kRedactHeader, kLegacyRedactHeader};

}  // namespace

const std::string* HitMemo::KeyFor(const Request& request) {
  if (request.method != "GET" || !request.body.empty()) return nullptr;
  key_.assign(request.target);
  for (std::string_view name : kPreparedHeaders) {
    const std::string* value = request.Header(name);
    key_.push_back('\0');  // cannot occur in a target or a header value Beast accepted
    if (value == nullptr) continue;
    key_.push_back('=');  // present, possibly empty
    key_.append(*value);
  }
  if (key_.size() > kMaxKeyBytes) return nullptr;
  return &key_;
}

void HitMemo::Use(const std::shared_ptr<const GatewayState>& state) {
  bool same = !state_.owner_before(state) && !state.owner_before(state_) && !state_.expired();
  if (same) return;
  entries_.clear();
  state_ = state;
}

const HitMemo::Entry* HitMemo::Find(const std::string& key,
                                    const std::shared_ptr<const GatewayState>& state) {
  Use(state);
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

void HitMemo::Remember(std::string key, const std::shared_ptr<const GatewayState>& state,
                       Entry entry) {
  Use(state);
  if (entries_.size() >= kMaxEntries) entries_.clear();
  entries_.insert_or_assign(std::move(key), std::move(entry));
}

}  // namespace lqe::gateway
