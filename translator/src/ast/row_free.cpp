#include "ast/row_free.h"

#include "names.h"

namespace lqe::ast {

bool IsPlainCall(const Expr& e, std::string_view name) {
  if (!e.Is<Call>()) return false;
  const auto& call = e.As<Call>();
  return names::EqualsIgnoreCase(call.name.name, name) && !call.safe && !call.distinct &&
         call.null_handling == Call::NullHandling::kDefault && call.order_by.empty() &&
         !call.limit && !call.over;
}

bool IsRowFree(const Expr& e) {
  if (e.Is<Literal>() || e.Is<Param>()) return true;
  if (e.Is<Cast>()) {
    const auto& cast = e.As<Cast>();
    return !cast.format && IsRowFree(*cast.operand);
  }
  if (e.Is<Call>()) {
    const auto& call = e.As<Call>();
    if (call.star || !IsPlainCall(e, call.name.name)) return false;
    for (const auto& arg : call.args) {
      if (!IsRowFree(*arg)) return false;
    }
    return true;
  }
  return false;
}

}  // namespace lqe::ast
