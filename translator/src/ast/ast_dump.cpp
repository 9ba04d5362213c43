#include "ast/ast_dump.h"

#include <cstdio>

#include "lqe/diagnostic.h"

namespace lqe::ast {
namespace {

const char* BinaryOpName(Binary::Op op) {
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

const char* UnaryOpName(Unary::Op op) {
  switch (op) {
    case Unary::Op::kNot:
      return "NOT";
    case Unary::Op::kNegate:
      return "-";
    case Unary::Op::kPlus:
      return "+";
    case Unary::Op::kBitNot:
      return "~";
  }
  return "?";
}

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

const char* SubscriptModeName(Subscript::Mode mode) {
  switch (mode) {
    case Subscript::Mode::kBare:
      return "bare";
    case Subscript::Mode::kOffset:
      return "OFFSET";
    case Subscript::Mode::kSafeOffset:
      return "SAFE_OFFSET";
    case Subscript::Mode::kOrdinal:
      return "ORDINAL";
    case Subscript::Mode::kSafeOrdinal:
      return "SAFE_ORDINAL";
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

class Dumper {
 public:
  explicit Dumper(const std::string_view* text) : text_(text) {}

  std::string Take() { return std::move(out_); }

  void DumpQuery(const Query& q, int depth);

 private:
  std::string Span(SourceSpan s) const {
    if (text_ == nullptr) {
      return "[" + std::to_string(s.begin) + "-" + std::to_string(s.end) + ")";
    }
    const LineColumn b = LocateOffset(*text_, s.begin);
    const LineColumn e = LocateOffset(*text_, s.end);
    return "[" + std::to_string(b.line) + ":" + std::to_string(b.column) + "-" +
           std::to_string(e.line) + ":" + std::to_string(e.column) + ")";
  }

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

void Dumper::DumpLiteral(const Literal& l, int depth) {
  std::string v;
  switch (l.literal_kind) {
    case Literal::Kind::kNull:
      v = "NULL";
      break;
    case Literal::Kind::kBool:
      v = l.bool_value ? "TRUE" : "FALSE";
      break;
    case Literal::Kind::kInt:
      v = "INT64 " + l.text;
      break;
    case Literal::Kind::kFloat:
      v = "FLOAT64 " + l.text;
      break;
    case Literal::Kind::kString:
      v = "STRING " + Quote(l.text);
      break;
    case Literal::Kind::kBytes:
      v = "BYTES " + Quote(l.text);
      break;
    case Literal::Kind::kTyped:
      v = std::string(TypeKindName(l.typed_kind)) + " " + Quote(l.text);
      break;
  }
  Line(depth, "Literal " + v + " " + Span(l.span));
}

void Dumper::DumpCall(const Call& c, int depth) {
  std::string head = "Call " + std::string(c.safe ? "SAFE." : "") + IdentText(c.name);
  if (c.star) {
    head += " (*)";
  }
  if (c.distinct) {
    head += " DISTINCT";
  }
  if (c.null_handling == Call::NullHandling::kIgnoreNulls) {
    head += " IGNORE NULLS";
  }
  if (c.null_handling == Call::NullHandling::kRespectNulls) {
    head += " RESPECT NULLS";
  }
  Line(depth, head + " " + Span(c.span));
  for (const ExprPtr& a : c.args) {
    DumpExpr(*a, depth + 1);
  }
  if (!c.order_by.empty()) {
    Label(depth + 1, "order_by");
    DumpOrder(c.order_by, depth + 2);
  }
  if (c.limit) {
    Label(depth + 1, "limit");
    DumpExpr(*c.limit, depth + 2);
  }
  if (c.over) {
    Label(depth + 1, "over");
    DumpWindow(*c.over, depth + 2);
  }
}

void Dumper::DumpExpr(const Expr& e, int depth) {
  const std::string span = Span(e.span);
  switch (e.kind) {
    case NodeKind::kLiteral:
      DumpLiteral(e.As<Literal>(), depth);
      return;
    case NodeKind::kParam:
      Line(depth, "Param @" + e.As<Param>().name + " " + span);
      return;
    case NodeKind::kPath: {
      std::string path;
      for (const Identifier& p : e.As<Path>().parts) {
        path += (path.empty() ? "" : ".") + IdentText(p);
      }
      Line(depth, "Path " + path + " " + span);
      return;
    }
    case NodeKind::kFieldAccess:
      Line(depth, "FieldAccess ." + IdentText(e.As<FieldAccess>().field) + " " + span);
      DumpExpr(*e.As<FieldAccess>().base, depth + 1);
      return;
    case NodeKind::kSubscript: {
      const auto& s = e.As<Subscript>();
      Line(depth, std::string("Subscript ") + SubscriptModeName(s.mode) + " " + span);
      DumpExpr(*s.base, depth + 1);
      DumpExpr(*s.index, depth + 1);
      return;
    }
    case NodeKind::kUnary:
      Line(depth, std::string("Unary ") + UnaryOpName(e.As<Unary>().op) + " " + span);
      DumpExpr(*e.As<Unary>().operand, depth + 1);
      return;
    case NodeKind::kBinary: {
      const auto& b = e.As<Binary>();
      Line(depth, std::string("Binary ") + BinaryOpName(b.op) + " " + span);
      DumpExpr(*b.left, depth + 1);
      DumpExpr(*b.right, depth + 1);
      return;
    }
    case NodeKind::kIsTest: {
      const auto& t = e.As<IsTest>();
      const char* what = t.what == IsTest::What::kNull    ? "NULL"
                         : t.what == IsTest::What::kTrue  ? "TRUE"
                         : t.what == IsTest::What::kFalse ? "FALSE"
                                                          : "UNKNOWN";
      Line(depth, std::string("Is ") + (t.negated ? "NOT " : "") + what + " " + span);
      DumpExpr(*t.operand, depth + 1);
      return;
    }
    case NodeKind::kIn: {
      const auto& in = e.As<In>();
      Line(depth, std::string(in.negated ? "NotIn " : "In ") + span);
      DumpExpr(*in.operand, depth + 1);
      DumpExprList("list", in.list, depth + 1);
      if (in.subquery) {
        Label(depth + 1, "subquery");
        DumpQuery(*in.subquery, depth + 2);
      }
      if (in.unnest_array) {
        Label(depth + 1, "unnest");
        DumpExpr(*in.unnest_array, depth + 2);
      }
      return;
    }
    case NodeKind::kBetween: {
      const auto& b = e.As<Between>();
      Line(depth, std::string(b.negated ? "NotBetween " : "Between ") + span);
      DumpExpr(*b.operand, depth + 1);
      DumpExpr(*b.low, depth + 1);
      DumpExpr(*b.high, depth + 1);
      return;
    }
    case NodeKind::kLike: {
      const auto& l = e.As<Like>();
      Line(depth, std::string(l.negated ? "NotLike " : "Like ") + span);
      DumpExpr(*l.operand, depth + 1);
      DumpExpr(*l.pattern, depth + 1);
      return;
    }
    case NodeKind::kCase: {
      const auto& c = e.As<Case>();
      Line(depth, "Case " + span);
      if (c.operand) {
        Label(depth + 1, "operand");
        DumpExpr(*c.operand, depth + 2);
      }
      for (const auto& w : c.whens) {
        Label(depth + 1, "when");
        DumpExpr(*w.condition, depth + 2);
        Label(depth + 1, "then");
        DumpExpr(*w.result, depth + 2);
      }
      if (c.else_result) {
        Label(depth + 1, "else");
        DumpExpr(*c.else_result, depth + 2);
      }
      return;
    }
    case NodeKind::kCast: {
      const auto& c = e.As<Cast>();
      const char* syntax = c.syntax == Cast::Syntax::kCast       ? "Cast"
                           : c.syntax == Cast::Syntax::kSafeCast ? "SafeCast"
                                                                 : "Cast(::)";
      Line(depth, std::string(syntax) + " " + TypeName(*c.target) + " " + span);
      DumpExpr(*c.operand, depth + 1);
      if (c.format) {
        Label(depth + 1, "format");
        DumpExpr(*c.format, depth + 2);
      }
      return;
    }
    case NodeKind::kExtract: {
      const auto& x = e.As<Extract>();
      Line(depth, "Extract " + IdentText(x.part) +
                      (x.week_start ? "(" + IdentText(*x.week_start) + ")" : "") + " " + span);
      DumpExpr(*x.operand, depth + 1);
      if (x.time_zone) {
        Label(depth + 1, "time_zone");
        DumpExpr(*x.time_zone, depth + 2);
      }
      return;
    }
    case NodeKind::kInterval:
      Line(depth, "Interval " + IdentText(e.As<Interval>().unit) + " " + span);
      DumpExpr(*e.As<Interval>().value, depth + 1);
      return;
    case NodeKind::kCall:
      DumpCall(e.As<Call>(), depth);
      return;
    case NodeKind::kArrayCtor: {
      const auto& a = e.As<ArrayCtor>();
      Line(depth,
           "Array" + (a.element_type ? "<" + TypeName(*a.element_type) + ">" : "") + " " + span);
      for (const ExprPtr& el : a.elements) {
        DumpExpr(*el, depth + 1);
      }
      if (a.subquery) {
        DumpQuery(*a.subquery, depth + 1);
      }
      return;
    }
    case NodeKind::kStructCtor: {
      const auto& s = e.As<StructCtor>();
      std::string head = s.tuple_syntax ? "Tuple" : "Struct";
      if (s.declared_type) {
        head += " " + TypeName(*s.declared_type);
      }
      Line(depth, head + " " + span);
      for (const auto& f : s.fields) {
        if (f.alias) {
          Line(depth + 1, "as " + IdentText(*f.alias));
        }
        DumpExpr(*f.value, depth + 1 + (f.alias ? 1 : 0));
      }
      return;
    }
    case NodeKind::kExists:
      Line(depth, "Exists " + span);
      DumpQuery(*e.As<Exists>().subquery, depth + 1);
      return;
    case NodeKind::kScalarSubquery:
      Line(depth, "ScalarSubquery " + span);
      DumpQuery(*e.As<ScalarSubquery>().subquery, depth + 1);
      return;
    case NodeKind::kQuery:
    case NodeKind::kSelect:
    case NodeKind::kSetOp:
    case NodeKind::kTableRef:
    case NodeKind::kJoin:
    case NodeKind::kUnnestRef:
    case NodeKind::kSubqueryRef:
      break;
  }
  Line(depth, std::string("?") + NodeKindName(e.kind));
}

}  // namespace

std::string DumpAst(const Query& query) {
  Dumper d(nullptr);
  d.DumpQuery(query, 0);
  return d.Take();
}

std::string DumpAst(const Query& query, std::string_view text) {
  Dumper d(&text);
  d.DumpQuery(query, 0);
  return d.Take();
}

}  // namespace lqe::ast
