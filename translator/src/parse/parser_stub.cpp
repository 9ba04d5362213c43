// Placeholder until the real parser lands (the parser's author deletes this file).
#include "parse/parser.h"

namespace lqe::parse {

std::variant<ast::QueryPtr, Diagnostic> ParseQuery(std::string_view /*text*/,
                                                   const ParseOptions& options) {
  return Diagnostic{DiagCode::kUnsupported, "parser not built yet", {}, 0, 0, options.source};
}

}  // namespace lqe::parse
