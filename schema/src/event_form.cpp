#include "lqe/schema/event_form.h"

#include <algorithm>
#include <array>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include "lqe/schema/timestamp.h"

namespace lqe::schema {
namespace json = boost::json;
namespace {

constexpr std::size_t kMaxKeyBytes = 128;
constexpr std::string_view kOutOfRange = "timestamp out of range";

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

constexpr std::array<bool, 256> kWordChars = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[c] =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  return table;
}();

bool WordChar(unsigned char c) {
  return kWordChars[c];
}

bool StartsWithIgnoringCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != prefix[i]) return false;
  }
  return true;
}

bool ReservedPrefix(std::string_view key) {
  return StartsWithIgnoringCase(key, "_TABLE_") || StartsWithIgnoringCase(key, "_FILE_") ||
         StartsWithIgnoringCase(key, "_PARTITION");
}

// Most keys need no change: checked without allocating.
bool KeyIsClean(std::string_view key) {
  if (key.empty() || key.size() > kMaxKeyBytes) return false;
  for (char c : key) {
    if (!WordChar(static_cast<unsigned char>(c))) return false;
  }
  return !(key[0] >= '0' && key[0] <= '9') && (key[0] != '_' || !ReservedPrefix(key));
}

// The first `count` UTF-8 characters of s (continuation bytes do not start a character).
std::string_view FirstCharacters(std::string_view s, std::size_t count) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (chars == count) return s.substr(0, i);
    ++chars;
  }
  return s;
}

// One '_' per UTF-8 character outside [A-Za-z0-9_].
std::string ReplaceOtherCharacters(std::string_view key) {
  std::string out = "_";
  for (char c : key) {
    const auto u = static_cast<unsigned char>(c);
    if (WordChar(u)) {
      out += c;
    } else if ((u & 0xC0) != 0x80) {
      out += '_';
    }
  }
  return out;
}

bool HasNul(std::string_view s) {
  return s.find('\0') != std::string_view::npos;
}

constexpr std::string_view kNulRefusal =
    "a string contains a NUL character (\\u0000), which PostgreSQL cannot store";

// Cleans `v` in place: null, "", [] and {} removed at every depth, keys renamed. Returns false
// when nothing is left (the caller drops the key). Sets *nul on a NUL character. Most events need
// no change, so nothing is copied or moved for them.
bool Clean(json::value& v, bool* nul);

void CleanObject(json::object& object, bool* nul) {
  std::vector<std::string> renamed;
  for (auto it = object.begin(); it != object.end();) {
    if (!Clean(it->value(), nul)) {
      it = object.stable_erase(it);
      continue;
    }
    if (!KeyIsClean(it->key())) renamed.emplace_back(it->key());
    ++it;
  }
  for (const auto& key : renamed) {
    json::value moved = std::move(object.at(key));
    object.stable_erase(key);
    object.insert_or_assign(NormaliseKey(key), std::move(moved));
  }
}

bool Clean(json::value& v, bool* nul) {
  switch (v.kind()) {
    case json::kind::null:
      return false;
    case json::kind::string:
      if (v.get_string().empty()) return false;
      if (HasNul(v.get_string())) *nul = true;
      return true;
    case json::kind::object:
      CleanObject(v.get_object(), nul);
      return !v.get_object().empty();
    case json::kind::array:
      if (v.get_array().empty()) return false;
      // An element is never dropped (that would shift the others): an empty one stays as sent,
      // an object emptied by cleaning stays {}.
      for (auto& element : v.get_array()) {
        if (element.is_object()) {
          CleanObject(element.get_object(), nul);
        } else if (element.is_array() || element.is_string()) {
          if (!element.is_array() || !element.get_array().empty()) Clean(element, nul);
        }
      }
      return true;
    default:
      return true;
  }
}

// Text of a value stored in a text column: a string as is, anything else as JSON.
std::string Text(const json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  return json::serialize(v);
}

// Digit-count scaling of a non-negative integer epoch, as Logflare does.
std::int64_t ScaleEpoch(std::int64_t value) {
  int digits = 1;
  for (std::int64_t v = value; v >= 10; v /= 10) ++digits;
  switch (digits) {
    case 19:
      return value / 1000;
    case 13:
      return value * 1000;
    case 10:
      return value * 1000000;
    case 7:
      return value * 1000000000;
    default:  // 16 digits and every other count: already microseconds
      return value;
  }
}

// Text made of digits, with an optional fraction after a '.': split into its two parts.
bool NumberText(std::string_view text, std::string_view* whole, std::string_view* fraction) {
  const auto digits = [](std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const std::size_t dot = text.find('.');
  *whole = text.substr(0, dot);
  *fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  return digits(*whole) && (dot == std::string_view::npos || digits(*fraction));
}

// An epoch number written as text is read like the number when its integer part has 10, 13, 16
// or 19 digits (s, ms, us, ns). Other digit counts are ambiguous as text ("20230323" is a date):
// nullopt, and the value is kept as unreadable.
std::optional<std::int64_t> EpochText(std::string_view whole, std::string_view fraction) {
  if (whole.size() != 10 && whole.size() != 13 && whole.size() != 16 && whole.size() != 19) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  const auto read = std::from_chars(whole.data(), whole.data() + whole.size(), value);
  // Past INT64's maximum: microseconds far past 2099, refused by the range check.
  if (read.ec != std::errc()) return std::numeric_limits<std::int64_t>::max();
  // As a JSON number with a fraction: rounded to the unit of its integer part first.
  const bool round_up = !fraction.empty() && fraction[0] >= '5';
  return ScaleEpoch(value + (round_up ? 1 : 0));
}

bool CheckRange(std::int64_t micros, std::optional<std::int64_t>* out, std::string* refusal) {
  if (micros < kMinTimestampMicros || micros >= kMaxTimestampMicros) {
    return Fail(refusal, std::string(kOutOfRange) + " (1970-01-01 to 2099-12-31)");
  }
  *out = micros;
  return true;
}

// "1 hour" for the default window of future timestamps.
std::string DescribeWindow(std::int64_t micros) {
  constexpr std::int64_t kHour = 3600LL * 1000000;
  if (micros % kHour == 0) {
    const std::int64_t hours = micros / kHour;
    return std::to_string(hours) + (hours == 1 ? " hour" : " hours");
  }
  return std::to_string(micros / 1000000) + " seconds";
}

}  // namespace

std::string NormaliseKey(std::string_view key) {
  std::string out(key);
  if (out.find('-') != std::string::npos) {
    for (char& c : out) {
      if (c == '-') c = '_';
    }
    out.insert(out.begin(), '_');
  }
  bool other = false;
  for (char c : out) other = other || !WordChar(static_cast<unsigned char>(c));
  if (other) out = ReplaceOtherCharacters(out);
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), '_');
  if (ReservedPrefix(out)) out.insert(out.begin(), '_');
  if (out.size() > kMaxKeyBytes) out = "_" + std::string(FirstCharacters(out, kMaxKeyBytes));
  return out;
}

bool PostedTimestampMicros(const json::value& value, std::optional<std::int64_t>* micros,
                           std::string* refusal) {
  micros->reset();
  switch (value.kind()) {
    case json::kind::string: {
      const std::string_view text = value.get_string();
      if (HasNul(text)) return true;
      std::string_view whole, fraction;
      if (NumberText(text, &whole, &fraction)) {
        const auto epoch = EpochText(whole, fraction);
        return !epoch || CheckRange(*epoch, micros, refusal);
      }
      // The one call of the ISO 8601 parser for posted events. Text without a zone is UTC, as in
      // BigQuery and as the same text means in an endpoint parameter.
      std::string why;
      *micros = ParseTimestampText(text, &why);
      if (!*micros && why.rfind(kOutOfRange, 0) == 0) return Fail(refusal, why);
      return true;
    }
    case json::kind::int64:
      if (value.get_int64() < 0) return true;
      return CheckRange(ScaleEpoch(value.get_int64()), micros, refusal);
    case json::kind::uint64:  // above INT64's maximum: microseconds far past 2099
      return Fail(refusal, std::string(kOutOfRange) + " (1970-01-01 to 2099-12-31)");
    case json::kind::double_: {
      const double rounded = std::round(value.get_double());
      if (rounded < 0) return true;
      if (!(rounded < 9.2e18)) {
        return Fail(refusal, std::string(kOutOfRange) + " (1970-01-01 to 2099-12-31)");
      }
      return CheckRange(ScaleEpoch(static_cast<std::int64_t>(rounded)), micros, refusal);
    }
    default:
      return true;
  }
}

bool FormEvent(const json::object& posted, const EventFormOptions& options, FormedEvent* event,
               std::string* refusal) {
  return FormEvent(json::object(posted, event->metadata.storage()), options, event, refusal);
}

bool FormEvent(json::object&& posted, const EventFormOptions& options, FormedEvent* event,
               std::string* refusal) {
  // Moving keeps the memory of `posted`: values move into the event without copies when the
  // event shares that memory (the loader's per-line arena).
  json::object body(std::move(posted), event->metadata.storage());
  bool nul = false;
  CleanObject(body, &nul);
  if (nul) return Fail(refusal, std::string(kNulRefusal));

  event->id.clear();
  event->id_given = false;
  event->event_message.reset();
  event->project.reset();
  event->metadata.clear();
  event->extra.clear();
  const std::int64_t now = options.now_micros();

  std::optional<std::int64_t> stamp;
  json::value* ts = body.if_contains("timestamp");
  if (ts != nullptr) {
    if (!PostedTimestampMicros(*ts, &stamp, refusal)) return false;
    if (stamp && *stamp > now + options.max_future_micros) {
      return Fail(refusal, "timestamp " + FormatTimestampMicros(*stamp) + " is more than " +
                               DescribeWindow(options.max_future_micros) +
                               " after the ingest time " + FormatTimestampMicros(now));
    }
  }
  event->timestamp_given = stamp.has_value();
  event->timestamp_micros = stamp.value_or(now);
  // Sent but unreadable: stored at the ingest time, with the value as sent kept and the row
  // marked (Logflare's timestamp_inferred), so nothing is rewritten silently.
  event->timestamp_inferred = ts != nullptr && !stamp;

  const json::value* message = body.if_contains("message");
  const json::value* event_message = body.if_contains("event_message");
  if (message != nullptr) event->event_message = Text(*message);
  if (event_message != nullptr && message == nullptr) event->event_message = Text(*event_message);
  // Two different messages: `message` wins the column as in Logflare; both stay in extra.
  const bool keep_both =
      message != nullptr && event_message != nullptr && *message != *event_message;

  for (auto& [key, v] : body) {
    if (key == "timestamp") continue;
    if (key == "message" || key == "event_message") {
      if (keep_both) event->extra[key] = std::move(v);
    } else if (key == "id") {
      event->id = Text(v);
      event->id_given = true;
    } else if (key == "project") {
      event->project = Text(v);
    } else if (key == "metadata" && v.is_object()) {
      event->metadata = std::move(v.get_object());
    } else {
      event->extra[key] = std::move(v);
    }
  }
  if (event->timestamp_inferred) {
    // A key of the event with the same name moves aside (one more leading '_') rather than
    // being overwritten.
    for (std::string_view key : {kTimestampOriginalKey, kTimestampInferredKey}) {
      if (json::value* taken = event->extra.if_contains(key)) {
        std::string aside = "_" + std::string(key);
        while (event->extra.contains(aside)) aside.insert(aside.begin(), '_');
        json::value moved = std::move(*taken);
        event->extra.stable_erase(key);
        event->extra.emplace(aside, std::move(moved));
      }
    }
    event->extra.emplace(kTimestampOriginalKey, std::move(*ts));
    event->extra.emplace(kTimestampInferredKey, true);
  }
  if (!event->id_given) event->id = options.new_id();
  return true;
}

}  // namespace lqe::schema
