// The supported BigQuery functions (function_list.def) as data every stage reads: the sandbox
// (is it allowed?), the emitter (arity, kind, SAFE.), and diagnostics (did you mean?). It knows
// nothing of PostgreSQL; pg/function_table.cpp maps the same rows to their emitters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lqe::functions {

struct Arity {
  int min = 0;
  int max = 0;  // -1: any number
};

enum class FnKind : std::uint8_t { kScalar, kAggregate, kWindow };

struct Signature {
  std::string_view name;  // upper case
  Arity arity;
  FnKind kind = FnKind::kScalar;
  bool safe_ok = false;   // SAFE.f() is f()
  std::size_t index = 0;  // row number in function_list.def
};

// nullptr when `name` (any case) is not a supported function.
const Signature* Find(std::string_view name);
// Every supported function, in table order.
const std::vector<Signature>& All();
// `Did you mean "REGEXP_CONTAINS"?` for a misspelt function name, or "".
std::string DidYouMean(std::string_view name);
// Why lqe refuses a BigQuery function by name (refused_list.def, or a family such as ST_ for
// geography), or "" for a name it does not know.
std::string RefusedReason(std::string_view name);
// " (reason)" hint text for an unsupported function: the refusal reason, else a did-you-mean.
std::string UnsupportedHint(std::string_view name);

}  // namespace lqe::functions
