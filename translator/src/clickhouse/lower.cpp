#include "clickhouse/lower.h"

#include <utility>

#include "clickhouse/build.h"
#include "clickhouse/functions.h"
#include "clickhouse/source_filter.h"
#include "names.h"
#include "translate_error.h"

namespace lqe::clickhouse {
namespace {

using translator::Fail;

class Lowering {
 public:
  explicit Lowering(std::vector<std::string> ctes) : ctes_(std::move(ctes)) {}

  void Query(ast::Query& q) {
    const std::size_t outer = ctes_.size();
    for (auto& cte : q.with) {
      Query(*cte.query);
      ctes_.push_back(cte.name.name);
    }
    ast::ExprPtr limit_by = LimitBy(q);
    Body(*q.body);
    for (auto& item : q.order_by) {
      Expr(item.expr);
      // ClickHouse sorts NULLs last in both directions.
      if (item.nulls == ast::OrderItem::Nulls::kDefault) item.nulls = ast::OrderItem::Nulls::kLast;
    }
    if (limit_by) q.body->As<ast::Select>().qualify = std::move(limit_by);
    if (q.limit) Expr(q.limit);
    if (q.offset) Expr(q.offset);
    ctes_.resize(outer);
    RestrictOwnLogs(q);
  }

 private:
  // The expression an ORDER BY or LIMIT BY item stands for: a select alias or position is that
  // item's expression (copied before lowering).
  static ast::ExprPtr Resolved(const ast::Expr& e, const ast::Select& s) {
    if (e.Is<ast::Path>() && e.As<ast::Path>().parts.size() == 1) {
      for (const auto& item : s.items) {
        if (item.alias && item.alias->name == e.As<ast::Path>().parts[0].name && item.expr) {
          return Clone(*item.expr);
        }
      }
    }
    if (e.Is<ast::Literal>() && e.As<ast::Literal>().literal_kind == ast::Literal::Kind::kInt) {
      const long long position = std::stoll(e.As<ast::Literal>().text);
      if (position >= 1 && position <= static_cast<long long>(s.items.size()) &&
          s.items[position - 1].expr) {
        return Clone(*s.items[position - 1].expr);
      }
    }
    return Clone(e);
  }

  // LIMIT n BY e1, e2 as QUALIFY ROW_NUMBER() OVER (PARTITION BY e1, e2 ORDER BY <the query's
  // ORDER BY>) <= n: the first n rows of each group in the query's order. Returns the lowered
  // condition (nullptr without LIMIT BY).
  ast::ExprPtr LimitBy(ast::Query& q) {
    if (!q.limit_by_count) return nullptr;
    const ast::SourceSpan span = q.limit_by_count->span;
    const auto* n =
        q.limit_by_count->Is<ast::Literal>() ? &q.limit_by_count->As<ast::Literal>() : nullptr;
    if (n == nullptr || n->literal_kind != ast::Literal::Kind::kInt) {
      Fail(DiagCode::kUnsupported, span, "LIMIT n BY needs a whole number n");
    }
    if (!q.body->Is<ast::Select>() || q.order_by.empty()) {
      Fail(DiagCode::kUnsupported, span,
           "LIMIT n BY is supported on one SELECT with an ORDER BY (its rows are otherwise "
           "arbitrary)");
    }
    const auto& s = q.body->As<ast::Select>();
    if (s.qualify) Fail(DiagCode::kUnsupported, span, "QUALIFY is BigQuery's");
    auto row_number = std::make_unique<ast::Call>(span);
    row_number->name = {"ROW_NUMBER", false, span};
    ast::WindowSpec window;
    window.span = span;
    for (const auto& e : q.limit_by) {
      window.partition_by.push_back(Resolved(*e, s));
      if (!window.partition_by.back()) {
        Fail(DiagCode::kUnsupported, e->span, "LIMIT BY supports columns and plain expressions");
      }
    }
    for (const auto& item : q.order_by) {
      auto e = Resolved(*item.expr, s);
      if (!e) {
        Fail(DiagCode::kUnsupported, item.expr->span,
             "with LIMIT BY, ORDER BY supports columns and plain expressions");
      }
      window.order_by.push_back({std::move(e), item.descending,
                                 item.nulls == ast::OrderItem::Nulls::kDefault
                                     ? ast::OrderItem::Nulls::kLast
                                     : item.nulls});
    }
    for (auto& e : window.partition_by) Expr(e);
    for (auto& item : window.order_by) Expr(item.expr);
    row_number->over = std::move(window);
    auto limit = Binary(ast::Binary::Op::kLe, std::move(row_number),
                        IntLiteral(std::stoll(n->text), span), span);
    q.limit_by_count.reset();
    q.limit_by.clear();
    return limit;
  }

  void Body(ast::QueryNode& node) {
    switch (node.kind) {
      case ast::NodeKind::kSelect:
        Select(node.As<ast::Select>());
        return;
      case ast::NodeKind::kSetOp: {
        auto& op = node.As<ast::SetOp>();
        if (op.op != ast::SetOp::Op::kUnion || !op.all) {
          Fail(DiagCode::kUnsupported, op.span, "only UNION ALL combines queries here");
        }
        Body(*op.left);
        Body(*op.right);
        return;
      }
      case ast::NodeKind::kQuery:
        Query(node.As<ast::Query>());
        return;
      default:
        Fail(DiagCode::kUnsupported, node.span, "unsupported query form");
    }
  }

  void Select(ast::Select& s) {
    if (s.as_struct || s.qualify || !s.windows.empty()) {
      Fail(DiagCode::kUnsupported, s.span, "SELECT AS STRUCT, QUALIFY and WINDOW are BigQuery's");
    }
    if (s.from) {
      // The sources the WHERE leaves, read before it is lowered; kept when `logs` is the table.
      const SourceSet sources = s.from->Is<ast::TableRef>() ? FromSources(s) : std::nullopt;
      From(*s.from);
      if (sources && s.from->Is<ast::TableRef>() && s.from->As<ast::TableRef>().name.size() == 2) {
        s.from->As<ast::TableRef>().only_sources = KnownSources(sources);
      }
    }
    for (auto& item : s.items) {
      if (item.kind != ast::SelectItem::Kind::kExpr &&
          (!item.except.empty() || !item.replace.empty())) {
        Fail(DiagCode::kUnsupported, item.span, "* EXCEPT / REPLACE is BigQuery's");
      }
      if (item.expr) Expr(item.expr);
    }
    if (s.where) Condition(s.where);
    for (auto& g : s.group_by) {
      // GROUP BY an output alias groups by that output (ClickHouse's aliases are visible there,
      // and win over a column of the same name).
      if (g->Is<ast::Path>() && g->As<ast::Path>().parts.size() == 1) {
        const std::string& name = g->As<ast::Path>().parts[0].name;
        long long position = 0;
        for (const auto& item : s.items) {
          ++position;
          if (item.alias && item.alias->name == name) {
            g = IntLiteral(position, g->span);
            break;
          }
        }
      }
      if (!g->Is<ast::Literal>()) Expr(g);
    }
    if (s.having) Condition(s.having);
  }

  // WhereSources of a SELECT whose FROM is one table reference.
  static SourceSet FromSources(const ast::Select& s) {
    const auto& ref = s.from->As<ast::TableRef>();
    if (ref.name.size() != 1) return std::nullopt;
    return WhereSources(s, ref.alias ? ref.alias->name : ref.name[0].name);
  }

  void From(ast::FromItem& item) {
    switch (item.kind) {
      case ast::NodeKind::kTableRef: {
        auto& ref = item.As<ast::TableRef>();
        const std::string name = ref.name.size() == 1 ? ref.name[0].name : "";
        bool cte = false;
        for (const auto& c : ctes_) cte = cte || names::EqualsIgnoreCase(c, name);
        if (cte) return;
        if (name == "logs") {
          const ast::Identifier table = ref.name[0];
          if (!ref.alias) ref.alias = table;
          ref.name = {{"logs", false, table.span}, {"otel", false, table.span}};
          return;
        }
        Fail(DiagCode::kUnknownName, item.span, "table not found",
             "ClickHouse-dialect queries read the table logs (or their own CTEs).");
      }
      case ast::NodeKind::kJoin: {
        auto& join = item.As<ast::Join>();
        From(*join.left);
        From(*join.right);
        if (join.on) Condition(join.on);
        return;
      }
      case ast::NodeKind::kSubqueryRef:
        Query(*item.As<ast::SubqueryRef>().query);
        return;
      default:
        Fail(DiagCode::kUnsupported, item.span, "UNNEST is BigQuery's; use arrayJoin");
    }
  }

  // A value used as a condition: ClickHouse reads a number as true when non-zero.
  void Condition(ast::ExprPtr& e) {
    Expr(e);
    if (e->Is<ast::Literal>() && e->As<ast::Literal>().literal_kind == ast::Literal::Kind::kInt) {
      e = BoolLiteral(e->As<ast::Literal>().text != "0", e->span);
    }
  }

  void Expr(ast::ExprPtr& e) {
    switch (e->kind) {
      case ast::NodeKind::kLiteral:
      case ast::NodeKind::kParam:
      case ast::NodeKind::kPath:
        return;
      case ast::NodeKind::kSubscript:
        MapAccess(e);
        return;
      case ast::NodeKind::kUnary: {
        auto& u = e->As<ast::Unary>();
        if (u.op == ast::Unary::Op::kNot) {
          Condition(u.operand);
        } else {
          Expr(u.operand);
        }
        return;
      }
      case ast::NodeKind::kBinary: {
        auto& b = e->As<ast::Binary>();
        if (b.op == ast::Binary::Op::kAnd || b.op == ast::Binary::Op::kOr) {
          Condition(b.left);
          Condition(b.right);
        } else {
          Expr(b.left);
          Expr(b.right);
        }
        // ClickHouse's / divides as floats, ±inf or nan on a zero divisor.
        if (b.op == ast::Binary::Op::kDiv) {
          ast::ExprList args;
          args.push_back(std::move(b.left));
          args.push_back(std::move(b.right));
          e = Call("IEEE_DIVIDE", e->span, std::move(args));
        }
        return;
      }
      case ast::NodeKind::kIsTest: {
        auto& t = e->As<ast::IsTest>();
        if (t.what != ast::IsTest::What::kNull) {
          Fail(DiagCode::kUnsupported, t.span, "IS TRUE / FALSE / UNKNOWN is BigQuery's");
        }
        Expr(t.operand);
        return;
      }
      case ast::NodeKind::kIn: {
        auto& in = e->As<ast::In>();
        Expr(in.operand);
        for (auto& x : in.list) Expr(x);
        if (in.subquery) Query(*in.subquery);
        if (in.unnest_array) Fail(DiagCode::kUnsupported, in.span, "IN UNNEST is BigQuery's");
        return;
      }
      case ast::NodeKind::kBetween: {
        auto& b = e->As<ast::Between>();
        Expr(b.operand);
        Expr(b.low);
        Expr(b.high);
        return;
      }
      case ast::NodeKind::kLike: {
        auto& l = e->As<ast::Like>();
        Expr(l.operand);
        Expr(l.pattern);
        return;
      }
      case ast::NodeKind::kCase: {
        auto& c = e->As<ast::Case>();
        if (c.operand) Expr(c.operand);
        for (auto& w : c.whens) {
          if (c.operand) {
            Expr(w.condition);
          } else {
            Condition(w.condition);
          }
          Expr(w.result);
        }
        if (c.else_result) Expr(c.else_result);
        return;
      }
      case ast::NodeKind::kArrayCtor: {
        auto& array = e->As<ast::ArrayCtor>();
        if (array.subquery || array.element_type) {
          Fail(DiagCode::kUnsupported, e->span, "ARRAY(SELECT ...) and ARRAY<T> are BigQuery's");
        }
        for (auto& x : array.elements) Expr(x);
        return;
      }
      case ast::NodeKind::kInterval:
        Expr(e->As<ast::Interval>().value);
        return;
      case ast::NodeKind::kCall: {
        auto& call = e->As<ast::Call>();
        // Conditions of countIf, if and multiIf are read as ClickHouse reads them.
        const bool multi_if = names::EqualsIgnoreCase(call.name.name, "multiIf");
        const bool first_is_condition = names::EqualsIgnoreCase(call.name.name, "countIf") ||
                                        names::EqualsIgnoreCase(call.name.name, "if");
        for (std::size_t i = 0; i < call.args.size(); ++i) {
          const bool condition = (first_is_condition && i == 0) ||
                                 (multi_if && i % 2 == 0 && i + 1 < call.args.size());
          if (condition) {
            Condition(call.args[i]);
          } else if (!call.args[i]->Is<ast::Interval>()) {
            Expr(call.args[i]);
          }
        }
        e = LowerCall(call);
        return;
      }
      case ast::NodeKind::kScalarSubquery:
        Query(*e->As<ast::ScalarSubquery>().subquery);
        return;
      case ast::NodeKind::kExists:
        Query(*e->As<ast::Exists>().subquery);
        return;
      default:
        Fail(DiagCode::kUnsupported, e->span,
             "this expression is not supported in the ClickHouse dialect");
    }
  }

  // m['key'] on a map column: the key's value, '' when the map lacks it (ClickHouse's default
  // of a missing key), as COALESCE(JSON_VALUE(m['key']), '').
  static void MapAccess(ast::ExprPtr& e) {
    auto& sub = e->As<ast::Subscript>();
    const bool key = sub.index->Is<ast::Literal>() &&
                     sub.index->As<ast::Literal>().literal_kind == ast::Literal::Kind::kString;
    if (sub.mode != ast::Subscript::Mode::kBare || !key || !sub.base->Is<ast::Path>()) {
      Fail(DiagCode::kUnsupported, e->span,
           "only map access by a string key is supported, e.g. log_attributes['request.method']");
    }
    const ast::SourceSpan span = e->span;
    ast::ExprList value_args;
    value_args.push_back(std::move(e));
    ast::ExprList args;
    args.push_back(Call("JSON_VALUE", span, std::move(value_args)));
    args.push_back(StringLiteral("", span));
    e = Call("COALESCE", span, std::move(args));
  }

  std::vector<std::string> ctes_;
};

}  // namespace

void Lower(ast::Query& query, const std::vector<std::string>& ctes, bool final_replaced) {
  Lowering(ctes).Query(query);
  if (final_replaced) RestrictOwnLogs(query, true);
}

}  // namespace lqe::clickhouse
