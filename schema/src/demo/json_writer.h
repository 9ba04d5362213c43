// A minimal JSON text writer for the event generator. Hand-written because Boost.JSON's
// serializer needs a built DOM per event; writing text directly keeps generation far above
// 200k events/s. Commas are inserted automatically.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lqe::demo {

class JsonWriter {
 public:
  explicit JsonWriter(std::string* out) : out_(out) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  // Key, then exactly one value (or Begin*).
  void Key(std::string_view key);

  void String(std::string_view value);
  void Int(std::int64_t value);
  void Double(double value, int decimals);
  void Bool(bool value);
  void Null();

  // Key + value shorthands.
  void Field(std::string_view key, std::string_view value) { Key(key), String(value); }
  void Field(std::string_view key, const char* value) { Key(key), String(value); }
  void Field(std::string_view key, const std::string& value) { Key(key), String(value); }
  void FieldInt(std::string_view key, std::int64_t value) { Key(key), Int(value); }
  void FieldBool(std::string_view key, bool value) { Key(key), Bool(value); }
  void FieldDouble(std::string_view key, double value, int decimals) {
    Key(key), Double(value, decimals);
  }
  void BeginObject(std::string_view key) { Key(key), BeginObject(); }
  void BeginArray(std::string_view key) { Key(key), BeginArray(); }

 private:
  void Separate() {
    if (need_comma_) out_->push_back(',');
    need_comma_ = true;
  }
  void Open(char c) {
    if (!after_key_) Separate();
    after_key_ = false;
    out_->push_back(c);
    need_comma_ = false;
  }
  void Close(char c) {
    out_->push_back(c);
    need_comma_ = true;
  }
  void BeforeValue() {
    if (!after_key_) Separate();
    after_key_ = false;
    need_comma_ = true;
  }
  void WriteQuoted(std::string_view value);

  std::string* out_;
  bool need_comma_ = false;
  bool after_key_ = false;
};

}  // namespace lqe::demo
