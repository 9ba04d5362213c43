#include "bq_render.h"

#include <array>
#include <cstdio>

namespace lqe::lql {
namespace {

constexpr std::array<std::string_view, 44> kReserved = {
    "all",    "and",    "any",    "array",    "as",    "asc",    "between",  "by",    "case",
    "cast",   "cross",  "desc",   "distinct", "else",  "end",    "exists",   "false", "from",
    "full",   "group",  "having", "if",       "in",    "inner",  "interval", "is",    "join",
    "left",   "like",   "limit",  "not",      "null",  "on",     "or",       "order", "right",
    "select", "struct", "then",   "true",     "union", "unnest", "when",     "where"};

std::string Ident(const std::string& name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  std::string lower;
  for (const char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    plain = plain && ok;
    lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  for (const auto r : kReserved) {
    plain = plain && lower != r;
  }
  if (plain) {
    return name;
  }
  std::string out = "`";
  for (const char c : name) {
    if (c == '`' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out + "`";
}

std::string StringLiteral(const std::string& s) {
  std::string out = "'";
  for (const char c : s) {
    switch (c) {
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "'";
}

std::string Expr(const ast::Expr& e);
std::string Query(const ast::Query& q);

bool Atomic(const ast::Expr& e) {
  return e.Is<ast::Literal>() || e.Is<ast::Path>() || e.Is<ast::Call>() || e.Is<ast::Subscript>() ||
         e.Is<ast::Exists>();
}

std::string Child(const ast::Expr& e) {
  return Atomic(e) ? Expr(e) : "(" + Expr(e) + ")";
}

std::string Literal(const ast::Literal& l) {
  switch (l.literal_kind) {
    case ast::Literal::Kind::kNull:
      return "NULL";
    case ast::Literal::Kind::kBool:
      return l.bool_value ? "TRUE" : "FALSE";
    case ast::Literal::Kind::kInt:
    case ast::Literal::Kind::kFloat:
      return l.text;
    case ast::Literal::Kind::kString:
      return StringLiteral(l.text);
    case ast::Literal::Kind::kBytes:
      return "B" + StringLiteral(l.text);
    case ast::Literal::Kind::kTyped:
      return std::string(TypeKindName(l.typed_kind)) + " " + StringLiteral(l.text);
  }
  return "?";
}

std::string Call(const ast::Call& c) {
  std::string out = c.name.name + "(";
  if (c.star) {
    out += "*";
  }
  if (c.distinct) {
    out += "DISTINCT ";
  }
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    if (i) {
      out += ", ";
    }
    out += Expr(*c.args[i]);
  }
  return out + ")";
}

std::string In(const ast::In& in) {
  std::string out = Child(*in.operand) + (in.negated ? " NOT IN " : " IN ");
  if (in.unnest_array) {
    return out + "UNNEST(" + Expr(*in.unnest_array) + ")";
  }
  out += "(";
  for (std::size_t i = 0; i < in.list.size(); ++i) {
    if (i) {
      out += ", ";
    }
    out += Expr(*in.list[i]);
  }
  return out + ")";
}

std::string Expr(const ast::Expr& e) {
  switch (e.kind) {
    case ast::NodeKind::kLiteral:
      return Literal(e.As<ast::Literal>());
    case ast::NodeKind::kPath: {
      std::string out;
      for (const auto& part : e.As<ast::Path>().parts) {
        if (!out.empty()) {
          out += '.';
        }
        out += Ident(part.name);
      }
      return out;
    }
    case ast::NodeKind::kUnary: {
      const auto& u = e.As<ast::Unary>();
      return (u.op == ast::Unary::Op::kNegate ? "-" : "NOT ") + Child(*u.operand);
    }
    case ast::NodeKind::kBinary: {
      const auto& b = e.As<ast::Binary>();
      return Child(*b.left) + " " + ast::BinaryOpText(b.op) + " " + Child(*b.right);
    }
    case ast::NodeKind::kIsTest: {
      const auto& t = e.As<ast::IsTest>();
      return Child(*t.operand) + (t.negated ? " IS NOT NULL" : " IS NULL");
    }
    case ast::NodeKind::kIn:
      return In(e.As<ast::In>());
    case ast::NodeKind::kBetween: {
      const auto& b = e.As<ast::Between>();
      return Child(*b.operand) + " BETWEEN " + Child(*b.low) + " AND " + Child(*b.high);
    }
    case ast::NodeKind::kCall:
      return Call(e.As<ast::Call>());
    case ast::NodeKind::kSubscript: {
      const auto& s = e.As<ast::Subscript>();
      return Child(*s.base) + "[OFFSET(" + Expr(*s.index) + ")]";
    }
    case ast::NodeKind::kExists:
      return "EXISTS(" + Query(*e.As<ast::Exists>().subquery) + ")";
    default:
      return std::string("<") + ast::NodeKindName(e.kind) + ">";
  }
}

std::string From(const ast::FromItem& f) {
  if (f.Is<ast::TableRef>()) {
    const auto& t = f.As<ast::TableRef>();
    std::string out;
    for (const auto& part : t.name) {
      out += (out.empty() ? "" : ".") + Ident(part.name);
    }
    if (t.alias) {
      out += " AS " + Ident(t.alias->name);
    }
    return out;
  }
  if (f.Is<ast::UnnestRef>()) {
    const auto& u = f.As<ast::UnnestRef>();
    std::string out = "UNNEST(" + Expr(*u.array) + ")";
    if (u.alias) {
      out += " AS " + Ident(u.alias->name);
    }
    return out;
  }
  return std::string("<") + ast::NodeKindName(f.kind) + ">";
}

std::string Select(const ast::Select& s) {
  std::string out = "SELECT ";
  for (std::size_t i = 0; i < s.items.size(); ++i) {
    if (i) {
      out += ", ";
    }
    out += Expr(*s.items[i].expr);
    if (s.items[i].alias) {
      out += " AS " + Ident(s.items[i].alias->name);
    }
  }
  if (s.from) {
    out += " FROM " + From(*s.from);
  }
  if (s.where) {
    out += " WHERE " + Expr(*s.where);
  }
  for (std::size_t i = 0; i < s.group_by.size(); ++i) {
    out += i ? ", " : " GROUP BY ";
    out += Expr(*s.group_by[i]);
  }
  return out;
}

std::string Query(const ast::Query& q) {
  std::string out;
  if (q.body && q.body->Is<ast::Select>()) {
    out = Select(q.body->As<ast::Select>());
  } else if (q.body) {
    out = std::string("<") + ast::NodeKindName(q.body->kind) + ">";
  }
  for (std::size_t i = 0; i < q.order_by.size(); ++i) {
    out += i ? ", " : " ORDER BY ";
    out += Expr(*q.order_by[i].expr) + (q.order_by[i].descending ? " DESC" : " ASC");
  }
  if (q.limit) {
    out += " LIMIT " + Expr(*q.limit);
  }
  return out;
}

}  // namespace

std::string RenderBigQuery(const ast::Query& query) {
  return Query(query);
}
std::string RenderBigQuery(const ast::Expr& expr) {
  return Expr(expr);
}

}  // namespace lqe::lql
