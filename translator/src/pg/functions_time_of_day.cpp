// The TIME functions: TIME(...), TIME_ADD, TIME_SUB, TIME_DIFF, TIME_TRUNC and CURRENT_TIME. A
// TIME is PostgreSQL's time; arithmetic wraps around midnight as in BigQuery, and only the parts
// MICROSECOND to HOUR apply (each differential-tested in tests/oracle/cases/functions_more.sql).
#include "pg/function_table.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

// The date_trunc field and microseconds of a part TIME functions accept; {"", 0} otherwise.
std::pair<std::string_view, long long> TimePart(std::string_view part) {
  static constexpr std::pair<std::string_view, std::pair<std::string_view, long long>> kParts[] = {
      {"MICROSECOND", {"microseconds", 1}},
      {"MILLISECOND", {"milliseconds", 1000}},
      {"SECOND", {"second", 1000000}},
      {"MINUTE", {"minute", 60000000}},
      {"HOUR", {"hour", 3600000000}}};
  for (const auto& [name, field] : kParts) {
    if (name == part) return field;
  }
  return {"", 0};
}

// The part argument `i` of `call`, failing with BigQuery's message for DAY and coarser parts.
std::pair<std::string_view, long long> ReadTimePart(const ast::Call& call, std::size_t i) {
  const DatePart part = ReadDatePart(*call.args[i]);
  const auto field = TimePart(part.name);
  if (field.second == 0) {
    Fail(DiagCode::kType, call.args[i]->span,
         Upper(call.name.name) + " does not support the " + part.name + " date part");
  }
  return field;
}

Value TimeArg(Emitter& e, const ast::Call& call, std::size_t i) {
  Value t = e.EmitExpr(*call.args[i]);
  if (!IsKind(t.type, K::kTime) && !IsKind(t.type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[i]->span,
         Upper(call.name.name) + " expects TIME, got " + TypeName(*t.type));
  }
  return t;
}

Value AddOrSub(Emitter& e, const ast::Call& call, std::string_view op) {
  const Value t = TimeArg(e, call, 0);
  if (!call.args[1]->Is<ast::Interval>()) {
    Fail(DiagCode::kType, call.args[1]->span, Upper(call.name.name) + " expects INTERVAL n unit");
  }
  const std::string unit = Upper(call.args[1]->As<ast::Interval>().unit.name);
  if (TimePart(unit).second == 0) {
    Fail(DiagCode::kType, call.args[1]->span,
         Upper(call.name.name) + " does not support the " + unit + " date part");
  }
  const Value iv = e.EmitExpr(*call.args[1]);
  // time +/- interval wraps around midnight, as BigQuery's TIME arithmetic.
  return MakeValue("((" + t.sql + ")::time " + std::string(op) + " " + iv.sql + ")", K::kTime);
}

// Microseconds since midnight.
std::string Micros(const Value& t) {
  return "(EXTRACT(EPOCH FROM (" + t.sql + ")::time) * 1000000)";
}

}  // namespace

Value EmitTimeFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (args.size() == 3) {
    std::string sql = "bq.make_time(";
    for (std::size_t i = 0; i < 3; ++i) {
      if (!IsKind(args[i].type, K::kInt64) && !IsKind(args[i].type, K::kUnknown)) {
        Fail(DiagCode::kType, call.args[i]->span,
             "TIME expects INT64, got " + TypeName(*args[i].type));
      }
      sql += (i ? ", (" : "(") + args[i].sql + ")::bigint";
    }
    return MakeValue(sql + ")", K::kTime);
  }
  const K from = args[0].type ? args[0].type->kind : K::kUnknown;
  if (from == K::kTimestamp) {
    const std::string tz = args.size() > 1 ? args[1].sql : "'UTC'";
    return MakeValue("(" + args[0].sql + " AT TIME ZONE " + tz + ")::time", K::kTime);
  }
  if (args.size() == 1 && (from == K::kDatetime || from == K::kTime || from == K::kUnknown)) {
    return MakeValue("(" + args[0].sql + ")::time", K::kTime);
  }
  Fail(DiagCode::kType, call.span,
       "TIME expects (hour, minute, second), (TIMESTAMP [, time zone]) or (DATETIME)");
}

Value EmitTimeAdd(Emitter& e, const ast::Call& call) {
  return AddOrSub(e, call, "+");
}

Value EmitTimeSub(Emitter& e, const ast::Call& call) {
  return AddOrSub(e, call, "-");
}

Value EmitTimeDiff(Emitter& e, const ast::Call& call) {
  const Value a = TimeArg(e, call, 0);
  const Value b = TimeArg(e, call, 1);
  const std::string us = std::to_string(ReadTimePart(call, 2).second);
  // Part boundaries crossed, as BigQuery counts them.
  return MakeValue(
      "(floor(" + Micros(a) + " / " + us + ") - floor(" + Micros(b) + " / " + us + "))::bigint",
      K::kInt64);
}

Value EmitTimeTrunc(Emitter& e, const ast::Call& call) {
  const Value t = TimeArg(e, call, 0);
  const std::string field(ReadTimePart(call, 1).first);
  return MakeValue("date_trunc('" + field + "', (" + t.sql + ")::time::interval)::time", K::kTime);
}

Value EmitCurrentTime(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  const std::string tz = args.empty() ? "'UTC'" : args[0].sql;
  return MakeValue("(current_timestamp AT TIME ZONE " + tz + ")::time", K::kTime);
}

}  // namespace lqe::pg
