// libFuzzer target: lex and parse arbitrary bytes. Must never crash, leak or hang; a successful
// parse is dumped (exercising every node), a failure rendered with its caret.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ast/ast_dump.h"
#include "parse/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  lqe::parse::ParseOptions options;
  options.max_query_bytes = 64 * 1024;
  auto result = lqe::parse::ParseQuery(text, options);
  if (const auto* diag = std::get_if<lqe::Diagnostic>(&result)) {
    if (diag->offset > text.size() || diag->message.empty()) std::abort();
    (void)lqe::RenderCaret(*diag, text);
    return 0;
  }
  const auto& query = *std::get<lqe::ast::QueryPtr>(result);
  (void)lqe::ast::DumpAst(query);  // byte spans: the line:column form is quadratic in size
  return 0;
}
