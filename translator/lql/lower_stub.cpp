// Placeholder until the LQL front end lands (its author deletes this file).
#include "lql/lql.h"

namespace lqe::lql {

std::variant<ast::QueryPtr, Diagnostic> Lower(std::string_view /*text*/,
                                              const LowerContext& /*context*/) {
  return Diagnostic{DiagCode::kUnsupported, "lql is not supported yet", {}, 0, 0,
                    DiagSource::kConsumerLql};
}

}  // namespace lqe::lql
