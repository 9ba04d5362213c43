// Streaming rendering of JSON, RECORD and ARRAY values: Boost.JSON's SAX parser validates the
// Postgres text and the handler writes the output directly, wrapping objects and redacting
// strings on the way, with no DOM in between. The bytes equal serialize() of the DOM path
// (RenderValue + RedactJson): numbers are re-printed from the parsed values as the DOM would.
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/serialize.hpp>
#include <charconv>
#include <cstdint>
#include <vector>

#include "lqe/gateway/redact.h"
#include "lqe/gateway/render.h"
#include "render/canonical_json.h"

namespace lqe::gateway {
namespace {

namespace json = boost::json;
using json::error_code;

template <class Int>
void AppendInt(std::string& out, Int value) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

// The SAX handler. Containers on the stack: 'a' array, 'o' object, 'w' object wrapped in [ ].
// Member names are the ones basic_parser calls.
// NOLINTBEGIN(readability-identifier-naming)
class Writer {
 public:
  static constexpr std::size_t max_array_size = -1;
  static constexpr std::size_t max_object_size = -1;
  static constexpr std::size_t max_string_size = -1;
  static constexpr std::size_t max_key_size = -1;

  Writer(std::string* out, std::string_view input, bool wrap, bool redact)
      : out_(out), input_(input), wrap_(wrap), redact_(redact) {}

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_array_begin(error_code&) {
    Open('a');
    return true;
  }
  bool on_array_end(std::size_t, error_code&) {
    out_->push_back(']');
    stack_.pop_back();
    return true;
  }
  bool on_object_begin(error_code&) {
    bool wrapped = wrap_ && (stack_.empty() || stack_.back().kind != 'a');
    Open(wrapped ? 'w' : 'o');
    return true;
  }
  bool on_object_end(std::size_t, error_code&) {
    out_->append(stack_.back().kind == 'w' ? "}]" : "}");
    stack_.pop_back();
    return true;
  }
  bool on_string_part(std::string_view s, std::size_t, error_code&) {
    StringPart(s);
    return true;
  }
  bool on_string(std::string_view s, std::size_t, error_code&) {
    StringPart(s);
    if (redact_) {
      BeginValue();
      AppendJsonString(*out_, RedactString(pending_));
      pending_.clear();
    } else {
      out_->push_back('"');
    }
    in_string_ = false;
    return true;
  }
  bool on_key_part(std::string_view s, std::size_t, error_code&) {
    KeyPart(s);
    return true;
  }
  bool on_key(std::string_view s, std::size_t, error_code&) {
    KeyPart(s);
    out_->append("\":");
    in_string_ = false;
    after_key_ = true;
    return true;
  }
  bool on_number_part(std::string_view, error_code&) { return true; }
  bool on_int64(std::int64_t i, std::string_view, error_code&) {
    BeginValue();
    AppendInt(*out_, i);
    return true;
  }
  bool on_uint64(std::uint64_t u, std::string_view, error_code&) {
    BeginValue();
    AppendInt(*out_, u);
    return true;
  }
  bool on_double(double d, std::string_view, error_code&) {
    BeginValue();
    AppendJsonDouble(*out_, d);
    return true;
  }
  bool on_bool(bool b, error_code&) {
    BeginValue();
    out_->append(b ? "true" : "false");
    return true;
  }
  bool on_null(error_code&) {
    BeginValue();
    out_->append("null");
    return true;
  }
  bool on_comment_part(std::string_view, error_code&) { return true; }
  bool on_comment(std::string_view, error_code&) { return true; }

 private:
  struct Level {
    char kind;
    bool has_items;
  };

  // Writes the separator a new array element or object member needs.
  void Separate() {
    if (stack_.empty()) return;
    if (stack_.back().has_items) out_->push_back(',');
    stack_.back().has_items = true;
  }
  void BeginValue() {
    if (after_key_) {
      after_key_ = false;
    } else {
      Separate();
    }
  }
  void Open(char kind) {
    BeginValue();
    out_->append(kind == 'w' ? "[{" : kind == 'o' ? "{" : "[");
    stack_.push_back({kind, false});
  }
  void StringPart(std::string_view s) {
    if (redact_) {
      pending_.append(s);
      return;
    }
    if (!in_string_) {
      BeginValue();
      out_->push_back('"');
      in_string_ = true;
    }
    AppendPart(s);
  }
  void KeyPart(std::string_view s) {
    if (!in_string_) {
      Separate();
      out_->push_back('"');
      in_string_ = true;
    }
    AppendPart(s);
  }
  // A part that is a slice of the input is raw string text: JSON forbids quotes, backslashes
  // and control characters there, so it needs no escaping. Decoded escapes come from the
  // parser's own buffer and are escaped again.
  void AppendPart(std::string_view s) {
    auto at = reinterpret_cast<std::uintptr_t>(s.data());
    auto begin = reinterpret_cast<std::uintptr_t>(input_.data());
    if (at >= begin && at + s.size() <= begin + input_.size()) {
      out_->append(s);
    } else {
      AppendJsonEscaped(*out_, s);
    }
  }

  std::string* out_;
  std::string_view input_;
  bool wrap_;
  bool redact_;
  bool in_string_ = false;
  bool after_key_ = false;
  std::string pending_;  // the string so far, when it must be redacted whole
  std::vector<Level> stack_;
};
// NOLINTEND(readability-identifier-naming)

}  // namespace

void AppendJsonEscaped(std::string& out, std::string_view s) {
  // The escapes Boost.JSON's serializer writes (and Postgres' jsonb output): quote, backslash,
  // \b \t \n \f \r, other control characters as \u00xx; everything else as is.
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + start, i - start);
    start = i + 1;
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\t':
        out.append("\\t");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\f':
        out.append("\\f");
        break;
      case '\r':
        out.append("\\r");
        break;
      default:
        out.append("\\u00");
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
    }
  }
  out.append(s.data() + start, s.size() - start);
}

void AppendJsonString(std::string& out, std::string_view s) {
  out.push_back('"');
  AppendJsonEscaped(out, s);
  out.push_back('"');
}

void AppendJsonText(std::string& out, std::string_view text, bool wrap_records, bool redact) {
  std::size_t mark = out.size();
  if (!redact) {
    if (AppendCanonicalJson(out, text, wrap_records)) return;
    out.resize(mark);
  }
  json::basic_parser<Writer> parser(json::parse_options{}, &out, text, wrap_records, redact);
  error_code ec;
  std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (!ec && used == text.size()) return;
  // Not JSON: the DOM path renders the text as a string.
  out.resize(mark);
  AppendJsonString(out, redact ? RedactString(text) : std::string(text));
}

}  // namespace lqe::gateway
