// Line breaks for reading translated SQL: `lqe translate` prints one clause per line, indented by
// parenthesis depth. Only spaces between tokens become line breaks, so the text is the same SQL.
// (Stands in until the translator offers a formatter of its own.)
#pragma once

#include <string>
#include <string_view>

namespace lqe::cli {

std::string LayOutSql(std::string_view sql);

}  // namespace lqe::cli
