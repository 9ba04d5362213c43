// The AST dumper's internals, shared by ast_dump.cpp (queries, FROM items, windows) and
// ast_dump_expr.cpp (expressions).
#pragma once

#include <string>
#include <string_view>

#include "ast/query.h"

namespace lqe::ast::dump_internal {

// "..." with quotes, backslashes and non-printable bytes escaped.
std::string Quote(std::string_view s);
std::string IdentText(const Identifier& id);

class Dumper {
 public:
  explicit Dumper(const std::string_view* text) : text_(text) {}

  std::string Take() { return std::move(out_); }

  void DumpQuery(const Query& q, int depth);

 private:
  std::string Span(SourceSpan s) const;  // [begin-end) or [line:col-line:col)

  void Line(int depth, const std::string& s) {
    out_.append(static_cast<std::size_t>(depth) * 2, ' ');
    out_ += s;
    out_ += '\n';
  }

  void Label(int depth, const char* label) { Line(depth, std::string(label) + ":"); }

  void DumpQueryNode(const QueryNode& n, int depth);
  void DumpSelect(const Select& s, int depth);
  void DumpFrom(const FromItem& f, int depth);
  void DumpExpr(const Expr& e, int depth);
  void DumpExprList(const char* label, const ExprList& list, int depth);
  void DumpCall(const Call& c, int depth);
  void DumpOrder(const std::vector<OrderItem>& items, int depth);
  void DumpWindow(const WindowSpec& w, int depth);
  void DumpLiteral(const Literal& l, int depth);
  void DumpSelectItem(const SelectItem& item, int depth);

  const std::string_view* text_;
  std::string out_;
};

}  // namespace lqe::ast::dump_internal
