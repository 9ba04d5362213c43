// Positioned errors of the translator and the LQL parser, rendered three ways: one line,
// with a caret under the source line, and as JSON fields for HTTP 400 bodies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lqe {

enum class DiagCode : std::uint8_t {
  kSyntax,       // the text does not parse
  kUnsupported,  // a function or construct the translator does not translate
  kUnknownName,  // unknown table, column, field, CTE or parameter
  kType,         // an expression of the wrong type
  kSandbox,      // a consumer query broke a sandbox rule
  kLimit,        // too long or too deeply nested
  kParam,        // a bound parameter value is unusable (e.g. a bad regex)
};

// Which text a diagnostic's offset points into.
enum class DiagSource : std::uint8_t { kStored, kConsumerSql, kConsumerLql };

struct Diagnostic {
  DiagCode code = DiagCode::kSyntax;
  std::string message;       // short, lower case, no trailing period
  std::string hint;          // a full sentence, may be empty ("Did you mean status_code?")
  std::uint32_t offset = 0;  // byte offset into the source text
  std::uint32_t length = 0;  // bytes covered, at least 1 when rendered
  DiagSource source = DiagSource::kStored;
};

struct LineColumn {
  std::uint32_t line = 1;    // 1-based; \n, \r and \r\n each end a line
  std::uint32_t column = 1;  // 1-based, counted in UTF-8 code points
};

LineColumn LocateOffset(std::string_view text, std::uint32_t offset);
std::string_view DiagCodeName(DiagCode code);        // "syntax_error", "unsupported", ...
std::string_view DiagSourceName(DiagSource source);  // "query", "sql", "lql"
// "unsupported function FOO at 3:14"
std::string RenderOneLine(const Diagnostic& diag, std::string_view text);
// RenderOneLine, then the source line (windowed to about 40 columns each side of the error)
// and a caret line, each indented by two spaces.
std::string RenderCaret(const Diagnostic& diag, std::string_view text);

}  // namespace lqe
