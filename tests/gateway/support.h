// Test helpers for the gateway: a fake clock, hand-built endpoints with hand-written
// translations (so handler tests do not depend on the translator), and request builders.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "lqe/gateway/clock.h"
#include "lqe/gateway/handler.h"

namespace lqe::gateway::testing {

class FakeClock final : public Clock {
 public:
  time_point Now() const override { return now_; }
  void Advance(std::chrono::milliseconds d) { now_ += d; }

 private:
  time_point now_ = time_point() + std::chrono::hours(1000);
};

// The plain-text API key used by tests, and its SHA-256 in hex.
inline constexpr const char* kTestKey = "test-key-1";
inline constexpr const char* kLimitedKey = "test-key-limited";  // may run "limited.ep" only
std::string Sha256Hex(const std::string& text);

// A response header, from the per-request lines or from the pre-serialised part of the head;
// "<absent>" when there is none.
std::string Header(const Response& r, const std::string& name);

// A column of a hand-written translation.
OutputColumn Col(const std::string& name, TypeKind kind);
OutputColumn RecordCol(const std::string& name);

// An endpoint whose "translation" is `pg_sql` as given, with bound params in order.
std::shared_ptr<EndpointDef> MakeEndpoint(const std::string& name, const std::string& pg_sql,
                                          std::vector<OutputColumn> columns,
                                          const std::vector<std::string>& bound_params = {});
void AddParam(EndpointDef& e, const std::string& name, ParamType type, bool required,
              std::vector<std::string> values = {});

// A snapshot with the two test keys and the given endpoints.
std::shared_ptr<GatewayState> MakeState(std::vector<std::shared_ptr<EndpointDef>> endpoints,
                                        Metrics* metrics = nullptr);

Request Get(const std::string& target, const std::string& key = kTestKey);

// A temporary directory removed at the end of the test.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::string Write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

}  // namespace lqe::gateway::testing
