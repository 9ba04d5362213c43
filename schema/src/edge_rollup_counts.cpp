#include "lqe/schema/edge_rollup_counts.h"

#include <algorithm>
#include <cstring>

#include "lqe/base/ascii.h"
#include "lqe/schema/timestamp.h"
#include "pg_conn.h"

namespace lqe::schema {
namespace {

constexpr std::int64_t kMinuteMicros = 60LL * 1000000;
constexpr std::int64_t kDayMicros = 86400LL * 1000000;

// Timestamps are at or after 1970 (the event model refuses others), so truncation is a modulo.
std::int64_t Floor(std::int64_t micros, std::int64_t unit) {
  return micros - micros % unit;
}

}  // namespace

// '^[^/?#]*//[^/?#]*': the first of '/', '?', '#' must be the first '/' of a "//"; the prefix
// then runs to the next of the three. All are ASCII, so bytes suffice for UTF-8 text.
std::string_view EdgeUrlPrefix(std::string_view url) {
  const std::size_t first = url.find_first_of("/?#");
  if (first == std::string_view::npos || url[first] != '/' || first + 1 >= url.size() ||
      url[first + 1] != '/') {
    return {};
  }
  const std::size_t end = url.find_first_of("/?#", first + 2);
  return url.substr(0, end);
}

namespace {

// pg_trgm lower-cases each word before cutting it into trigrams, so a character outside ASCII
// whose lower case is an ASCII letter makes plain trigrams too: with glibc's tables (any UTF-8
// LC_CTYPE but Turkish, where I becomes dotless i; EdgeRollupRulesMatch checks) those are
// U+0130 (capital I with dot above: i) and U+212A (Kelvin sign: k), and no other.
// Calls each(a, b, c) for every trigram, repeats included.
template <typename Each>
void ForEachRestTrigram(std::string_view text, Each each) {
  std::array<char, 2> run{};  // the last two lower-cased ASCII letters and digits read
  std::size_t count = 0;      // how many letters and digits in a row end at the one just read
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    char letter = 0;
    std::size_t length = 1;
    if (byte < 0x80) {
      letter = ascii::IsAlnum(text[i]) ? ascii::ToLower(text[i]) : '\0';
    } else if (text.substr(i, 2) == "\xC4\xB0") {
      letter = 'i';
      length = 2;
    } else if (text.substr(i, 3) == "\xE2\x84\xAA") {
      letter = 'k';
      length = 3;
    } else {
      length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    }
    i += length;
    if (letter == 0) {
      count = 0;
      continue;
    }
    if (++count >= 3) each(run[0], run[1], letter);
    run[0] = run[1];
    run[1] = letter;
  }
}

}  // namespace

std::set<std::string> EdgeRestTrigrams(std::string_view text) {
  std::set<std::string> out;
  ForEachRestTrigram(text, [&](char a, char b, char c) { out.insert({a, b, c}); });
  return out;
}

namespace {

void AppendKey(std::int64_t micros, std::string_view text, std::string* key) {
  key->assign(reinterpret_cast<const char*>(&micros), sizeof(micros));
  key->append(text);
}

std::int64_t KeyMicros(std::string_view key) {
  std::int64_t micros = 0;
  std::memcpy(&micros, key.data(), sizeof(micros));
  return micros;
}

}  // namespace

void EdgeRollupCounts::Add(std::int64_t ts_micros, std::string_view url,
                           std::optional<std::string_view> path) {
  const std::string_view prefix = EdgeUrlPrefix(url);
  AppendKey(Floor(ts_micros, kMinuteMicros), prefix, &key_);
  auto it = minutes_.find(std::string_view(key_));
  if (it == minutes_.end()) it = minutes_.emplace(key_, std::array<std::int64_t, 5>{}).first;
  auto& counts = it->second;
  ++counts[0];
  if (path) {
    constexpr std::array<std::string_view, 4> kAreas = {"/rest", "/storage", "/auth", "/realtime"};
    for (std::size_t a = 0; a < kAreas.size(); ++a) {
      if (path->find(kAreas[a]) != std::string_view::npos) ++counts[a + 1];
    }
  }
  const std::int64_t day = ts_micros / kDayMicros;
  const std::string_view rest = url.substr(prefix.size());
  AppendKey(day, rest, &key_);
  if (!rests_.insert(key_).second) return;
  ForEachRestTrigram(rest, [&](char a, char b, char c) {
    std::uint64_t packed = static_cast<std::uint64_t>(day);
    for (char byte : {a, b, c}) packed = packed << 8 | static_cast<unsigned char>(byte);
    trigrams_.push_back(packed);
  });
}

std::vector<std::optional<std::string>> EdgeRollupCounts::Arguments() {
  std::vector<std::string> arrays(9);
  // Sorted, so the delta rows are written (and their ordering is tested) in one order.
  std::vector<const std::pair<const std::string, std::array<std::int64_t, 5>>*> rows;
  rows.reserve(minutes_.size());
  for (const auto& row : minutes_) rows.push_back(&row);
  std::sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
    const std::int64_t ma = KeyMicros(a->first), mb = KeyMicros(b->first);
    return ma != mb ? ma < mb
                    : a->first.compare(sizeof(ma), std::string::npos, b->first, sizeof(mb)) < 0;
  });
  for (const auto* row : rows) {
    AppendArrayElement(FormatTimestampMicros(KeyMicros(row->first)), &arrays[0]);
    AppendArrayElement(std::string_view(row->first).substr(sizeof(std::int64_t)), &arrays[1]);
    for (std::size_t c = 0; c < row->second.size(); ++c) {
      AppendArrayElement(std::to_string(row->second[c]), &arrays[2 + c]);
    }
  }
  std::sort(trigrams_.begin(), trigrams_.end());
  trigrams_.erase(std::unique(trigrams_.begin(), trigrams_.end()), trigrams_.end());
  for (std::uint64_t packed : trigrams_) {
    AppendArrayElement(FormatTimestampMicros(static_cast<std::int64_t>(packed >> 24) * kDayMicros),
                       &arrays[7]);
    const std::array<char, 3> trigram = {static_cast<char>((packed >> 16) & 0xFF),
                                         static_cast<char>((packed >> 8) & 0xFF),
                                         static_cast<char>(packed & 0xFF)};
    AppendArrayElement(std::string_view(trigram.data(), trigram.size()), &arrays[8]);
  }
  std::vector<std::optional<std::string>> out;
  for (auto& array : arrays) {
    CloseArrayLiteral(&array);
    out.emplace_back(std::move(array));
  }
  return out;
}

bool EdgeRollupRulesMatch(PgConn& conn) {
  // Upper-case ASCII, the Turkish dotted and dotless I (a tr_TR LC_CTYPE lower-cases I to a
  // letter outside ASCII), the Kelvin sign, letters and symbols outside ASCII inside and between
  // words, and the separators the prefix regex stops at.
  const std::vector<std::string> probes = {
      "https://Abc.supabase.co:443/rest/v1/Tbl_Name?select=*&id=eq.12345#Frag",
      "/storage/v1/object//x",
      "a?b//c",
      "ab#c//d",
      "//h/p",
      "noslash",
      "x//",
      "HTTP://H",
      "IXI iXi İab abİ ıxy xyı Kab ÀBC abÀcd éab1 ab€cd1 Wörter STRASSE ǅxy"};
  std::string array;
  for (const auto& p : probes) AppendArrayElement(p, &array);
  CloseArrayLiteral(&array);
  const auto result = conn.Exec(
      "SELECT logs.url_prefix(p), array_to_string(ARRAY(SELECT t FROM "
      "unnest(logs.url_rest_trigrams(p)) AS t ORDER BY t COLLATE \"C\"), ' ') "
      "FROM unnest($1::text[]) WITH ORDINALITY AS u(p, n) ORDER BY n",
      {array});
  if (result.Rows() != static_cast<int>(probes.size())) return false;
  for (int i = 0; i < result.Rows(); ++i) {
    std::string trigrams;
    for (const auto& t : EdgeRestTrigrams(probes[static_cast<std::size_t>(i)])) {
      trigrams += (trigrams.empty() ? "" : " ") + t;
    }
    if (result.Text(i, 0) != EdgeUrlPrefix(probes[static_cast<std::size_t>(i)]) ||
        result.Text(i, 1) != trigrams) {
      return false;
    }
  }
  return true;
}

}  // namespace lqe::schema
