#include "clickhouse/source_filter.h"

#include <vector>

#include "names.h"
#include "pg/otel_branches.h"

namespace lqe::clickhouse {
namespace {

bool IsSourceColumn(const ast::Expr& e, std::string_view range) {
  if (!e.Is<ast::Path>()) return false;
  const auto& parts = e.As<ast::Path>().parts;
  if (parts.size() == 1) return names::EqualsIgnoreCase(parts[0].name, "source");
  return parts.size() == 2 && names::EqualsIgnoreCase(parts[0].name, std::string(range)) &&
         names::EqualsIgnoreCase(parts[1].name, "source");
}

const std::string* StringValue(const ast::Expr& e) {
  if (!e.Is<ast::Literal>()) return nullptr;
  const auto& lit = e.As<ast::Literal>();
  return lit.literal_kind == ast::Literal::Kind::kString ? &lit.text : nullptr;
}

SourceSet Intersect(SourceSet a, const SourceSet& b) {
  if (!a) return b;
  if (!b) return a;
  std::set<std::string> out;
  for (const auto& s : *a) {
    if (b->contains(s)) out.insert(s);
  }
  return out;
}

SourceSet Union(SourceSet a, const SourceSet& b) {
  if (!a || !b) return std::nullopt;
  a->insert(b->begin(), b->end());
  return a;
}

// The sources a row can have when `e` holds for it.
SourceSet Sources(const ast::Expr& e, std::string_view range) {
  if (e.Is<ast::Binary>()) {
    const auto& b = e.As<ast::Binary>();
    if (b.op == ast::Binary::Op::kAnd) {
      return Intersect(Sources(*b.left, range), Sources(*b.right, range));
    }
    if (b.op == ast::Binary::Op::kOr) {
      return Union(Sources(*b.left, range), Sources(*b.right, range));
    }
    if (b.op == ast::Binary::Op::kEq) {
      const std::string* value = nullptr;
      if (IsSourceColumn(*b.left, range)) value = StringValue(*b.right);
      if (IsSourceColumn(*b.right, range)) value = StringValue(*b.left);
      if (value != nullptr) return std::set<std::string>{*value};
    }
    return std::nullopt;
  }
  if (e.Is<ast::In>()) {
    const auto& in = e.As<ast::In>();
    if (in.negated || in.subquery || in.unnest_array || !IsSourceColumn(*in.operand, range)) {
      return std::nullopt;
    }
    std::set<std::string> out;
    for (const auto& x : in.list) {
      const std::string* value = StringValue(*x);
      if (value == nullptr) return std::nullopt;
      out.insert(*value);
    }
    return out;
  }
  return std::nullopt;
}

// The reads of a table or CTE `name` in a query: whether there is one, and the sources they
// keep together (the union; nullopt when one of them keeps every source).
struct Reads {
  bool any = false;
  SourceSet sources = std::set<std::string>{};

  void Add(const SourceSet& s) {
    any = true;
    sources = Union(sources, s);
  }
};

class ReadsOf {
 public:
  explicit ReadsOf(std::string_view name) : name_(name) {}

  // Adds the reads in `q`, or in `q` after its first `after` CTEs (those cannot read a later one).
  ReadsOf& In(const ast::Query& q, std::size_t after = 0) {
    if (after == 0) {
      Query(q);
      return *this;
    }
    for (std::size_t i = after; i < q.with.size(); ++i) {
      if (names::EqualsIgnoreCase(q.with[i].name.name, name_)) reads_.Add(std::nullopt);
      Query(*q.with[i].query);
    }
    Node(*q.body);
    for (const auto& o : q.order_by) Expr(o.expr.get());
    Expr(q.limit.get());
    Expr(q.offset.get());
    Expr(q.limit_by_count.get());
    for (const auto& e : q.limit_by) Expr(e.get());
    return *this;
  }

  const Reads& Result() const { return reads_; }

 private:
  bool Names(const ast::TableRef& t) const {
    return t.name.size() == 1 && names::EqualsIgnoreCase(t.name[0].name, name_);
  }

  void Query(const ast::Query& q) {
    for (const auto& cte : q.with) {
      // Another relation of the same name in scope: not followed, so every source is kept.
      if (names::EqualsIgnoreCase(cte.name.name, name_)) reads_.Add(std::nullopt);
      Query(*cte.query);
    }
    Node(*q.body);
    for (const auto& o : q.order_by) Expr(o.expr.get());
    Expr(q.limit.get());
    Expr(q.offset.get());
    Expr(q.limit_by_count.get());
    for (const auto& e : q.limit_by) Expr(e.get());
  }

  void Node(const ast::QueryNode& n) {
    if (n.Is<ast::Select>()) {
      Select(n.As<ast::Select>());
    } else if (n.Is<ast::SetOp>()) {
      Node(*n.As<ast::SetOp>().left);
      Node(*n.As<ast::SetOp>().right);
    } else if (n.Is<ast::Query>()) {
      Query(n.As<ast::Query>());
    } else {
      reads_.Add(std::nullopt);
    }
  }

  void Select(const ast::Select& s) {
    if (s.from && s.from->Is<ast::TableRef>() && Names(s.from->As<ast::TableRef>())) {
      const auto& t = s.from->As<ast::TableRef>();
      reads_.Add(WhereSources(s, t.alias ? t.alias->name : t.name[0].name));
    } else if (s.from) {
      From(*s.from);
    }
    for (const auto& item : s.items) Expr(item.expr.get());
    Expr(s.where.get());
    for (const auto& g : s.group_by) Expr(g.get());
    Expr(s.having.get());
    Expr(s.qualify.get());
    if (!s.windows.empty()) reads_.Add(std::nullopt);
  }

  void From(const ast::FromItem& f) {
    if (f.Is<ast::TableRef>()) {
      if (Names(f.As<ast::TableRef>())) reads_.Add(std::nullopt);
    } else if (f.Is<ast::Join>()) {
      const auto& j = f.As<ast::Join>();
      From(*j.left);
      From(*j.right);
      Expr(j.on.get());
    } else if (f.Is<ast::SubqueryRef>()) {
      Query(*f.As<ast::SubqueryRef>().query);
    } else {
      reads_.Add(std::nullopt);
    }
  }

  void Expr(const ast::Expr* e) {
    if (e == nullptr) return;
    switch (e->kind) {
      case ast::NodeKind::kLiteral:
      case ast::NodeKind::kParam:
      case ast::NodeKind::kPath:
        return;
      case ast::NodeKind::kFieldAccess:
        return Expr(e->As<ast::FieldAccess>().base.get());
      case ast::NodeKind::kSubscript:
        Expr(e->As<ast::Subscript>().base.get());
        return Expr(e->As<ast::Subscript>().index.get());
      case ast::NodeKind::kUnary:
        return Expr(e->As<ast::Unary>().operand.get());
      case ast::NodeKind::kBinary:
        Expr(e->As<ast::Binary>().left.get());
        return Expr(e->As<ast::Binary>().right.get());
      case ast::NodeKind::kIsTest:
        return Expr(e->As<ast::IsTest>().operand.get());
      case ast::NodeKind::kIn: {
        const auto& in = e->As<ast::In>();
        Expr(in.operand.get());
        for (const auto& x : in.list) Expr(x.get());
        if (in.subquery) Query(*in.subquery);
        return Expr(in.unnest_array.get());
      }
      case ast::NodeKind::kBetween:
        Expr(e->As<ast::Between>().operand.get());
        Expr(e->As<ast::Between>().low.get());
        return Expr(e->As<ast::Between>().high.get());
      case ast::NodeKind::kLike:
        Expr(e->As<ast::Like>().operand.get());
        return Expr(e->As<ast::Like>().pattern.get());
      case ast::NodeKind::kCase: {
        const auto& c = e->As<ast::Case>();
        Expr(c.operand.get());
        for (const auto& w : c.whens) {
          Expr(w.condition.get());
          Expr(w.result.get());
        }
        return Expr(c.else_result.get());
      }
      case ast::NodeKind::kCast:
        return Expr(e->As<ast::Cast>().operand.get());
      case ast::NodeKind::kInterval:
        return Expr(e->As<ast::Interval>().value.get());
      case ast::NodeKind::kCall: {
        const auto& c = e->As<ast::Call>();
        for (const auto& a : c.args) Expr(a.get());
        for (const auto& p : c.parameters) Expr(p.get());
        for (const auto& o : c.order_by) Expr(o.expr.get());
        Expr(c.limit.get());
        if (c.over) {
          for (const auto& p : c.over->partition_by) Expr(p.get());
          for (const auto& o : c.over->order_by) Expr(o.expr.get());
        }
        return;
      }
      case ast::NodeKind::kArrayCtor: {
        const auto& a = e->As<ast::ArrayCtor>();
        for (const auto& x : a.elements) Expr(x.get());
        if (a.subquery) Query(*a.subquery);
        return;
      }
      case ast::NodeKind::kExists:
        return Query(*e->As<ast::Exists>().subquery);
      case ast::NodeKind::kScalarSubquery:
        return Query(*e->As<ast::ScalarSubquery>().subquery);
      default:
        // Not walked (a form the ClickHouse front end refuses anyway): keep every source.
        reads_.Add(std::nullopt);
    }
  }

  std::string_view name_;
  Reads reads_;
};

// A stored CTE whose rows are the OTEL relation's own, filtered: SELECT of columns under their
// own names (or *) FROM logs.otel [WHERE ...] [ORDER BY ...]; its `source` is the relation's.
ast::TableRef* PassThroughRelation(ast::Query& q) {
  if (!q.with.empty() || q.limit || q.offset || q.limit_by_count || !q.body->Is<ast::Select>()) {
    return nullptr;
  }
  auto& s = q.body->As<ast::Select>();
  if (s.distinct || s.as_struct || !s.group_by.empty() || s.having || s.qualify ||
      !s.windows.empty() || !s.from || !s.from->Is<ast::TableRef>()) {
    return nullptr;
  }
  auto& t = s.from->As<ast::TableRef>();
  if (t.name.size() != 2 || t.name[0].name != "logs" || t.name[1].name != "otel") return nullptr;
  for (const auto& item : s.items) {
    if (item.kind == ast::SelectItem::Kind::kStar && item.except.empty() && item.replace.empty()) {
      continue;
    }
    const bool column = item.kind == ast::SelectItem::Kind::kExpr && item.expr->Is<ast::Path>() &&
                        item.expr->As<ast::Path>().parts.size() == 1;
    if (!column ||
        (item.alias &&
         !names::EqualsIgnoreCase(item.alias->name, item.expr->As<ast::Path>().parts[0].name))) {
      return nullptr;
    }
  }
  return &t;
}

}  // namespace

SourceSet WhereSources(const ast::Select& select, std::string_view range) {
  // ClickHouse lets WHERE read a SELECT alias: `x AS source` makes `source` there something else.
  for (const auto& item : select.items) {
    if (item.alias && names::EqualsIgnoreCase(item.alias->name, "source") &&
        !(item.expr && IsSourceColumn(*item.expr, range))) {
      return std::nullopt;
    }
  }
  return select.where ? Sources(*select.where, range) : std::nullopt;
}

std::optional<std::vector<std::string>> KnownSources(const SourceSet& sources) {
  if (!sources) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& s : *sources) {
    if (pg::IsOtelSource(s)) out.push_back(s);
  }
  return out;
}

namespace {

// The sources CTE i of `q` needs: what its own WHERE keeps, and of that what `reads` read.
void Restrict(ast::Query& q, std::size_t i, const Reads& reads) {
  ast::TableRef* relation = PassThroughRelation(*q.with[i].query);
  if (relation == nullptr) return;
  const auto& select = q.with[i].query->body->As<ast::Select>();
  SourceSet own = WhereSources(select, relation->alias ? relation->alias->name : "logs");
  if (reads.any) own = Intersect(own, reads.sources);
  relation->only_sources = KnownSources(own);
}

}  // namespace

void RestrictOwnLogs(ast::Query& q, bool every_read) {
  for (std::size_t i = 0; i < q.with.size(); ++i) {
    Restrict(q, i,
             every_read ? Reads{true, std::nullopt}
                        : ReadsOf(q.with[i].name.name).In(q, i + 1).Result());
  }
}

std::string RestrictStoredLogs(ast::Query& stored, const ast::Query& consumer) {
  std::string key;
  for (std::size_t i = 0; i < stored.with.size(); ++i) {
    ReadsOf reads(stored.with[i].name.name);
    for (std::size_t k = i + 1; k < stored.with.size(); ++k) reads.In(*stored.with[k].query);
    reads.In(consumer);
    Restrict(stored, i, reads.Result());
    // The known names only, so the cache holds one entry per set of sources.
    const auto* relation = PassThroughRelation(*stored.with[i].query);
    if (relation == nullptr || !relation->only_sources) continue;
    key += std::to_string(i) + ":";
    for (const auto& s : *relation->only_sources) key += s + ",";
    key += ";";
  }
  return key;
}

}  // namespace lqe::clickhouse
