// Queries: WITH, set operations, LIMIT, and the final output contract.
#include "pg/emitter.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;

std::string SetOpKeyword(const ast::SetOp& op) {
  switch (op.op) {
    case ast::SetOp::Op::kUnion:
      return op.all ? " UNION ALL " : " UNION ";
    case ast::SetOp::Op::kIntersect:
      return op.all ? " INTERSECT ALL " : " INTERSECT ";
    case ast::SetOp::Op::kExcept:
      return op.all ? " EXCEPT ALL " : " EXCEPT ";
  }
  return " UNION ";
}

}  // namespace

std::string OutputSql(const Value& v) {
  if (!v.single_sql.empty()) return v.single_sql;  // one object: rendered as [{...}]
  if (IsKind(v.type, TypeKind::kArray)) {
    // BigQuery returns a NULL array (and a missing REPEATED field) as [].
    if (v.json_array) return "COALESCE(" + v.sql + ", '[]'::jsonb)";
    if (IsKind(v.type->element, TypeKind::kTimestamp)) {
      // TIMESTAMPs inside arrays as unix microseconds, like every other TIMESTAMP of a result.
      return "COALESCE((SELECT jsonb_agg((extract(epoch FROM _ts.v) * 1000000)::bigint ORDER BY "
             "_ts.o) FROM unnest(" +
             v.sql + ") WITH ORDINALITY AS _ts(v, o)), '[]'::jsonb)";
    }
    return "COALESCE(to_jsonb(" + v.sql + "), '[]'::jsonb)";
  }
  if (v.loose_int) return "(" + v.sql + ")::bigint";
  return v.sql;
}

std::string Emitter::EmitCte(const ast::Cte& cte) {
  const bool drop_order = drop_cte_order_ && !cte.query->limit && !cte.query->order_by.empty();
  pass_promoted_ = true;
  QueryOut q = EmitQuery(*cte.query, false, !drop_order);
  pass_promoted_ = false;
  ctes_.emplace_back(cte.name.name, std::move(q.columns));
  return QuoteIdent(cte.name.name) + " AS (" + q.sql + ")";
}

std::vector<Emitter::CteText> Emitter::EmitCtes(const std::vector<ast::Cte>& ctes) {
  std::vector<CteText> out;
  const std::size_t first = ctes_.size();
  for (const auto& cte : ctes) {
    for (std::size_t i = first; i < ctes_.size(); ++i) {
      if (names::EqualsIgnoreCase(ctes_[i].first, cte.name.name)) {
        Fail(DiagCode::kSyntax, cte.name.span, "duplicate WITH name \"" + cte.name.name + "\"");
      }
    }
    Reads outer = TakeReads();
    std::string sql = EmitCte(cte);
    Reads own = std::exchange(reads_, std::move(outer));
    reads_.ctes.insert(own.ctes.begin(), own.ctes.end());
    reads_.params.insert(own.params.begin(), own.params.end());
    out.push_back({std::move(sql), std::move(own)});
  }
  return out;
}

std::string Emitter::EmitCteList(const std::vector<ast::Cte>& ctes) {
  std::string sql;
  for (auto& cte : EmitCtes(ctes)) sql += (sql.empty() ? "WITH " : ", ") + cte.sql;
  return sql;
}

QueryOut Emitter::EmitQuery(const ast::Query& query, bool final_output, bool keep_order) {
  const std::size_t cte_mark = ctes_.size();
  std::string with = EmitCteList(query.with);
  QueryOut out = EmitQueryBody(*query.body, keep_order ? &query.order_by : nullptr, final_output);
  out.sql = (with.empty() ? "" : with + " ") + out.sql + EmitLimit(query);
  ctes_.resize(cte_mark);
  return out;
}

QueryOut Emitter::EmitFinal(const ast::Query& query) {
  // A listing may split on a row equality (emit_split.cpp); its LIMIT, a literal, binds nothing.
  split_listing_ = query.body->Is<ast::Select>() && !query.order_by.empty() && query.limit &&
                   query.limit->Is<ast::Literal>() && !query.offset;
  split_.reset();
  QueryOut out = EmitQueryBody(*query.body, &query.order_by, true);
  split_listing_ = false;
  const std::string limit = EmitLimit(query);
  if (split_) {
    out.sql = ComposeSplit(*split_, limit);
    split_.reset();
  } else {
    out.sql += limit;
  }
  return out;
}

std::string Emitter::EmitLimit(const ast::Query& query) {
  std::string sql;
  auto emit = [&](const ast::Expr& e, const char* keyword) {
    const Value v = EmitExpr(e);
    if (!IsKind(v.type, TypeKind::kInt64)) {
      Fail(DiagCode::kType, e.span,
           std::string(keyword) + " expects an INT64 literal or parameter");
    }
    sql += std::string(" ") + keyword + " " + v.sql;
  };
  if (query.limit) emit(*query.limit, "LIMIT");
  if (query.offset) emit(*query.offset, "OFFSET");
  return sql;
}

QueryOut Emitter::EmitQueryBody(const ast::QueryNode& body,
                                const std::vector<ast::OrderItem>* order_by, bool final_output) {
  if (body.Is<ast::Select>()) return EmitSelect(body.As<ast::Select>(), order_by, final_output);
  QueryOut out;
  if (body.Is<ast::SetOp>()) {
    out = EmitSetOp(body.As<ast::SetOp>(), final_output);
  } else {
    out = EmitQuery(body.As<ast::Query>(), final_output);
    out.sql = "(" + out.sql + ")";
  }
  if (order_by && !order_by->empty()) {
    // ORDER BY after a set operation names output columns (or their ordinals).
    // PG accepts only output names after a set operation; order a derived table instead so
    // strings can still sort byte-wise.
    out.sql = "SELECT * FROM (" + out.sql + ") AS _set";
    std::vector<SelectItemOut> items;
    for (const auto& c : out.columns) {
      const std::string ref = "_set." + QuoteLabel(c.name);
      Value v{ref, c.type, c.json_array, false, c.name, {}};
      if (c.single_record) {
        v.single_sql = ref;
        v.sql = "jsonb_build_array(" + ref + ")";
        v.json_array = true;
      }
      items.push_back({ref, c.name, std::move(v), {}});
    }
    Scope empty{scope_, {}, {}};
    Scope* saved = scope_;
    scope_ = &empty;
    out.sql += EmitOrderBy(*order_by, &items);
    scope_ = saved;
  }
  return out;
}

QueryOut Emitter::EmitSetOp(const ast::SetOp& op, bool final_output) {
  pass_promoted_ = false;  // both sides must have the same columns
  QueryOut left = EmitQueryBody(*op.left, nullptr, final_output);
  QueryOut right = EmitQueryBody(*op.right, nullptr, final_output);
  if (left.columns.size() != right.columns.size()) {
    Fail(DiagCode::kType, op.span,
         "queries in a set operation have " + std::to_string(left.columns.size()) + " and " +
             std::to_string(right.columns.size()) + " columns");
  }
  for (std::size_t i = 0; i < left.columns.size(); ++i) {
    left.columns[i].type = CommonType(left.columns[i].type, right.columns[i].type);
    left.columns[i].not_null = left.columns[i].not_null && right.columns[i].not_null;
  }
  left.sql = "(" + left.sql + ")" + SetOpKeyword(op) + "(" + right.sql + ")";
  return left;
}

QueryOut Emitter::FinishOutput(std::vector<SelectItemOut>& items, bool final_output,
                               std::vector<std::string>& select_sql, bool collate_strings,
                               bool pass_promoted) {
  QueryOut out;
  int unnamed = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto& item = items[i];
    std::string name = item.name;
    if (name.empty()) name = "f" + std::to_string(unnamed++) + "_";
    if (final_output) {
      for (const auto& c : out.columns) {
        if (names::EqualsIgnoreCase(c.name, name)) {
          Fail(DiagCode::kUnsupported, item.span,
               "duplicate column name \"" + name + "\" in the result",
               "Give each result column a distinct alias.");
        }
      }
    }
    // A single-element record passes through a CTE as its element, so readers keep binding it
    // without a join (see Value::single_sql).
    const bool single = !item.value.single_sql.empty();
    std::string sql = final_output ? OutputSql(item.value)
                      : single     ? item.value.single_sql
                                   : item.value.sql;
    if (collate_strings && IsKind(item.value.type, TypeKind::kString)) sql += " COLLATE \"C\"";
    const bool as_needed =
        sql.size() < name.size() + 1 ||
        sql.compare(sql.size() - name.size() - 1, std::string::npos, "." + QuoteLabel(name)) != 0;
    select_sql.push_back(as_needed ? sql + " AS " + QuoteLabel(name) : sql);
    const bool json =
        final_output ? IsKind(item.value.type, TypeKind::kArray) : item.value.json_array && !single;
    TypePtr type = item.value.type ? item.value.type : Type::Scalar(TypeKind::kUnknown);
    out.columns.push_back({name, type, json, single && !final_output});
    out.columns.back().not_null =
        !item.value.not_null_sql.empty() && item.value.sql == item.value.not_null_sql;
  }
  if (pass_promoted && !final_output) {
    PassPromoted(items, select_sql, out);
    PassEvents(items, select_sql, out);
  }
  return out;
}

void Emitter::PassPromoted(std::vector<SelectItemOut>& items, std::vector<std::string>& select_sql,
                           QueryOut& out) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Value& v = items[i].value;
    if (!v.promoted || v.single_sql.empty() || v.single_sql != v.promoted_sql) continue;
    std::vector<std::string> hidden;
    for (const auto& [path, column] : *v.promoted) {
      if (path.find('.') == std::string::npos) {
        hidden.push_back(column);
      } else {
        hidden.push_back(column + "_min");
        hidden.push_back(column + "_max");
      }
    }
    for (const auto& c : out.columns) {
      for (const auto& h : hidden) {
        if (names::EqualsIgnoreCase(c.name, h)) return;  // a visible column of that name
      }
    }
    for (const auto& h : hidden) select_sql.push_back(v.promoted_row + "." + QuoteIdent(h));
    out.columns[i].promoted = v.promoted;
    return;
  }
}

void Emitter::PassEvents(const std::vector<SelectItemOut>& items,
                         std::vector<std::string>& select_sql, QueryOut& out) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Value& v = items[i].value;
    if (v.event_sql.empty() || v.event_for != v.sql) continue;
    // Named after its map column; a result column of that name leaves the map without it.
    const std::string hidden = out.columns[i].name + "$event";
    bool taken = false;
    for (const auto& c : out.columns) taken = taken || names::EqualsIgnoreCase(c.name, hidden);
    if (taken) continue;
    select_sql.push_back(v.event_sql + " AS " + QuoteIdent(hidden));
    out.columns[i].event_column = hidden;
  }
}

}  // namespace lqe::pg
