// What text lqe accepts in a parameter name or value: valid UTF-8, no NUL (libpq would cut the
// value there and run the query with its prefix), and no control characters other than tab,
// line feed and carriage return (which SQL and LQL text legitimately contain).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lqe::gateway {

// nullopt when `text` is acceptable; otherwise what is wrong with it, e.g. "contains a NUL byte",
// "contains the control character U+001B", "is not valid UTF-8".
std::optional<std::string> CheckParamText(std::string_view text);

}  // namespace lqe::gateway
