// Numbers in result JSON as BigQuery's JSON (and JavaScript's Number#toString) writes them: the
// shortest digits that read back the same double, in plain notation from 1e-7 up to 1e21
// (0.0798, 100, 1e+21, 1e-7), where Boost.JSON's serializer would write 7.98E-2 and 1E2.
#include <boost/json/serialize.hpp>
#include <charconv>
#include <cmath>
#include <string>

#include "lqe/gateway/render.h"

namespace lqe::gateway {

void AppendJsonDouble(std::string& out, double d) {
  if (!std::isfinite(d)) {  // not JSON numbers: callers render NaN and infinities as strings
    out.append("null");
    return;
  }
  if (d == 0) {  // -0 too, as JavaScript prints it
    out.push_back('0');
    return;
  }
  char buf[64];
  // Shortest round-trip digits: [-]D[.DDD]e[+-]XX.
  const auto result = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  const std::string_view text(buf, static_cast<std::size_t>(result.ptr - buf));
  std::size_t pos = 0;
  if (text[0] == '-') {
    out.push_back('-');
    pos = 1;
  }
  const std::size_t e = text.find('e');
  std::string digits;
  for (std::size_t i = pos; i < e; ++i) {
    if (text[i] != '.') digits.push_back(text[i]);
  }
  int exponent = 0;
  std::from_chars(text.data() + e + (text[e + 1] == '+' ? 2 : 1), text.data() + text.size(),
                  exponent);
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;  // the value is 0.DIGITS × 10^n
  if (k <= n && n <= 21) {
    out.append(digits).append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out.append(digits, 0, static_cast<std::size_t>(n)).push_back('.');
    out.append(digits, static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out.append("0.").append(static_cast<std::size_t>(-n), '0').append(digits);
  } else {
    out.push_back(digits[0]);
    if (k > 1) out.append(".").append(digits, 1);
    out.append(n - 1 < 0 ? "e-" : "e+").append(std::to_string(std::abs(n - 1)));
  }
}

std::string SerializeJson(const boost::json::value& value) {
  std::string out;
  switch (value.kind()) {
    case boost::json::kind::double_:
      AppendJsonDouble(out, value.get_double());
      return out;
    case boost::json::kind::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& element : value.get_array()) {
        if (!first) out.push_back(',');
        first = false;
        out.append(SerializeJson(element));
      }
      out.push_back(']');
      return out;
    }
    case boost::json::kind::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& item : value.get_object()) {
        if (!first) out.push_back(',');
        first = false;
        AppendJsonString(out, item.key());
        out.push_back(':');
        out.append(SerializeJson(item.value()));
      }
      out.push_back('}');
      return out;
    }
    default:
      return boost::json::serialize(value);
  }
}

}  // namespace lqe::gateway
