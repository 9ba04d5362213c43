// Query expressions and FROM items.
#pragma once

#include "ast/expr.h"

namespace lqe::ast {

struct FromItem : Node {
  using Node::Node;
};
using FromPtr = std::unique_ptr<FromItem>;

// A query body: Select, SetOp, or a parenthesised Query.
struct QueryNode : Node {
  using Node::Node;
};
using QueryNodePtr = std::unique_ptr<QueryNode>;

struct Cte {
  Identifier name;
  QueryPtr query;
  SourceSpan span;
};

// [WITH ctes] body [ORDER BY ...] [LIMIT n [OFFSET m]]
struct Query : QueryNode {
  static constexpr NodeKind kKind = NodeKind::kQuery;
  explicit Query(SourceSpan s) : QueryNode(kKind, s) {}
  std::vector<Cte> with;
  QueryNodePtr body;  // Select | SetOp | Query (parenthesised)
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
  // ClickHouse's LIMIT n BY e1, e2: the first n rows (in ORDER BY order) of each (e1, e2).
  // Only the ClickHouse lowering reads them.
  ExprPtr limit_by_count;
  std::vector<ExprPtr> limit_by;
};

struct SelectItem {
  enum class Kind : std::uint8_t {
    kExpr,      // expr [[AS] alias]
    kStar,      // * [EXCEPT (...)] [REPLACE (...)]
    kPathStar,  // t.* / expr.* [EXCEPT ...] [REPLACE ...]
  };
  struct Replacement {
    ExprPtr expr;
    Identifier name;
  };
  Kind kind = Kind::kExpr;
  ExprPtr expr;                      // kExpr: the value; kPathStar: the qualifier
  std::optional<Identifier> alias;   // kExpr only
  std::vector<Identifier> except;    // * EXCEPT (a, b)
  std::vector<Replacement> replace;  // * REPLACE (x + 1 AS a)
  SourceSpan span;
};

struct NamedWindow {
  Identifier name;
  WindowSpec spec;
};

struct Select : QueryNode {
  static constexpr NodeKind kKind = NodeKind::kSelect;
  explicit Select(SourceSpan s) : QueryNode(kKind, s) {}
  bool distinct = false;
  bool as_struct = false;  // SELECT AS STRUCT (parsed to refuse or support precisely)
  std::vector<SelectItem> items;
  FromPtr from;  // may be null
  ExprPtr where;
  ExprList group_by;  // expressions, ordinals (Literal kInt), or output aliases (Path)
  ExprPtr having;
  ExprPtr qualify;
  std::vector<NamedWindow> windows;
};

struct SetOp : QueryNode {
  static constexpr NodeKind kKind = NodeKind::kSetOp;
  enum class Op : std::uint8_t { kUnion, kIntersect, kExcept };
  explicit SetOp(SourceSpan s) : QueryNode(kKind, s) {}
  Op op = Op::kUnion;
  bool all = false;  // ALL vs DISTINCT
  QueryNodePtr left;
  QueryNodePtr right;
};

// `logs.edge`, logs.edge, edge_logs, or a path that turns out to be an implicit UNNEST
// (FROM t, t.arr): the resolver decides.
struct TableRef : FromItem {
  static constexpr NodeKind kKind = NodeKind::kTableRef;
  explicit TableRef(SourceSpan s) : FromItem(kKind, s) {}
  std::vector<Identifier> name;  // as written; a quoted part may itself contain dots
  std::optional<Identifier> alias;
  // The OTEL relation (logs.otel) only: the sources whose tables are read, when the query's WHERE
  // keeps no row of the others (set by the ClickHouse front end, clickhouse/source_filter.h).
  std::optional<std::vector<std::string>> only_sources;
};

struct Join : FromItem {
  static constexpr NodeKind kKind = NodeKind::kJoin;
  enum class Kind : std::uint8_t { kComma, kCross, kInner, kLeft, kRight, kFull };
  explicit Join(SourceSpan s) : FromItem(kKind, s) {}
  Kind join_kind = Kind::kInner;
  FromPtr left;
  FromPtr right;
  ExprPtr on;  // ON condition; may be null
  std::vector<Identifier> using_columns;
  bool parenthesized = false;  // written as ( a JOIN b ... )
};

// UNNEST(expr) [AS alias] [WITH OFFSET [AS offset_alias]]
struct UnnestRef : FromItem {
  static constexpr NodeKind kKind = NodeKind::kUnnestRef;
  explicit UnnestRef(SourceSpan s) : FromItem(kKind, s) {}
  ExprPtr array;
  std::optional<Identifier> alias;
  bool with_offset = false;
  std::optional<Identifier> offset_alias;
};

// (SELECT ...) [AS alias]
struct SubqueryRef : FromItem {
  static constexpr NodeKind kKind = NodeKind::kSubqueryRef;
  explicit SubqueryRef(SourceSpan s) : FromItem(kKind, s) {}
  QueryPtr query;
  std::optional<Identifier> alias;
};

}  // namespace lqe::ast
