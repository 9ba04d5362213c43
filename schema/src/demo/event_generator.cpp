#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "demo/generator_context.h"
#include "lqe/base/iso8601.h"
#include "lqe/schema/demo_events.h"

namespace lqe::demo {
namespace {

constexpr std::int64_t kMicrosPerSecond = 1000000;
constexpr std::int64_t kMicrosPerHour = 3600 * kMicrosPerSecond;

// Project refs look like Supabase's: 20 lowercase letters.
std::vector<std::string> MakeProjects(int count, std::mt19937_64& rng) {
  std::vector<std::string> out{"default"};
  while (static_cast<int>(out.size()) < count) {
    std::string ref(20, 'a');
    for (char& ch : ref) ch = static_cast<char>('a' + rng() % 26);
    out.push_back(ref);
  }
  return out;
}

std::uint64_t SourceSalt(std::string_view source) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: a stable per-source stream
  for (char ch : source) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
  return h;
}

struct Civil {
  int year, month, day, hour, minute, second, micros, weekday;
};

Civil ToCivil(std::int64_t micros) {
  using namespace std::chrono;
  const sys_time<std::chrono::microseconds> tp{std::chrono::microseconds{micros}};
  const auto day_point = floor<days>(tp);
  const year_month_day ymd{day_point};
  const auto rest = tp - day_point;
  const auto secs = duration_cast<seconds>(rest).count();
  return {static_cast<int>(ymd.year()),
          static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(static_cast<unsigned>(ymd.day())),
          static_cast<int>(secs / 3600),
          static_cast<int>(secs / 60 % 60),
          static_cast<int>(secs % 60),
          static_cast<int>(duration_cast<std::chrono::microseconds>(rest).count() % 1000000),
          static_cast<int>(weekday{day_point}.c_encoding())};
}

}  // namespace

const std::vector<std::string>& GeneratorSources() {
  static const std::vector<std::string> sources = {
      "edge",     "postgres", "function_edge", "function_events", "auth",
      "realtime", "storage",  "restapi",       "pooler"};
  return sources;
}

EventGenerator::Context::Context(const GeneratorOptions& options)
    : rng(options.seed), now_micros(options.now_micros), live_seconds(options.live_seconds) {
  // Projects depend on the seed only, so every source of one seed shares them.
  projects = MakeProjects(options.projects, rng);
  double total = 0;
  for (std::size_t i = 0; i < projects.size(); ++i) {
    total += 1.0 / std::pow(static_cast<double>(i + 1), 1.1);
    project_cdf.push_back(total);
  }
  for (double& v : project_cdf) v /= total;
  rng.seed(options.seed ^ SourceSalt(options.source));
}

const std::string& EventGenerator::Context::Project() {
  const double u = Unit();
  const auto it = std::lower_bound(project_cdf.begin(), project_cdf.end(), u);
  return projects[std::min<std::size_t>(it - project_cdf.begin(), projects.size() - 1)];
}

std::int64_t EventGenerator::Context::Timestamp() {
  if (live_seconds > 0) {
    return now_micros - static_cast<std::int64_t>(
                            Below(static_cast<std::uint64_t>(live_seconds * kMicrosPerSecond)));
  }
  const std::int64_t span =
      Chance(0.5) ? 2 * kMicrosPerHour : std::int64_t{8} * 24 * kMicrosPerHour;
  return now_micros - static_cast<std::int64_t>(Below(static_cast<std::uint64_t>(span)));
}

std::string EventGenerator::Context::Hex(int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(static_cast<std::size_t>(digits), '0');
  std::uint64_t bits = rng();
  for (int i = 0; i < digits; ++i) {
    if (i % 16 == 15) bits = rng();
    out[static_cast<std::size_t>(i)] = kHex[bits & 0xF];
    bits >>= 4;
  }
  return out;
}

std::string EventGenerator::Context::Uuid() {
  std::string h = Hex(32);
  h[12] = '4';
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
         "-" + h.substr(20, 12);
}

std::string EventGenerator::Context::Ipv4() {
  char buf[20];
  std::snprintf(buf, sizeof(buf), "%d.%d.%d.%d", static_cast<int>(1 + Below(223)),
                static_cast<int>(Below(256)), static_cast<int>(Below(256)),
                static_cast<int>(1 + Below(254)));
  return buf;
}

std::string EventGenerator::Context::Ipv6() {
  static constexpr const char* kPrefixes[] = {"2001:db8", "2a02:8109", "2600:1700", "2406:da14"};
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s:%x:%x::%x", Pick(kPrefixes),
                static_cast<unsigned>(Below(65536)), static_cast<unsigned>(Below(65536)),
                static_cast<unsigned>(1 + Below(65535)));
  return buf;
}

std::string EventGenerator::Context::Email() {
  static constexpr const char* kNames[] = {"jane.doe", "john",   "alex.smith", "maria",  "kim.lee",
                                           "sam",      "noah.b", "olivia",     "li.wei", "fatima"};
  static constexpr const char* kDomains[] = {"example.com", "mail.test", "acme.io", "gmail.com",
                                             "corp.example.org"};
  return std::string(Pick(kNames)) + std::to_string(Below(100)) + "@" + Pick(kDomains);
}

std::string EventGenerator::Context::UserAgent() {
  static constexpr const char* kAgents[] = {
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/120.0.0.0 Safari/537.36",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
      "Gecko) Version/17.2 Mobile/15E148 Safari/604.1",
      "supabase-py/2.3.1",
      "node-fetch/1.0",
      "Dart/3.2 (dart:io)",
      "PostgREST/12.0.2",
      "okhttp/4.12.0",
      "curl/8.4.0"};
  return Pick(kAgents);
}

std::string IsoTimestamp(std::int64_t micros) {
  // Digits written by hand: this runs once or twice per generated event.
  const Civil c = ToCivil(micros);
  std::string out = "0000-00-00T00:00:00.000000Z";
  auto put = [&out](std::size_t end, int value, int width) {
    for (int i = 0; i < width; ++i, value /= 10) {
      out[end - static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
    }
  };
  put(3, c.year, 4);
  put(6, c.month, 2);
  put(9, c.day, 2);
  put(12, c.hour, 2);
  put(15, c.minute, 2);
  put(18, c.second, 2);
  put(25, c.micros, 6);
  return out;
}

std::string HttpDate(std::int64_t micros) {
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const Civil c = ToCivil(micros);
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[c.weekday], c.day,
                kMonths[c.month - 1], c.year, c.hour, c.minute, c.second);
  return buf;
}

std::string PgLogTime(std::int64_t micros) {
  const Civil c = ToCivil(micros);
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d %02d:%02d:%02d.%03d UTC", c.year, c.month, c.day,
                c.hour, c.minute, c.second, c.micros / 1000);
  return buf;
}

EventGenerator::EventGenerator(const GeneratorOptions& options) {
  using Writer = void (*)(Context&, std::string*);
  static constexpr std::pair<const char*, Writer> kWriters[] = {
      {"edge", WriteEdge},
      {"postgres", WritePostgres},
      {"function_edge", WriteFunctionEdge},
      {"function_events", WriteFunctionEvents},
      {"auth", WriteAuth},
      {"realtime", WriteRealtime},
      {"storage", WriteStorage},
      {"restapi", WriteRestapi},
      {"pooler", WritePooler}};
  write_ = nullptr;
  for (const auto& [name, writer] : kWriters) {
    if (options.source == name) write_ = writer;
  }
  if (write_ == nullptr) throw std::invalid_argument("unknown source \"" + options.source + "\"");
  if (options.projects < 1) throw std::invalid_argument("projects must be at least 1");
  context_ = std::make_unique<Context>(options);
}

EventGenerator::~EventGenerator() = default;

void EventGenerator::Next(std::string* out) {
  write_(*context_, out);
  out->push_back('\n');
}

bool ParseNow(std::string_view text, std::int64_t* micros) {
  const auto instant = iso8601::Parse(text);
  if (!instant) return false;
  *micros = instant->micros;
  return true;
}

}  // namespace lqe::demo
