#include "sandbox/validator.h"

#include "functions/function_list.h"
#include "functions/internal_call.h"
#include "names.h"
#include "translate_error.h"

namespace lqe::sandbox {
namespace {

using translator::Fail;

class Validator {
 public:
  explicit Validator(const Rules& rules) : visible_(rules.stored_ctes) {}

  void CheckQuery(const ast::Query& q) {
    const std::size_t mark = visible_.size();
    for (const auto& cte : q.with) {
      CheckQuery(*cte.query);
      visible_.push_back(cte.name.name);  // later CTEs and the body may read it
    }
    CheckBody(*q.body);
    for (const auto& o : q.order_by) CheckExpr(*o.expr);
    if (q.limit) CheckExpr(*q.limit);
    if (q.offset) CheckExpr(*q.offset);
    visible_.resize(mark);
  }

 private:
  void CheckBody(const ast::QueryNode& body) {
    if (body.Is<ast::Select>()) return CheckSelect(body.As<ast::Select>());
    if (body.Is<ast::SetOp>()) {
      CheckBody(*body.As<ast::SetOp>().left);
      CheckBody(*body.As<ast::SetOp>().right);
      return;
    }
    CheckQuery(body.As<ast::Query>());
  }

  void CheckSelect(const ast::Select& s) {
    aliases_.emplace_back();
    if (s.from) CheckFrom(*s.from);
    for (const auto& item : s.items) {
      if (item.expr) CheckExpr(*item.expr);
      for (const auto& r : item.replace) CheckExpr(*r.expr);
    }
    if (s.where) CheckExpr(*s.where);
    for (const auto& g : s.group_by) CheckExpr(*g);
    if (s.having) CheckExpr(*s.having);
    if (s.qualify) CheckExpr(*s.qualify);
    for (const auto& w : s.windows) CheckWindow(w.spec);
    aliases_.pop_back();
  }

  void CheckFrom(const ast::FromItem& item) {
    switch (item.kind) {
      case ast::NodeKind::kTableRef:
        return CheckTable(item.As<ast::TableRef>());
      case ast::NodeKind::kJoin: {
        const auto& j = item.As<ast::Join>();
        CheckFrom(*j.left);
        CheckFrom(*j.right);
        if (j.on) CheckExpr(*j.on);
        return;
      }
      case ast::NodeKind::kUnnestRef: {
        const auto& u = item.As<ast::UnnestRef>();
        CheckExpr(*u.array);
        if (u.alias) aliases_.back().push_back(u.alias->name);
        return;
      }
      case ast::NodeKind::kSubqueryRef: {
        const auto& sq = item.As<ast::SubqueryRef>();
        CheckQuery(*sq.query);
        if (sq.alias) aliases_.back().push_back(sq.alias->name);
        return;
      }
      default:
        return;
    }
  }

  bool IsAlias(const std::string& name) const {
    for (const auto& level : aliases_) {
      for (const auto& a : level) {
        if (names::EqualsIgnoreCase(a, name)) return true;
      }
    }
    return false;
  }

  // Rule: FROM and JOIN read only CTEs (FROM t, t.arr on an alias is an UNNEST, not a table).
  void CheckTable(const ast::TableRef& t) {
    std::string full;
    for (const auto& p : t.name) full += (full.empty() ? "" : ".") + p.name;
    const bool implicit_unnest = t.name.size() > 1 && IsAlias(t.name.front().name);
    bool ok = implicit_unnest;
    for (const auto& v : visible_) {
      if (t.name.size() == 1 && names::EqualsIgnoreCase(v, full)) ok = true;
    }
    if (!ok) {
      std::string allowed;
      for (const auto& v : visible_) allowed += (allowed.empty() ? "" : ", ") + v;
      const ast::SourceSpan span{t.name.front().span.begin, t.name.back().span.end};
      Fail(DiagCode::kSandbox, span, "table \"" + full + "\" is not available here",
           allowed.empty()
               ? "This endpoint's query defines no CTEs, so a consumer query cannot read any table."
               : "A consumer query can read only these CTEs: " + allowed + ".");
    }
    aliases_.back().push_back(t.alias ? t.alias->name : t.name.back().name);
  }

  // Rule: only functions of the function table.
  void CheckCall(const ast::Call& c) {
    if (!functions::Find(c.name.name) && !functions::IsInternalCall(c)) {
      const std::string suggestion = functions::UnsupportedHint(c.name.name);
      Fail(DiagCode::kSandbox, c.name.span, "function " + c.name.name + " is not allowed here",
           "A consumer query can call only the BigQuery functions the translator supports." +
               (suggestion.empty() ? "" : " " + suggestion));
    }
    for (const auto& o : c.order_by) CheckExpr(*o.expr);
    if (c.limit) CheckExpr(*c.limit);
    if (c.over) CheckWindow(*c.over);
  }

  void CheckWindow(const ast::WindowSpec& w) {
    for (const auto& p : w.partition_by) CheckExpr(*p);
    for (const auto& o : w.order_by) CheckExpr(*o.expr);
  }

  void CheckExpr(const ast::Expr& e);

  std::vector<std::string> visible_;               // readable CTE names
  std::vector<std::vector<std::string>> aliases_;  // FROM aliases per enclosing SELECT
};

void Validator::CheckExpr(const ast::Expr& e) {
  auto sub = [this](const ast::ExprPtr& p) {
    if (p) CheckExpr(*p);
  };
  switch (e.kind) {
    case ast::NodeKind::kFieldAccess:
      return sub(e.As<ast::FieldAccess>().base);
    case ast::NodeKind::kSubscript:
      sub(e.As<ast::Subscript>().base);
      return sub(e.As<ast::Subscript>().index);
    case ast::NodeKind::kUnary:
      return sub(e.As<ast::Unary>().operand);
    case ast::NodeKind::kBinary:
      sub(e.As<ast::Binary>().left);
      return sub(e.As<ast::Binary>().right);
    case ast::NodeKind::kIsTest:
      return sub(e.As<ast::IsTest>().operand);
    case ast::NodeKind::kIn: {
      const auto& in = e.As<ast::In>();
      sub(in.operand);
      for (const auto& x : in.list) sub(x);
      if (in.subquery) CheckQuery(*in.subquery);
      return sub(in.unnest_array);
    }
    case ast::NodeKind::kBetween:
      sub(e.As<ast::Between>().operand);
      sub(e.As<ast::Between>().low);
      return sub(e.As<ast::Between>().high);
    case ast::NodeKind::kLike:
      sub(e.As<ast::Like>().operand);
      return sub(e.As<ast::Like>().pattern);
    case ast::NodeKind::kCase: {
      const auto& c = e.As<ast::Case>();
      sub(c.operand);
      for (const auto& w : c.whens) {
        sub(w.condition);
        sub(w.result);
      }
      return sub(c.else_result);
    }
    case ast::NodeKind::kCast:
      return sub(e.As<ast::Cast>().operand);
    case ast::NodeKind::kExtract:
      sub(e.As<ast::Extract>().operand);
      return sub(e.As<ast::Extract>().time_zone);
    case ast::NodeKind::kInterval:
      return sub(e.As<ast::Interval>().value);
    case ast::NodeKind::kCall: {
      const auto& c = e.As<ast::Call>();
      CheckCall(c);
      // Date-part arguments (DAY, WEEK(MONDAY)) are not calls of functions.
      for (const auto& a : c.args) {
        const bool date_part =
            a->Is<ast::Call>() && names::EqualsIgnoreCase(a->As<ast::Call>().name.name, "WEEK");
        if (!date_part) sub(a);
      }
      return;
    }
    case ast::NodeKind::kArrayCtor: {
      const auto& a = e.As<ast::ArrayCtor>();
      for (const auto& x : a.elements) sub(x);
      if (a.subquery) CheckQuery(*a.subquery);
      return;
    }
    case ast::NodeKind::kStructCtor:
      for (const auto& f : e.As<ast::StructCtor>().fields) sub(f.value);
      return;
    case ast::NodeKind::kExists:
      return CheckQuery(*e.As<ast::Exists>().subquery);
    case ast::NodeKind::kScalarSubquery:
      return CheckQuery(*e.As<ast::ScalarSubquery>().subquery);
    default:
      return;
  }
}

}  // namespace

void Validate(const ast::Query& consumer, const Rules& rules) {
  Validator(rules).CheckQuery(consumer);
}

}  // namespace lqe::sandbox
