#include <algorithm>

#include "lqe/base/ascii.h"
#include "lqe/gateway/redact.h"
#include "redact/rules.h"

namespace lqe::gateway {
namespace {

// PCRE's \s without UCP: space, \t, \n, \v, \f, \r.
bool IsPcreSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Replaces the whitespace-delimited tokens the rule matches entirely; leaves `text` alone when
// none does.
void ReplaceWholeTokens(std::string& text, const redact::Rule& rule) {
  std::string out;
  std::size_t copied = 0;  // text[0, copied) is already in out
  std::size_t i = 0;
  while (i < text.size()) {
    if (IsPcreSpace(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !IsPcreSpace(text[end])) ++end;
    std::string_view token(text.data() + i, end - i);
    if (rule.may_match(token) && RE2::FullMatch(token, *rule.pattern)) {
      out.append(text, copied, i - copied);
      out.append(redact::kReplacement);
      copied = end;
    }
    i = end;
  }
  if (copied == 0) return;
  out.append(text, copied);
  text = std::move(out);
}

}  // namespace

std::string RedactString(std::string_view text) {
  std::string current(text);
  for (const redact::Rule& rule : redact::Rules()) {
    if (rule.scope == redact::MatchScope::kWholeToken) {
      ReplaceWholeTokens(current, rule);
    } else if (rule.may_match(current)) {
      RE2::GlobalReplace(&current, *rule.pattern, redact::kReplacement);
    }
  }
  return current;
}

void RedactJson(boost::json::value& value) {
  if (value.is_string()) {
    const auto& s = value.get_string();
    std::string redacted = RedactString(std::string_view(s.data(), s.size()));
    if (redacted.size() != s.size() || std::string_view(s.data(), s.size()) != redacted) {
      value = redacted;
    }
  } else if (value.is_array()) {
    for (auto& element : value.get_array()) RedactJson(element);
  } else if (value.is_object()) {
    for (auto& item : value.get_object()) RedactJson(item.value());
  }
}

bool RedactionEnabled(const std::string* header_value, bool endpoint_default) {
  if (header_value == nullptr) return endpoint_default;
  std::string lower(*header_value);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return ascii::ToLower(c); });
  return lower == "true";
}

}  // namespace lqe::gateway
