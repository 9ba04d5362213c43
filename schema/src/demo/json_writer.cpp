#include "demo/json_writer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace lqe::demo {

void JsonWriter::Key(std::string_view key) {
  Separate();
  WriteQuoted(key);
  out_->push_back(':');
  after_key_ = true;
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  WriteQuoted(value);
}

namespace {

// Bytes that need escaping inside a JSON string: control characters, '"' and '\\'.
constexpr auto kEscape = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = true;
  table['"'] = true;
  table['\\'] = true;
  return table;
}();

}  // namespace

void JsonWriter::WriteQuoted(std::string_view value) {
  out_->push_back('"');
  std::size_t start = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (!kEscape[c]) continue;
    out_->append(value.data() + start, i - start);
    start = i + 1;
    if (c == '"' || c == '\\') {
      out_->push_back('\\');
      out_->push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out_->append(buf);
    }
  }
  out_->append(value.data() + start, value.size() - start);
  out_->push_back('"');
}

void JsonWriter::Int(std::int64_t value) {
  BeforeValue();
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof(buf), value).ptr;
  out_->append(buf, end);
}

void JsonWriter::Double(double value, int decimals) {
  BeforeValue();
  char buf[64];
  // Fixed notation with at least one decimal so readers infer FLOAT64, never INT64.
  const auto end = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed,
                                 decimals < 1 ? 1 : decimals)
                       .ptr;
  out_->append(buf, end);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_->append(value ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_->append("null");
}

}  // namespace lqe::demo
