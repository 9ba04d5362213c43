#include "lqe/translate.h"

namespace lqe {

// Placeholder façade until the parser and emitter land.
TranslateResult Translate(std::string_view /*bq_sql*/, const TranslateOptions& /*options*/) {
  return Diagnostic{DiagCode::kUnsupported, "translator not built yet", {}, 0, 0, {}};
}

}  // namespace lqe
