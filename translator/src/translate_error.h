// The one error type the translator's stages throw; only the façade (translate.cpp) catches it.
#pragma once

#include <string>

#include "ast/node.h"
#include "lqe/diagnostic.h"

namespace lqe::translator {

struct Error {
  Diagnostic diag;
};

// Throws an Error positioned at `span` (offsets into the text being translated).
[[noreturn]] inline void Fail(DiagCode code, ast::SourceSpan span, std::string message,
                              std::string hint = {}) {
  Diagnostic d;
  d.code = code;
  d.message = std::move(message);
  d.hint = std::move(hint);
  d.offset = span.begin;
  d.length = span.end > span.begin ? span.end - span.begin : 1;
  throw Error{std::move(d)};
}

}  // namespace lqe::translator
