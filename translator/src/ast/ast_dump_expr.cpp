// Expression half of the AST dumper.
#include "ast/ast_dumper.h"

namespace lqe::ast::dump_internal {
namespace {

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

}  // namespace

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
      Line(depth, std::string("Binary ") + BinaryOpText(b.op) + " " + span);
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

}  // namespace lqe::ast::dump_internal
