#include "lqe/schema/copy_row.h"

#include <array>
#include <cstring>

#include "lqe/schema/timestamp.h"

namespace lqe::schema {

namespace {

// The bytes COPY text format needs escaped; every other byte is copied in runs.
constexpr std::array<bool, 256> kNeedsEscape = [] {
  std::array<bool, 256> table{};
  for (unsigned char c : {'\\', '\t', '\n', '\r'}) table[c] = true;
  return table;
}();

// Whether any of the 8 bytes in `word` is below 0x20 (tab, newline, carriage return are) or a
// backslash: words without one are skipped whole, a word with one goes byte by byte.
bool MayNeedEscape(std::uint64_t word) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  const std::uint64_t control = (word - kOnes * 0x20) & ~word & kHigh;
  const std::uint64_t not_backslash = word ^ (kOnes * '\\');
  const std::uint64_t backslash = (not_backslash - kOnes) & ~not_backslash & kHigh;
  return (control | backslash) != 0;
}

}  // namespace

void AppendCopyEscaped(std::string_view value, std::string* out) {
  const char* run = value.data();
  const char* const end = value.data() + value.size();
  const char* p = run;
  auto byte = [&] {
    const auto c = static_cast<unsigned char>(*p);
    if (kNeedsEscape[c]) {
      out->append(run, p);
      out->push_back('\\');
      out->push_back(c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
      run = p + 1;
    }
    ++p;
  };
  while (end - p >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, sizeof(word));
    if (!MayNeedEscape(word)) {
      p += sizeof(word);
      continue;
    }
    for (int i = 0; i < 8; ++i) byte();
  }
  while (p != end) byte();
  out->append(run, end);
}

namespace {

void AppendNullable(const std::optional<std::string>& value, std::string* out) {
  if (value) {
    AppendCopyEscaped(*value, out);
  } else {
    out->append("\\N");
  }
}

}  // namespace

void AppendCopyRow(std::string_view id, std::int64_t timestamp_micros,
                   const std::optional<std::string>& event_message,
                   const std::optional<std::string>& project, std::string_view metadata_json,
                   std::string_view extra_json, std::string* out) {
  AppendCopyEscaped(id, out);
  out->push_back('\t');
  AppendTimestampMicros(timestamp_micros, out);
  out->push_back('\t');
  AppendNullable(event_message, out);
  out->push_back('\t');
  AppendNullable(project, out);
  out->push_back('\t');
  AppendCopyEscaped(metadata_json, out);
  out->push_back('\t');
  AppendCopyEscaped(extra_json, out);
  out->push_back('\n');
}

UuidGenerator::UuidGenerator() : rng_(std::random_device{}()) {}

std::string UuidGenerator::Next() {
  std::uint64_t hi = rng_();
  std::uint64_t lo = rng_();
  hi = (hi & ~0xF000ULL) | 0x4000ULL;              // version 4
  lo = (lo & ~(0xC0ULL << 56)) | (0x80ULL << 56);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(36, '-');
  int pos = 0;
  for (int i = 0; i < 32; ++i) {
    if (pos == 8 || pos == 13 || pos == 18 || pos == 23) ++pos;
    const std::uint64_t word = i < 16 ? hi : lo;
    out[pos++] = kHex[(word >> (60 - 4 * (i % 16))) & 0xF];
  }
  return out;
}

}  // namespace lqe::schema
