// Aggregate and analytic functions. COUNTIF counts with FILTER (0 on no rows, like BigQuery);
// APPROX_QUANTILES is an exact percentile_disc over BigQuery's n+1 boundaries; PERCENTILE_CONT as
// an analytic function reads the partition through array_agg (PG has no windowed form). CORR is
// NaN when a side has no variance; MAX_BY / MIN_BY ignore rows whose key is NULL; the BIT_
// aggregates are PG's own. bq.array_concat_agg is in migration 066.
#include "lqe/base/ascii.h"
#include "pg/function_table.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

// name(DISTINCT args ORDER BY ...) FILTER (WHERE filter) OVER (...)
std::string Agg(Emitter& e, const ast::Call& call, std::string_view pg_name,
                const std::string& args, const std::string& filter = "") {
  std::string sql = std::string(pg_name) + "(" + (call.distinct ? "DISTINCT " : "") + args;
  if (!call.order_by.empty()) sql += e.EmitOrderBy(call.order_by, nullptr);
  sql += ")";
  std::string where = filter;
  if (call.null_handling == ast::Call::NullHandling::kIgnoreNulls && !call.args.empty()) {
    where = (where.empty() ? "" : where + " AND ") + e.EmitExpr(*call.args[0]).sql + " IS NOT NULL";
  }
  if (!where.empty()) sql += " FILTER (WHERE " + where + ")";
  return sql + Over(e, call);
}

// The aggregated argument of f(DISTINCT x ORDER BY x): PG wants the ORDER BY expressions among
// the arguments, and ORDER BY sorts a STRING with COLLATE "C", so the argument gets it too.
std::string DistinctOrderedArg(const ast::Call& call, const Value& x) {
  if (call.distinct && !call.order_by.empty() && IsKind(x.type, K::kString)) {
    return x.sql + " COLLATE \"C\"";
  }
  return x.sql;
}

// A quoted literal is of type unknown to PostgreSQL, which a polymorphic function such as lag()
// cannot resolve: give it its BigQuery type.
std::string Typed(const Value& v) {
  const bool quoted = !v.sql.empty() && (v.sql[0] == '\'' || v.sql.rfind("E'", 0) == 0);
  if (!quoted || !v.type) return v.sql;
  return "(" + v.sql + ")::" + std::string(PgTypeName(v.type->kind));
}

void NoLimit(const ast::Call& call) {
  if (call.limit) {
    Fail(DiagCode::kUnsupported, call.limit->span, "unsupported LIMIT in " + Upper(call.name.name));
  }
}

void NoIgnoreNulls(const ast::Call& call) {
  if (call.null_handling != ast::Call::NullHandling::kDefault) {
    Fail(DiagCode::kUnsupported, call.span,
         "unsupported IGNORE/RESPECT NULLS in " + Upper(call.name.name));
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = ascii::ToLower(c);
  return out;
}

void NoDistinctOrLimit(const ast::Call& call) {
  if (call.distinct) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported DISTINCT in " + Upper(call.name.name));
  }
  if (call.limit) {
    Fail(DiagCode::kUnsupported, call.limit->span, "unsupported LIMIT in " + Upper(call.name.name));
  }
  if (call.null_handling != ast::Call::NullHandling::kDefault) {
    Fail(DiagCode::kUnsupported, call.span,
         "unsupported IGNORE/RESPECT NULLS in " + Upper(call.name.name));
  }
}

}  // namespace

Value EmitCount(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  NoIgnoreNulls(call);
  if (call.star) return MakeValue("count(*)" + Over(e, call), K::kInt64);
  const Value x = e.EmitExpr(*call.args[0]);
  return MakeValue(Agg(e, call, "count", x.sql), K::kInt64);
}

Value EmitCountIf(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  NoIgnoreNulls(call);
  if (call.distinct) Fail(DiagCode::kUnsupported, call.span, "unsupported COUNTIF(DISTINCT ...)");
  const Value c = e.EmitExpr(*call.args[0]);
  if (c.type && c.type->kind != K::kBool && c.type->kind != K::kUnknown) {
    Fail(DiagCode::kType, call.args[0]->span, "COUNTIF expects BOOL, got " + TypeName(*c.type));
  }
  return MakeValue("count(*) FILTER (WHERE " + c.sql + ")" + Over(e, call), K::kInt64);
}

Value EmitSum(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  NoIgnoreNulls(call);
  const Value x = e.EmitExpr(*call.args[0]);
  if (!IsNumber(x.type)) Fail(DiagCode::kType, call.args[0]->span, "SUM expects a number");
  if (IsKind(x.type, K::kInt64)) {
    // Raises the INT64 overflow for every group computed, as BigQuery does (migration 063).
    return MakeValue(Agg(e, call, "bq.sum_int64", "(" + x.sql + ")::numeric"), K::kInt64);
  }
  const std::string sql = Agg(e, call, "sum", x.sql);
  return MakeValue(sql, IsKind(x.type, K::kNumeric) ? K::kNumeric : K::kFloat64);
}

Value EmitAvg(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  NoIgnoreNulls(call);
  const Value x = e.EmitExpr(*call.args[0]);
  if (!IsNumber(x.type)) Fail(DiagCode::kType, call.args[0]->span, "AVG expects a number");
  const std::string sql = Agg(e, call, "avg", x.sql);
  if (IsKind(x.type, K::kNumeric)) return MakeValue(sql, K::kNumeric);
  return MakeValue("(" + sql + ")::double precision", K::kFloat64);
}

Value EmitMinMax(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  NoIgnoreNulls(call);
  Value x = e.EmitExpr(*call.args[0]);
  const std::string arg = IsKind(x.type, K::kString) ? x.sql + " COLLATE \"C\"" : x.sql;
  const bool is_min = Upper(call.name.name) == "MIN";
  // PostgreSQL has no min/max of boolean: false < true, so they are bool_and and bool_or.
  const std::string pg_name =
      IsKind(x.type, K::kBool) ? (is_min ? "bool_and" : "bool_or") : Lower(call.name.name);
  x.sql = Agg(e, call, pg_name, arg);
  x.loose_int = false;
  return x;
}

Value EmitAnyValue(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  Value x = e.EmitExpr(*call.args[0]);
  // BigQuery's ANY_VALUE skips NULLs; PG 15 has no any_value.
  x.sql = "(array_agg(" + Typed(x) + ") FILTER (WHERE " + x.sql + " IS NOT NULL)" + Over(e, call) +
          ")[1]";
  x.loose_int = false;
  return x;
}

Value EmitArrayAgg(Emitter& e, const ast::Call& call) {
  const Value x = e.EmitExpr(*call.args[0]);
  const std::string arg = DistinctOrderedArg(call, x);
  std::string sql = Agg(e, call, "array_agg", arg == x.sql ? Typed(x) : arg);
  if (call.limit) {  // never with OVER: the dispatcher refuses that
    sql = "(" + sql + ")[1:" + e.EmitExpr(*call.limit).sql + "]";
  }
  Value v = MakeValue(sql, Type::Array(x.type ? x.type : Type::Scalar(K::kUnknown)));
  return v;
}

Value EmitStringAgg(Emitter& e, const ast::Call& call) {
  NoIgnoreNulls(call);
  const auto args = EmitArgs(e, call);
  const std::string delim = args.size() > 1 ? args[1].sql : "','";
  const std::string arg = DistinctOrderedArg(call, args[0]);
  if (call.limit) {  // never with OVER: the dispatcher refuses that
    return MakeValue("array_to_string((" + Agg(e, call, "array_agg", arg) +
                         ")[1:" + e.EmitExpr(*call.limit).sql + "], " + delim + ")",
                     K::kString);
  }
  return MakeValue(Agg(e, call, "string_agg", arg + ", " + delim), K::kString);
}

Value EmitApproxCountDistinct(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  // It is count(DISTINCT x), and PostgreSQL has no DISTINCT in window aggregates.
  if (call.over) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported analytic APPROX_COUNT_DISTINCT",
         "Count the distinct values in a subquery, then join or window over that.");
  }
  const Value x = e.EmitExpr(*call.args[0]);
  return MakeValue("count(DISTINCT " + x.sql + ")", K::kInt64);
}

Value EmitApproxQuantiles(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  if (call.over) Fail(DiagCode::kUnsupported, call.span, "unsupported analytic APPROX_QUANTILES");
  const Value x = e.EmitExpr(*call.args[0]);
  const Value n = e.EmitExpr(*call.args[1]);
  if (!call.args[1]->Is<ast::Literal>() || !IsKind(n.type, K::kInt64)) {
    Fail(DiagCode::kType, call.args[1]->span,
         "APPROX_QUANTILES expects a literal INT64 number of quantiles");
  }
  return MakeValue(
      "percentile_disc(bq.quantile_fractions(" + n.sql + ")) WITHIN GROUP (ORDER BY " + x.sql + ")",
      Type::Array(x.type ? x.type : Type::Scalar(K::kFloat64)));
}

Value EmitLogicalAnd(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  return MakeValue(Agg(e, call, "bool_and", e.EmitExpr(*call.args[0]).sql), K::kBool);
}

Value EmitLogicalOr(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  return MakeValue(Agg(e, call, "bool_or", e.EmitExpr(*call.args[0]).sql), K::kBool);
}

Value EmitStatAgg(Emitter& e, const ast::Call& call) {
  NoLimit(call);
  const Value x = e.EmitExpr(*call.args[0]);
  return MakeValue(Agg(e, call, Lower(call.name.name), "(" + x.sql + ")::double precision"),
                   K::kFloat64);
}

Value EmitRankLike(Emitter& e, const ast::Call& call) {
  const std::string name = Lower(call.name.name);
  const bool fraction = name == "percent_rank" || name == "cume_dist";
  return MakeValue(name + "()" + Over(e, call), fraction ? K::kFloat64 : K::kInt64);
}

Value EmitNtile(Emitter& e, const ast::Call& call) {
  Value v = MakeValue("ntile((" + e.EmitExpr(*call.args[0]).sql + ")::integer)" + Over(e, call),
                      K::kInt64);
  v.loose_int = true;  // PG ntile() is integer
  return v;
}

Value EmitLagLead(Emitter& e, const ast::Call& call) {
  auto args = EmitArgs(e, call);
  std::string sql = Lower(call.name.name) + "(" + Typed(args[0]);
  if (args.size() > 1) sql += ", (" + args[1].sql + ")::integer";
  if (args.size() > 2) sql += ", " + Typed(args[2]);
  Value v = args[0];
  v.sql = sql + ")" + Over(e, call);
  v.loose_int = false;
  return v;
}

Value EmitFirstLastValue(Emitter& e, const ast::Call& call) {
  Value v = e.EmitExpr(*call.args[0]);
  v.sql = Lower(call.name.name) + "(" + Typed(v) + ")" + Over(e, call);
  v.loose_int = false;
  return v;
}

Value EmitNthValue(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Value v = args[0];
  v.sql = "nth_value(" + Typed(args[0]) + ", (" + args[1].sql + ")::integer)" + Over(e, call);
  v.loose_int = false;
  return v;
}

Value EmitPercentile(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (!call.over->order_by.empty() || call.over->frame) {
    Fail(DiagCode::kSyntax, call.over->span,
         Upper(call.name.name) + " accepts only PARTITION BY in its OVER clause");
  }
  const bool cont = Upper(call.name.name) == "PERCENTILE_CONT";
  const std::string values = cont ? "(" + args[0].sql + ")::double precision" : args[0].sql;
  return MakeValue(std::string(cont ? "bq.percentile_cont" : "bq.percentile_disc") + "(array_agg(" +
                       values + ")" + Over(e, call) + ", (" + args[1].sql + ")::double precision)",
                   cont ? Type::Scalar(K::kFloat64) : args[0].type);
}

Value EmitBitAgg(Emitter& e, const ast::Call& call) {
  const Value x = e.EmitExpr(*call.args[0]);
  if (!IsKind(x.type, K::kInt64) && !IsKind(x.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[0]->span,
         Upper(call.name.name) + " expects INT64, got " + TypeName(*x.type));
  }
  const std::string sql =
      LowerName(call) + "(" + std::string(call.distinct ? "DISTINCT " : "") + AsBigint(x) + ")";
  return MakeValue(sql + Over(e, call), K::kInt64);
}

Value EmitCovariance(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireNumberArgs(call, args);
  if (call.distinct) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported DISTINCT in " + Upper(call.name.name));
  }
  // PG's corr/covar take (Y, X); both orders give the same value.
  const std::string pair = AsDouble(args[0]) + ", " + AsDouble(args[1]);
  const std::string over = Over(e, call);
  if (LowerName(call) == "corr") {
    // BigQuery: NaN when a side has no variance (PG: NULL), NULL below two pairs.
    return MakeValue("CASE WHEN regr_count(" + pair + ")" + over + " >= 2 THEN coalesce(corr(" +
                         pair + ")" + over + ", 'NaN') END",
                     K::kFloat64);
  }
  return MakeValue(LowerName(call) + "(" + pair + ")" + over, K::kFloat64);
}

Value EmitArrayConcatAgg(Emitter& e, const ast::Call& call) {
  NoDistinctOrLimit(call);
  const Value x = e.EmitExpr(*call.args[0]);
  if (!IsKind(x.type, K::kArray) && !IsKind(x.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[0]->span,
         "ARRAY_CONCAT_AGG expects an ARRAY, got " + TypeName(*x.type));
  }
  std::string sql =
      std::string(x.json_array ? "bq.json_array_concat_agg(" : "bq.array_concat_agg(") + x.sql;
  if (!call.order_by.empty()) sql += e.EmitOrderBy(call.order_by, nullptr);
  Value v = x;  // an array held as jsonb stays one
  v.sql = sql + ")" + Over(e, call);
  return v;
}

Value EmitMaxMinBy(Emitter& e, const ast::Call& call) {
  NoDistinctOrLimit(call);
  if (call.over) {
    Fail(DiagCode::kUnsupported, call.span, "unsupported analytic " + Upper(call.name.name),
         "Use FIRST_VALUE(x) OVER (... ORDER BY y DESC) instead.");
  }
  const Value x = e.EmitExpr(*call.args[0]);
  const Value y = e.EmitExpr(*call.args[1]);
  if (IsKind(x.type, K::kArray) && !x.json_array) {
    Fail(DiagCode::kUnsupported, call.args[0]->span,
         Upper(call.name.name) + " of an ARRAY is not supported");
  }
  if (IsKind(y.type, K::kArray) || IsKind(y.type, K::kRecord) || IsKind(y.type, K::kJson)) {
    Fail(DiagCode::kType, call.args[1]->span,
         Upper(call.name.name) + " expects an orderable second argument, got " + TypeName(*y.type));
  }
  // ANY_VALUE(x HAVING MAX y): rows whose y is NULL are ignored.
  const std::string key = IsKind(y.type, K::kString) ? y.sql + " COLLATE \"C\"" : y.sql;
  const bool max = Upper(call.name.name) == "MAX_BY";
  return MakeValue("(array_agg(" + Typed(x) + " ORDER BY " + key + (max ? " DESC" : "") +
                       ") FILTER (WHERE " + y.sql + " IS NOT NULL))[1]",
                   x.type);
}

}  // namespace lqe::pg
