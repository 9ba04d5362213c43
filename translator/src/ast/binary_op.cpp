// The one table of binary operator spellings; the PostgreSQL emitter overrides the two it spells
// differently.
#include "ast/expr.h"
#include "ast/query.h"  // completes the types expr.h declares

namespace lqe::ast {

const char* BinaryOpText(Binary::Op op) {
  switch (op) {
    case Binary::Op::kAdd:
      return "+";
    case Binary::Op::kSub:
      return "-";
    case Binary::Op::kMul:
      return "*";
    case Binary::Op::kDiv:
      return "/";
    case Binary::Op::kConcat:
      return "||";
    case Binary::Op::kEq:
      return "=";
    case Binary::Op::kNe:
      return "!=";
    case Binary::Op::kLt:
      return "<";
    case Binary::Op::kLe:
      return "<=";
    case Binary::Op::kGt:
      return ">";
    case Binary::Op::kGe:
      return ">=";
    case Binary::Op::kIsDistinctFrom:
      return "IS DISTINCT FROM";
    case Binary::Op::kIsNotDistinctFrom:
      return "IS NOT DISTINCT FROM";
    case Binary::Op::kAnd:
      return "AND";
    case Binary::Op::kOr:
      return "OR";
    case Binary::Op::kBitAnd:
      return "&";
    case Binary::Op::kBitOr:
      return "|";
    case Binary::Op::kBitXor:
      return "^";
    case Binary::Op::kShiftLeft:
      return "<<";
    case Binary::Op::kShiftRight:
      return ">>";
  }
  return "?";
}

}  // namespace lqe::ast
