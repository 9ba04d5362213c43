#include "lqe/gateway/log_format.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

namespace lqe::gateway {
namespace {

std::atomic<bool> json_logs{false};
constexpr std::string_view kStructured = "\x1e";

// {"time":"2026-01-02T03:04:05.678Z","level":"info","msg":"..."}; a structured message (an
// access line: StructuredLogPrefix and a JSON object) is merged: its fields follow time and level.
class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    auto since_epoch = msg.time.time_since_epoch();
    auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
    auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - seconds);
    std::time_t whole = static_cast<std::time_t>(seconds.count());
    std::tm utc{};
    gmtime_r(&whole, &utc);
    char stamp[96];
    std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<int>(millis.count()));
    std::string_view text(msg.payload.data(), msg.payload.size());
    std::string line = R"({"time":")" + std::string(stamp) + R"(","level":")" +
                       std::string(spdlog::level::to_string_view(msg.level).data(),
                                   spdlog::level::to_string_view(msg.level).size()) +
                       "\",";
    if (text.size() > 2 && text.front() == kStructured[0] && text[1] == '{') {
      line.append(text.substr(2));
    } else {
      line += "\"msg\":" + boost::json::serialize(boost::json::string(text)) + "}";
    }
    line.push_back('\n');
    dest.append(line.data(), line.data() + line.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>();
  }
};

bool SafeIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == ':' || c == '+' || c == '/' || c == '=';
}

}  // namespace

void UseJsonLogs(bool json) {
  json_logs.store(json);
  if (json) spdlog::set_formatter(std::make_unique<JsonFormatter>());
}

std::string_view StructuredLogPrefix() {
  return kStructured;
}

bool JsonLogs() {
  return json_logs.load(std::memory_order_relaxed);
}

std::string RequestIdFor(const std::string* header) {
  if (header != nullptr && !header->empty() && header->size() <= 128) {
    bool safe = true;
    for (char c : *header) safe = safe && SafeIdChar(c);
    if (safe) return *header;
  }
  thread_local std::mt19937_64 random{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(32, '0');
  for (int half = 0; half < 2; ++half) {
    std::uint64_t bits = random();
    for (int i = 0; i < 16; ++i) id[half * 16 + i] = kHex[(bits >> (4 * i)) & 15];
  }
  return id;
}

}  // namespace lqe::gateway
