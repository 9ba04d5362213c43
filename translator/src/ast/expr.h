// Expression nodes. One struct per kind; children are owned by unique_ptr.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ast/node.h"
#include "lqe/types.h"

namespace lqe::ast {

struct Query;
using QueryPtr = std::unique_ptr<Query>;

struct Expr : Node {
  using Node::Node;
  // Filled by the resolver: the BigQuery type of this expression.
  TypePtr type;
};
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

struct Literal : Expr {
  static constexpr NodeKind kKind = NodeKind::kLiteral;
  enum class Kind : std::uint8_t {
    kNull,
    kBool,
    kInt,     // text holds the digits (decimal or 0x hex), value range checked by the parser
    kFloat,   // text holds the number as written (1.5, 1e10, .5)
    kString,  // text holds the decoded value (escapes applied)
    kBytes,   // b'...': text holds the decoded bytes
    kTyped,   // DATE '...', TIMESTAMP '...', DATETIME, TIME, NUMERIC, BIGNUMERIC, JSON
  };
  explicit Literal(SourceSpan s) : Expr(kKind, s) {}
  Kind literal_kind = Kind::kNull;
  std::string text;
  bool bool_value = false;                   // kBool
  TypeKind typed_kind = TypeKind::kUnknown;  // kTyped: which type keyword preceded the string
};

// @name
struct Param : Expr {
  static constexpr NodeKind kKind = NodeKind::kParam;
  explicit Param(SourceSpan s) : Expr(kKind, s) {}
  std::string name;  // without the @
};

// a, a.b, t.metadata.request: a dotted chain of names. What it means (column, table alias used
// as a row, CTE column, nested field) is decided by the resolver.
struct Path : Expr {
  static constexpr NodeKind kKind = NodeKind::kPath;
  explicit Path(SourceSpan s) : Expr(kKind, s) {}
  std::vector<Identifier> parts;
};

// expr.field where expr is not a plain path: f(x).y, arr[OFFSET(0)].y, (subquery).y
struct FieldAccess : Expr {
  static constexpr NodeKind kKind = NodeKind::kFieldAccess;
  explicit FieldAccess(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr base;
  Identifier field;
};

// base[OFFSET(i)], [SAFE_OFFSET(i)], [ORDINAL(i)], [SAFE_ORDINAL(i)], [i]
struct Subscript : Expr {
  static constexpr NodeKind kKind = NodeKind::kSubscript;
  enum class Mode : std::uint8_t { kBare, kOffset, kSafeOffset, kOrdinal, kSafeOrdinal };
  explicit Subscript(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr base;
  ExprPtr index;
  Mode mode = Mode::kBare;  // kBare: 0-based like OFFSET
};

struct Unary : Expr {
  static constexpr NodeKind kKind = NodeKind::kUnary;
  enum class Op : std::uint8_t { kNot, kNegate, kPlus, kBitNot };
  explicit Unary(SourceSpan s) : Expr(kKind, s) {}
  Op op = Op::kNot;
  ExprPtr operand;
};

struct Binary : Expr {
  static constexpr NodeKind kKind = NodeKind::kBinary;
  enum class Op : std::uint8_t {
    kAdd,
    kSub,
    kMul,
    kDiv,
    kConcat,  // + - * / ||
    kEq,
    kNe,
    kLt,
    kLe,
    kGt,
    kGe,  // = != <> < <= > >=
    kIsDistinctFrom,
    kIsNotDistinctFrom,
    kAnd,
    kOr,
    kBitAnd,
    kBitOr,
    kBitXor,
    kShiftLeft,
    kShiftRight,
  };
  explicit Binary(SourceSpan s) : Expr(kKind, s) {}
  Op op = Op::kAdd;
  ExprPtr left;
  ExprPtr right;
  SourceSpan op_span;  // the operator token, for errors
};

// x IS [NOT] NULL | TRUE | FALSE | UNKNOWN
struct IsTest : Expr {
  static constexpr NodeKind kKind = NodeKind::kIsTest;
  enum class What : std::uint8_t { kNull, kTrue, kFalse, kUnknown };
  explicit IsTest(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr operand;
  What what = What::kNull;
  bool negated = false;
};

// x [NOT] IN (list) | (subquery) | UNNEST(array)
struct In : Expr {
  static constexpr NodeKind kKind = NodeKind::kIn;
  explicit In(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr operand;
  bool negated = false;
  ExprList list;         // IN (a, b, c)
  QueryPtr subquery;     // IN (SELECT ...)
  ExprPtr unnest_array;  // IN UNNEST(arr)
};

struct Between : Expr {
  static constexpr NodeKind kKind = NodeKind::kBetween;
  explicit Between(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr operand;
  ExprPtr low;
  ExprPtr high;
  bool negated = false;
};

struct Like : Expr {
  static constexpr NodeKind kKind = NodeKind::kLike;
  explicit Like(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr operand;
  ExprPtr pattern;
  bool negated = false;
  bool case_insensitive = false;  // ILIKE (ClickHouse)
};

// CASE [operand] WHEN a THEN b ... [ELSE c] END
struct Case : Expr {
  static constexpr NodeKind kKind = NodeKind::kCase;
  struct When {
    ExprPtr condition;  // a value to compare with operand when operand is set
    ExprPtr result;
  };
  explicit Case(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr operand;  // null for the searched form
  std::vector<When> whens;
  ExprPtr else_result;  // may be null
};

// CAST(x AS T), SAFE_CAST(x AS T), x::T
struct Cast : Expr {
  static constexpr NodeKind kKind = NodeKind::kCast;
  enum class Syntax : std::uint8_t { kCast, kSafeCast, kDoubleColon };
  explicit Cast(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr operand;
  TypePtr target;
  SourceSpan target_span;
  Syntax syntax = Syntax::kCast;
  ExprPtr format;  // CAST(... FORMAT 'fmt'): parsed so it can be refused precisely
};

// EXTRACT(part FROM x [AT TIME ZONE tz])
struct Extract : Expr {
  static constexpr NodeKind kKind = NodeKind::kExtract;
  explicit Extract(SourceSpan s) : Expr(kKind, s) {}
  Identifier part;                       // DAYOFWEEK, WEEK, DATE, ...
  std::optional<Identifier> week_start;  // WEEK(MONDAY)
  ExprPtr operand;
  ExprPtr time_zone;  // may be null
};

// INTERVAL n UNIT
struct Interval : Expr {
  static constexpr NodeKind kKind = NodeKind::kInterval;
  explicit Interval(SourceSpan s) : Expr(kKind, s) {}
  ExprPtr value;
  Identifier unit;  // MICROSECOND ... YEAR, WEEK, QUARTER
};

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  enum class Nulls : std::uint8_t { kDefault, kFirst, kLast } nulls = Nulls::kDefault;
};

struct WindowFrame {
  enum class Unit : std::uint8_t { kRows, kRange };
  enum class BoundKind : std::uint8_t {
    kUnboundedPreceding,
    kPreceding,
    kCurrentRow,
    kFollowing,
    kUnboundedFollowing
  };
  struct Bound {
    BoundKind kind = BoundKind::kCurrentRow;
    ExprPtr offset;  // kPreceding / kFollowing
  };
  Unit unit = Unit::kRows;
  Bound start;
  std::optional<Bound> end;  // absent: "ROWS <start>" shorthand
  SourceSpan span;
};

// OVER (...) or OVER name; also the body of WINDOW name AS (...)
struct WindowSpec {
  std::optional<Identifier> base_name;  // OVER w / OVER (w ORDER BY ...)
  ExprList partition_by;
  std::vector<OrderItem> order_by;
  std::optional<WindowFrame> frame;
  SourceSpan span;
};

// f(args), SAFE.f(args), aggregates with DISTINCT / IGNORE NULLS / ORDER BY / LIMIT, window calls.
struct Call : Expr {
  static constexpr NodeKind kKind = NodeKind::kCall;
  enum class NullHandling : std::uint8_t { kDefault, kIgnoreNulls, kRespectNulls };
  explicit Call(SourceSpan s) : Expr(kKind, s) {}
  Identifier name;        // function name as written (without the SAFE. prefix)
  bool safe = false;      // SAFE.f(...)
  bool star = false;      // COUNT(*)
  bool distinct = false;  // f(DISTINCT ...)
  ExprList args;          // date-part arguments (MINUTE, DAY, WEEK(MONDAY)) arrive as Path / Call
  NullHandling null_handling = NullHandling::kDefault;
  std::vector<OrderItem> order_by;  // inside the parentheses of an aggregate
  ExprPtr limit;                    // inside the parentheses of an aggregate
  std::optional<WindowSpec> over;   // OVER (...)
  // ClickHouse's parametric aggregates, quantile(0.5)(x): the first parentheses (the second
  // are `args`). Only the ClickHouse lowering reads them.
  ExprList parameters;
};

// ARRAY[a, b], [a, b], ARRAY<T>[...], ARRAY(SELECT ...)
struct ArrayCtor : Expr {
  static constexpr NodeKind kKind = NodeKind::kArrayCtor;
  explicit ArrayCtor(SourceSpan s) : Expr(kKind, s) {}
  TypePtr element_type;  // ARRAY<T>[...]; may be null
  ExprList elements;
  QueryPtr subquery;  // ARRAY(SELECT ...)
};

// STRUCT(a AS x, b), STRUCT<x INT64>(1), and the tuple (a, b)
struct StructCtor : Expr {
  static constexpr NodeKind kKind = NodeKind::kStructCtor;
  struct Field {
    ExprPtr value;
    std::optional<Identifier> alias;
  };
  explicit StructCtor(SourceSpan s) : Expr(kKind, s) {}
  TypePtr declared_type;  // STRUCT<...>(...); may be null
  std::vector<Field> fields;
  bool tuple_syntax = false;  // written (a, b)
};

struct Exists : Expr {
  static constexpr NodeKind kKind = NodeKind::kExists;
  explicit Exists(SourceSpan s) : Expr(kKind, s) {}
  QueryPtr subquery;
};

struct ScalarSubquery : Expr {
  static constexpr NodeKind kKind = NodeKind::kScalarSubquery;
  explicit ScalarSubquery(SourceSpan s) : Expr(kKind, s) {}
  QueryPtr subquery;
};

// The operator as BigQuery writes it ("!=", "^", "IS DISTINCT FROM", ...).
const char* BinaryOpText(Binary::Op op);

}  // namespace lqe::ast
