#include "lqe/gateway/render.h"

#include <openssl/evp.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>

#include "lqe/base/ascii.h"
#include "lqe/gateway/redact.h"
#include "render/schema_fields.h"
#include "time/civil_time.h"

namespace lqe::gateway {
namespace {

namespace json = boost::json;

using civil::DaysSinceEpoch;

std::string Base64FromPgBytea(std::string_view text) {
  // Postgres renders bytea as \x followed by hex digits (bytea_output = hex).
  std::string raw;
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') {
    for (std::size_t i = 2; i + 1 < text.size(); i += 2) {
      const int hi = ascii::HexValue(text[i]);
      const int lo = ascii::HexValue(text[i + 1]);
      raw.push_back(static_cast<char>(hi < 0 || lo < 0 ? 0 : hi * 16 + lo));
    }
  } else {
    raw = std::string(text);
  }
  std::string out(4 * ((raw.size() + 2) / 3) + 1, '\0');  // EVP_EncodeBlock adds a NUL
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(raw.data()),
                                      static_cast<int>(raw.size()));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

json::value ParseJsonOrString(std::string_view text) {
  boost::system::error_code ec;
  json::value parsed = json::parse(text, ec);
  if (ec) return json::string(text);
  return parsed;
}

json::value WrapInside(json::value value, bool in_array) {
  if (value.is_object()) {
    json::object& object = value.get_object();
    for (auto& item : object) item.value() = WrapInside(std::move(item.value()), false);
    if (in_array) return value;
    json::array wrapped;
    wrapped.emplace_back(std::move(value));
    return wrapped;
  }
  if (value.is_array()) {
    for (auto& element : value.get_array()) element = WrapInside(std::move(element), true);
  }
  return value;
}

}  // namespace

std::optional<std::int64_t> ParsePgTimestamptz(std::string_view text) {
  // YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM[:SS]]]; years may have more than 4 digits.
  std::size_t dash = text.find('-', 1);
  if (dash == std::string_view::npos || dash < 4) return std::nullopt;
  std::int64_t year = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + dash, year);
  if (ec != std::errc() || p != text.data() + dash) return std::nullopt;
  int month = 0, day = 0, hour = 0, minute = 0, second = 0;
  std::size_t pos = dash + 1;
  if (!civil::ReadDigits(text, pos, 2, &month) || !civil::ReadDigits(text, pos + 3, 2, &day) ||
      !civil::ReadDigits(text, pos + 6, 2, &hour) ||
      !civil::ReadDigits(text, pos + 9, 2, &minute) ||
      !civil::ReadDigits(text, pos + 12, 2, &second)) {
    return std::nullopt;
  }
  pos += 14;
  std::int64_t micros = 0;
  if (pos < text.size() && text[pos] == '.') {
    int digits = 0;
    ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 6) micros = micros * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    for (; digits < 6; ++digits) micros *= 10;
  }
  std::int64_t offset_seconds = 0;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int sign = text[pos] == '-' ? -1 : 1;
    int oh = 0, om = 0, os = 0;
    if (!civil::ReadDigits(text, pos + 1, 2, &oh)) return std::nullopt;
    if (pos + 3 < text.size() && text[pos + 3] == ':') civil::ReadDigits(text, pos + 4, 2, &om);
    if (pos + 6 < text.size() && text[pos + 6] == ':') civil::ReadDigits(text, pos + 7, 2, &os);
    offset_seconds = sign * ((std::int64_t{oh} * 3600) + (std::int64_t{om} * 60) + os);
  }
  // PostgreSQL's timestamps end in year 294276: anything longer is not one of its texts.
  if (year > 294276) return std::nullopt;
  std::int64_t seconds = (DaysSinceEpoch(static_cast<int>(year), month, day) * 86400) +
                         (std::int64_t{hour} * 3600) + (std::int64_t{minute} * 60) + second -
                         offset_seconds;
  return seconds * 1000000 + micros;
}

json::value WrapRecords(json::value value) {
  return WrapInside(std::move(value), false);
}

json::value RenderValue(const Type& type, std::optional<std::string_view> text) {
  if (!text) return nullptr;
  std::string_view v = *text;
  switch (type.kind) {
    case TypeKind::kBool:
      return v == "t" || v == "true";
    case TypeKind::kInt64: {
      std::int64_t n = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec == std::errc() && p == v.data() + v.size()) return n;
      return json::string(v);
    }
    case TypeKind::kFloat64: {
      double d = std::strtod(std::string(v).c_str(), nullptr);
      if (std::isfinite(d)) return d;
      return json::string(v);  // NaN, Infinity, -Infinity: not representable in JSON
    }
    case TypeKind::kNumeric: {
      json::value parsed = ParseJsonOrString(v);
      return parsed.is_number() ? parsed : json::value(json::string(v));
    }
    case TypeKind::kBytes:
      return json::string(Base64FromPgBytea(v));
    case TypeKind::kDatetime: {
      std::string s(v);
      if (s.size() > 10 && s[10] == ' ') s[10] = 'T';
      return json::string(s);
    }
    case TypeKind::kTimestamp: {
      auto micros = ParsePgTimestamptz(v);
      if (micros) return *micros;
      return json::string(v);  // infinity / -infinity
    }
    case TypeKind::kJson:
      return ParseJsonOrString(v);
    case TypeKind::kRecord:
    case TypeKind::kArray: {
      json::value value = WrapRecords(ParseJsonOrString(v));
      FillSchemaFields(value, type);
      return value;
    }
    default:
      return json::string(v);
  }
}

void AppendValue(std::string& out, const Type& type, std::optional<std::string_view> text,
                 bool redact) {
  if (!text) {
    out.append("null");
    return;
  }
  std::string_view v = *text;
  switch (type.kind) {
    case TypeKind::kString:
      if (redact) {
        AppendJsonString(out, RedactString(v));
      } else {
        AppendJsonString(out, v);
      }
      return;
    case TypeKind::kTimestamp:
      if (auto micros = ParsePgTimestamptz(v)) {
        out.append(std::to_string(*micros));
        return;
      }
      break;
    case TypeKind::kJson:
    case TypeKind::kRecord:
    case TypeKind::kArray:
      // Records whose schema fields the event may lack are completed in the DOM (below).
      if (type.kind == TypeKind::kJson || !HasRecordFields(type)) {
        AppendJsonText(out, v, type.kind != TypeKind::kJson, redact);
        return;
      }
      break;
    default:
      break;
  }
  // The rarer types go through the DOM.
  json::value value = RenderValue(type, text);
  if (redact) RedactJson(value);
  out.append(SerializeJson(value));
}

}  // namespace lqe::gateway
