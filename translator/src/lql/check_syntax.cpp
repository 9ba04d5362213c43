#include "lqe/lql.h"
#include "lql/parser.h"

namespace lqe::lql {

std::optional<Diagnostic> CheckSyntax(std::string_view text) {
  auto parsed = Parse(text);
  if (auto* diag = std::get_if<Diagnostic>(&parsed)) return *diag;
  return std::nullopt;
}

}  // namespace lqe::lql
