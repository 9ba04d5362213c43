// The PostgreSQL emitter: binding, typing and emitting in one pass. It walks the AST once,
// resolving each name through the scopes of scope.h, typing it against the field catalogue and
// writing its PostgreSQL text, so every emitted expression (a Value) carries its BigQuery type.
// There is no separate resolved tree: the sandbox validator checks the consumer's AST before
// this pass, and reads the same function table (functions/function_list.def). One EmitX per
// node kind.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ast/query.h"
#include "lqe/translate.h"
#include "names.h"
#include "pg/scope.h"

namespace lqe::pg {

struct QueryOut {
  std::string sql;
  std::vector<Column> columns;
};

class Emitter {
 public:
  struct SelectItemOut {
    std::string sql;
    std::string name;  // BigQuery output name; empty when unnamed
    Value value;
    ast::SourceSpan span;
  };

  // What emitted text reads: CTEs (indices into Ctes() as they were then) and parameters ($n).
  // A statement then carries only the stored CTEs its query reads (see stored_with.h).
  struct Reads {
    std::set<std::size_t> ctes;
    std::set<std::size_t> params;
    // Read by a listing split in two branches (emit_split.cpp): NOT MATERIALIZED, so each
    // branch reads its partitions' indexes instead of a materialised copy.
    std::set<std::size_t> inline_ctes;
  };
  // One CTE's `name AS (...)` and what it reads.
  struct CteText {
    std::string sql;
    Reads reads;
  };

  explicit Emitter(const TranslateOptions& options) : options_(options) {}

  // WITH ctes, then the final query. Used directly for a stored query, and in two steps
  // (EmitCteList, then EmitFinal) for a sandboxed one.
  std::string EmitCteList(const std::vector<ast::Cte>& ctes);
  // The same, one text per CTE.
  std::vector<CteText> EmitCtes(const std::vector<ast::Cte>& ctes);
  // What was read since the last call.
  Reads TakeReads() { return std::exchange(reads_, {}); }
  QueryOut EmitFinal(const ast::Query& query);
  // Output columns of the stored CTEs, in order, for the LQL front end.
  const std::vector<std::pair<std::string, std::vector<Column>>>& Ctes() const { return ctes_; }
  std::vector<BoundParam> TakeParams() { return std::move(params_); }

  // Everything emission of later parts depends on, so a translated stored WITH can be reused
  // (the façade caches it per stored query; see translate.cpp).
  struct State {
    std::map<std::pair<std::string, ParamTransform>, std::size_t> param_index;
    std::vector<BoundParam> params;
    std::vector<std::pair<std::string, std::vector<Column>>> ctes;
    int alias_counter = 0;
    std::vector<TypePtr> source_rows;  // catalogue rows read, in order
  };
  State SaveState() const { return {param_index_, params_, ctes_, alias_counter_, source_rows_}; }
  void RestoreState(const State& s) {
    param_index_ = s.param_index;
    params_ = s.params;
    ctes_ = s.ctes;
    alias_counter_ = s.alias_counter;
    source_rows_ = s.source_rows;
  }

  // Used by the function table.
  Value EmitExpr(const ast::Expr& expr);
  // keep_order=false drops the query's own ORDER BY (used for CTEs, see SetDropCteOrder).
  QueryOut EmitQuery(const ast::Query& query, bool final_output, bool keep_order = true);
  // When the reader of the CTEs orders its own result, an ORDER BY inside a CTE without LIMIT
  // means nothing in BigQuery and, in PG, keeps the CTE from being flattened, so the reader's
  // LIMIT cannot reach the index scan. Such ORDER BYs are then left out.
  void SetDropCteOrder(bool drop) { drop_cte_order_ = drop; }
  std::string BindParam(const ast::Param& param, ParamTransform transform);
  // " ORDER BY ..." with BigQuery NULL ordering; items resolve select-list aliases when given.
  std::string EmitOrderBy(const std::vector<ast::OrderItem>& order_by,
                          std::vector<SelectItemOut>* items);
  std::string EmitWindowSpec(const ast::WindowSpec& spec);
  void CheckRangeOffsetOrder(const ast::WindowSpec& spec);
  const TranslateOptions& options() const { return options_; }

 private:
  struct SelectContext {
    std::vector<SelectItemOut>* items = nullptr;
    bool aliases_visible = false;  // HAVING/QUALIFY/ORDER BY may name select-list aliases
  };

  // Queries (emit_query.cpp, emit_select.cpp)
  QueryOut EmitQueryBody(const ast::QueryNode& body, const std::vector<ast::OrderItem>* order_by,
                         bool final_output);
  QueryOut EmitSelect(const ast::Select& select, const std::vector<ast::OrderItem>* order_by,
                      bool final_output);
  QueryOut EmitSetOp(const ast::SetOp& op, bool final_output);
  std::string EmitCte(const ast::Cte& cte);
  void EmitSelectItems(const ast::Select& select, std::vector<SelectItemOut>& out);
  void ExpandStar(const ast::SelectItem& item, std::vector<SelectItemOut>& out);
  std::string EmitGroupBy(const ast::Select& select, std::vector<SelectItemOut>& items);
  std::string EmitOrderItem(const ast::OrderItem& item, std::vector<SelectItemOut>* items);
  struct OrderKey {
    std::string sql;        // the sort expression (COLLATE "C" for strings), or an ordinal
    std::string direction;  // " DESC", " ASC NULLS FIRST", ...
    bool ordinal = false;
  };
  OrderKey EmitOrderKey(const ast::OrderItem& item, std::vector<SelectItemOut>* items);

  // A listing on an equality with a promoted element field, split in two branches (see
  // emit_split.cpp): what EmitSelect leaves for EmitFinal to compose with the LIMIT.
  struct SplitListing {
    std::vector<std::string> columns;  // the output labels
    std::string branch_a;              // each a whole SELECT with its ORDER BY
    std::string branch_b;
    std::string outer_order;  // " ORDER BY _u._s1 DESC, ..."
  };
  // The two branches of `select`, when its WHERE has a row equality to split and its shape keeps
  // the split exact (no grouping, aggregate, window, DISTINCT, QUALIFY; keys are column paths).
  std::optional<SplitListing> SplitOnEquality(const ast::Select& select,
                                              const std::vector<ast::OrderItem>& order_by,
                                              std::vector<SelectItemOut>& items,
                                              const std::vector<std::string>& select_sql,
                                              const std::string& from,
                                              const std::vector<std::string>& conditions,
                                              const std::string& order_sql);
  std::string ComposeSplit(const SplitListing& split, const std::string& limit);
  const SelectItemOut* FindOutputAlias(const ast::Expr& expr, std::vector<SelectItemOut>& items);
  std::string EmitLimit(const ast::Query& query);
  // collate_strings: STRING items get COLLATE "C", so a SELECT DISTINCT's ORDER BY (which
  // sorts strings byte-wise with COLLATE "C") names expressions of its select list.
  QueryOut FinishOutput(std::vector<SelectItemOut>& items, bool final_output,
                        std::vector<std::string>& select_sql, bool collate_strings = false,
                        bool pass_promoted = false);
  // Appends the promoted columns of the first item that is a log row's metadata as it is stored.
  void PassPromoted(std::vector<SelectItemOut>& items, std::vector<std::string>& select_sql,
                    QueryOut& out);
  // The same for logs.otel's log_attributes: its logs.otel_event as a hidden column.
  static void PassEvents(const std::vector<SelectItemOut>& items,
                         std::vector<std::string>& select_sql, QueryOut& out);

  // FROM (emit_from.cpp)
  std::string EmitFrom(const ast::FromItem& item, std::vector<std::string>& conditions);
  std::optional<std::string> EmitTableRef(const ast::TableRef& ref,
                                          std::vector<std::string>& conditions, bool first);
  std::string EmitJoin(const ast::Join& join, std::vector<std::string>& conditions);
  // A parenthesised join on the right of a join: its names resolve within the group.
  std::string EmitJoinGroup(const ast::Join& group, std::vector<std::string>& conditions);
  std::string JoinOn(const ast::Join& join, std::vector<std::string>& on_conditions);
  // An UNNEST as a FROM item; nullopt when it binds a single record and needs no join.
  std::optional<std::string> EmitUnnest(const ast::UnnestRef& ref, const Value& array, bool outer,
                                        std::vector<std::string>& conditions, bool first);
  std::optional<std::string> EmitFromItem(const ast::FromItem& item,
                                          std::vector<std::string>& conditions, bool first);
  std::string EmitSubqueryRef(const ast::SubqueryRef& ref);
  std::string NewAlias(std::string_view base);

  // Expressions (emit_expr.cpp, emit_access.cpp, emit_ops.cpp)
  Value EmitLiteral(const ast::Literal& lit);
  Value EmitParam(const ast::Param& param);
  Value EmitPath(const ast::Path& path);
  Value EmitFieldAccess(const ast::FieldAccess& access);
  Value EmitSubscript(const ast::Subscript& sub);
  Value EmitUnary(const ast::Unary& unary);
  Value EmitBinary(const ast::Binary& binary);
  Value EmitIsTest(const ast::IsTest& test);
  Value EmitIn(const ast::In& in);
  Value EmitBetween(const ast::Between& between);
  Value EmitLike(const ast::Like& like);
  Value EmitCase(const ast::Case& c);
  Value EmitCast(const ast::Cast& cast);
  Value EmitExtract(const ast::Extract& extract);
  Value EmitInterval(const ast::Interval& interval);
  Value EmitCall(const ast::Call& call);
  Value EmitArrayCtor(const ast::ArrayCtor& ctor);
  // `names_from`: the record type of an array's earlier elements, whose field names every
  // element of the array takes (BigQuery's common supertype keeps the first element's names).
  Value EmitStructCtor(const ast::StructCtor& ctor, const Type* names_from = nullptr);
  Value EmitExists(const ast::Exists& exists);
  Value EmitScalarSubquery(const ast::ScalarSubquery& sub);
  // `written`: the base as the query spells it ("t.metadata"), for the UNNEST hint.
  Value EmitValueField(const Value& base, const ast::Identifier& field,
                       const std::string& written = "");
  std::string EmitBool(const ast::Expr& expr, std::string_view clause);
  // The same as a Value, keeping the row conditions it implies (Value::implied).
  Value EmitBoolValue(const ast::Expr& expr, std::string_view clause);
  Value EmitRowValue(const RangeVar& var);

  const TranslateOptions& options_;
  std::map<std::pair<std::string, ParamTransform>, std::size_t> param_index_;
  std::vector<BoundParam> params_;
  std::vector<std::pair<std::string, std::vector<Column>>> ctes_;  // visible CTEs, innermost last
  Scope* scope_ = nullptr;
  SelectContext select_;
  int alias_counter_ = 0;
  std::vector<TypePtr> source_rows_;
  bool drop_cte_order_ = false;
  Reads reads_;
  // Row equalities on promoted element fields, by the text of their `min <= v` condition:
  // `max >= v`, then the split's `max = v`, `max > v` and `min < max` (see emit_split.cpp).
  std::map<std::string, std::array<std::string, 4>> row_equalities_;
  bool split_listing_ = false;  // the next SELECT is a final listing with a literal LIMIT
  std::optional<SplitListing> split_;
  int grouped_calls_ = 0;  // aggregate and analytic calls emitted so far
  // The next SELECT is a CTE's or derived table's body: a log row's metadata passing through it
  // also passes its promoted columns (hidden, not in QueryOut::columns), so readers still use them.
  bool pass_promoted_ = false;
  // Implied row conditions of the last SELECT's WHERE on rows of outer queries (for EXISTS).
  std::vector<std::pair<std::string, std::string>> lifted_implied_;
};

// Fails with BigQuery's "No matching signature" when `l op r` compares kinds BigQuery cannot.
void CheckComparable(const Value& l, const Value& r, std::string_view op, ast::SourceSpan span);
// Emits `v` as a value of the output contract (arrays to jsonb, int literals to bigint).
std::string OutputSql(const Value& v);
// The type both sides coerce to (INT64+FLOAT64 -> FLOAT64, NULL -> the other).
TypePtr CommonType(const TypePtr& a, const TypePtr& b);

}  // namespace lqe::pg
