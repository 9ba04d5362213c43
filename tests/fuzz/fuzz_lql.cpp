// libFuzzer target for the LQL front end: parse and lower arbitrary text against one CTE shaped
// like edge/auth/storage logs, then render the result. Checks that errors point inside the
// text and that lowering is deterministic.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bq_render.h"
#include "lqe/lql.h"

namespace {

using lqe::Type;
using lqe::TypeKind;

lqe::TypePtr S(TypeKind kind) {
  return Type::Scalar(kind);
}

lqe::lql::LowerContext MakeContext() {
  auto bot = Type::Record(
      {{"detectionIds", Type::Array(S(TypeKind::kInt64))}, {"verifiedBot", S(TypeKind::kBool)}});
  auto request = Type::Record({{"path", S(TypeKind::kString)},
                               {"method", S(TypeKind::kString)},
                               {"cf", Type::Record({{"botManagement", bot}})}});
  auto metadata =
      Type::Record({{"level", S(TypeKind::kString)},
                    {"args", Type::Array(S(TypeKind::kString))},
                    {"responseTime", S(TypeKind::kFloat64)},
                    {"seen", S(TypeKind::kTimestamp)},
                    {"request", request},
                    {"response", Type::Record({{"status_code", S(TypeKind::kInt64)}})}});
  lqe::lql::LowerContext context;
  context.ctes.push_back({"edge_logs", Type::Record({{"timestamp", S(TypeKind::kTimestamp)},
                                                     {"id", S(TypeKind::kString)},
                                                     {"event_message", S(TypeKind::kString)},
                                                     {"metadata", metadata}})});
  context.now = std::chrono::system_clock::time_point(std::chrono::seconds(1715776496));
  return context;
}

std::string Outcome(std::string_view text, const lqe::lql::LowerContext& context) {
  auto result = lqe::lql::Lower(text, context);
  if (auto* query = std::get_if<lqe::ast::QueryPtr>(&result)) {
    return lqe::lql::RenderBigQuery(**query);
  }
  const auto& diag = std::get<lqe::Diagnostic>(result);
  if (diag.offset > text.size() || diag.length == 0 || diag.message.empty()) {
    __builtin_trap();
  }
  return "error: " + lqe::RenderCaret(diag, text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const lqe::lql::LowerContext context = MakeContext();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (Outcome(text, context) != Outcome(text, context)) {
    __builtin_trap();
  }
  return 0;
}
