#include "render/clickhouse_json.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "lqe/gateway/redact.h"
#include "lqe/gateway/render.h"

namespace lqe::gateway {

std::string ClickHouseDateTime64(std::int64_t micros) {
  using std::chrono::days;
  using std::chrono::floor;
  using std::chrono::microseconds;
  const std::chrono::sys_time<microseconds> instant{microseconds{micros}};
  const auto day = floor<days>(instant);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss<microseconds> time{instant - day};
  char buf[48];
  const int n = std::snprintf(
      buf, sizeof(buf), "%04d-%02u-%02u %02d:%02d:%02d.%06lld", static_cast<int>(ymd.year()),
      static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
      static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
      static_cast<int>(time.seconds().count()), static_cast<long long>(time.subseconds().count()));
  return {buf, static_cast<std::size_t>(n)};
}

void AppendClickHouseValue(std::string& out, const Type& type, std::optional<std::string_view> text,
                           bool redact) {
  if (!text) {
    out.append("null");
    return;
  }
  switch (type.kind) {
    case TypeKind::kTimestamp:
      if (auto micros = ParsePgTimestamptz(*text)) {
        out.push_back('"');
        out.append(ClickHouseDateTime64(*micros));
        out.push_back('"');
        return;
      }
      break;  // infinity / -infinity: as text
    case TypeKind::kFloat64: {
      const double d = std::strtod(std::string(*text).c_str(), nullptr);
      AppendJsonDouble(out, d);  // NaN and infinities: null
      return;
    }
    case TypeKind::kJson:
    case TypeKind::kRecord:
    case TypeKind::kArray:
      AppendJsonText(out, *text, false, redact);
      return;
    default:
      break;
  }
  AppendValue(out, type, text, redact);
}

}  // namespace lqe::gateway
