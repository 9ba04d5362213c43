#include "ast/ast_dump.h"

#include <cstdio>

#include "ast/ast_dumper.h"
#include "lqe/diagnostic.h"

namespace lqe::ast {
namespace dump_internal {
namespace {

const char* JoinKindName(Join::Kind kind) {
  switch (kind) {
    case Join::Kind::kComma:
      return "comma";
    case Join::Kind::kCross:
      return "cross";
    case Join::Kind::kInner:
      return "inner";
    case Join::Kind::kLeft:
      return "left";
    case Join::Kind::kRight:
      return "right";
    case Join::Kind::kFull:
      return "full";
  }
  return "?";
}

const char* FrameBoundName(WindowFrame::BoundKind kind) {
  switch (kind) {
    case WindowFrame::BoundKind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case WindowFrame::BoundKind::kPreceding:
      return "PRECEDING";
    case WindowFrame::BoundKind::kCurrentRow:
      return "CURRENT ROW";
    case WindowFrame::BoundKind::kFollowing:
      return "FOLLOWING";
    case WindowFrame::BoundKind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

// "..." with quotes, backslashes and non-printable bytes escaped.
}  // namespace

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string IdentText(const Identifier& id) {
  return id.quoted ? "`" + id.name + "`" : id.name;
}

std::string Dumper::Span(SourceSpan s) const {
  if (text_ == nullptr) {
    return "[" + std::to_string(s.begin) + "-" + std::to_string(s.end) + ")";
  }
  const LineColumn b = LocateOffset(*text_, s.begin);
  const LineColumn e = LocateOffset(*text_, s.end);
  return "[" + std::to_string(b.line) + ":" + std::to_string(b.column) + "-" +
         std::to_string(e.line) + ":" + std::to_string(e.column) + ")";
}

void Dumper::DumpQuery(const Query& q, int depth) {
  Line(depth, "Query " + Span(q.span));
  for (const Cte& cte : q.with) {
    Line(depth + 1, "With " + IdentText(cte.name) + " " + Span(cte.span));
    DumpQuery(*cte.query, depth + 2);
  }
  if (q.body) {
    DumpQueryNode(*q.body, depth + 1);
  }
  if (!q.order_by.empty()) {
    Label(depth + 1, "order_by");
    DumpOrder(q.order_by, depth + 2);
  }
  if (q.limit) {
    Label(depth + 1, "limit");
    DumpExpr(*q.limit, depth + 2);
  }
  if (q.offset) {
    Label(depth + 1, "offset");
    DumpExpr(*q.offset, depth + 2);
  }
}

void Dumper::DumpQueryNode(const QueryNode& n, int depth) {
  if (n.Is<Query>()) {
    DumpQuery(n.As<Query>(), depth);
  } else if (n.Is<Select>()) {
    DumpSelect(n.As<Select>(), depth);
  } else if (n.Is<SetOp>()) {
    const auto& s = n.As<SetOp>();
    const char* op = s.op == SetOp::Op::kUnion       ? "UNION"
                     : s.op == SetOp::Op::kIntersect ? "INTERSECT"
                                                     : "EXCEPT";
    Line(depth, std::string("SetOp ") + op + (s.all ? " ALL " : " DISTINCT ") + Span(s.span));
    DumpQueryNode(*s.left, depth + 1);
    DumpQueryNode(*s.right, depth + 1);
  }
}

void Dumper::DumpSelectItem(const SelectItem& item, int depth) {
  std::string head = item.kind == SelectItem::Kind::kStar       ? "Star"
                     : item.kind == SelectItem::Kind::kPathStar ? "PathStar"
                                                                : "Item";
  if (item.alias) {
    head += " alias=" + IdentText(*item.alias);
  }
  if (!item.except.empty()) {
    head += " except=(";
    for (std::size_t i = 0; i < item.except.size(); ++i) {
      head += (i ? ", " : "") + IdentText(item.except[i]);
    }
    head += ")";
  }
  Line(depth, head + " " + Span(item.span));
  if (item.expr) {
    DumpExpr(*item.expr, depth + 1);
  }
  for (const auto& r : item.replace) {
    Line(depth + 1, "Replace " + IdentText(r.name));
    DumpExpr(*r.expr, depth + 2);
  }
}

void Dumper::DumpSelect(const Select& s, int depth) {
  std::string head = "Select";
  if (s.distinct) {
    head += " DISTINCT";
  }
  if (s.as_struct) {
    head += " AS STRUCT";
  }
  Line(depth, head + " " + Span(s.span));
  for (const SelectItem& item : s.items) {
    DumpSelectItem(item, depth + 1);
  }
  if (s.from) {
    Label(depth + 1, "from");
    DumpFrom(*s.from, depth + 2);
  }
  if (s.where) {
    Label(depth + 1, "where");
    DumpExpr(*s.where, depth + 2);
  }
  DumpExprList("group_by", s.group_by, depth + 1);
  if (s.having) {
    Label(depth + 1, "having");
    DumpExpr(*s.having, depth + 2);
  }
  if (s.qualify) {
    Label(depth + 1, "qualify");
    DumpExpr(*s.qualify, depth + 2);
  }
  for (const NamedWindow& w : s.windows) {
    Line(depth + 1, "Window " + IdentText(w.name));
    DumpWindow(w.spec, depth + 2);
  }
}

void Dumper::DumpFrom(const FromItem& f, int depth) {
  switch (f.kind) {
    case NodeKind::kTableRef: {
      const auto& t = f.As<TableRef>();
      std::string name;
      for (std::size_t i = 0; i < t.name.size(); ++i) {
        name += (i ? "." : "") + IdentText(t.name[i]);
      }
      Line(depth, "TableRef " + name + (t.alias ? " alias=" + IdentText(*t.alias) : "") + " " +
                      Span(t.span));
      return;
    }
    case NodeKind::kJoin: {
      const auto& j = f.As<Join>();
      std::string head = std::string("Join ") + JoinKindName(j.join_kind);
      if (j.parenthesized) {
        head += " parenthesized";
      }
      if (!j.using_columns.empty()) {
        head += " using=(";
        for (std::size_t i = 0; i < j.using_columns.size(); ++i) {
          head += (i ? ", " : "") + IdentText(j.using_columns[i]);
        }
        head += ")";
      }
      Line(depth, head + " " + Span(j.span));
      DumpFrom(*j.left, depth + 1);
      DumpFrom(*j.right, depth + 1);
      if (j.on) {
        Label(depth + 1, "on");
        DumpExpr(*j.on, depth + 2);
      }
      return;
    }
    case NodeKind::kUnnestRef: {
      const auto& u = f.As<UnnestRef>();
      std::string head = "UnnestRef";
      if (u.alias) {
        head += " alias=" + IdentText(*u.alias);
      }
      if (u.with_offset) {
        head += " with_offset";
      }
      if (u.offset_alias) {
        head += " offset_alias=" + IdentText(*u.offset_alias);
      }
      Line(depth, head + " " + Span(u.span));
      DumpExpr(*u.array, depth + 1);
      return;
    }
    case NodeKind::kSubqueryRef: {
      const auto& s = f.As<SubqueryRef>();
      Line(depth,
           "SubqueryRef" + (s.alias ? " alias=" + IdentText(*s.alias) : "") + " " + Span(s.span));
      DumpQuery(*s.query, depth + 1);
      return;
    }
    default:
      Line(depth, std::string("?") + NodeKindName(f.kind));
  }
}

void Dumper::DumpExprList(const char* label, const ExprList& list, int depth) {
  if (list.empty()) {
    return;
  }
  Label(depth, label);
  for (const ExprPtr& e : list) {
    DumpExpr(*e, depth + 1);
  }
}

void Dumper::DumpOrder(const std::vector<OrderItem>& items, int depth) {
  for (const OrderItem& item : items) {
    std::string head = item.descending ? "Order DESC" : "Order ASC";
    if (item.nulls == OrderItem::Nulls::kFirst) {
      head += " NULLS FIRST";
    }
    if (item.nulls == OrderItem::Nulls::kLast) {
      head += " NULLS LAST";
    }
    Line(depth, head);
    DumpExpr(*item.expr, depth + 1);
  }
}

void Dumper::DumpWindow(const WindowSpec& w, int depth) {
  Line(depth,
       "WindowSpec" + (w.base_name ? " base=" + IdentText(*w.base_name) : "") + " " + Span(w.span));
  DumpExprList("partition_by", w.partition_by, depth + 1);
  if (!w.order_by.empty()) {
    Label(depth + 1, "order_by");
    DumpOrder(w.order_by, depth + 2);
  }
  if (w.frame) {
    const WindowFrame& f = *w.frame;
    Line(depth + 1, std::string("Frame ") +
                        (f.unit == WindowFrame::Unit::kRows ? "ROWS" : "RANGE") + " " +
                        Span(f.span));
    Line(depth + 2, std::string("start ") + FrameBoundName(f.start.kind));
    if (f.start.offset) {
      DumpExpr(*f.start.offset, depth + 3);
    }
    if (f.end) {
      Line(depth + 2, std::string("end ") + FrameBoundName(f.end->kind));
      if (f.end->offset) {
        DumpExpr(*f.end->offset, depth + 3);
      }
    }
  }
}

}  // namespace dump_internal

std::string DumpAst(const Query& query) {
  dump_internal::Dumper d(nullptr);
  d.DumpQuery(query, 0);
  return d.Take();
}

std::string DumpAst(const Query& query, std::string_view text) {
  dump_internal::Dumper d(&text);
  d.DumpQuery(query, 0);
  return d.Take();
}

}  // namespace lqe::ast
