// Date and time functions: truncation (BigQuery weeks start on Sunday), arithmetic, differences,
// conversions, epoch helpers, LAST_DAY and format strings. Everything is computed in UTC unless a
// time zone argument says otherwise.
#include "ast/row_free.h"
#include "pg/datetime_words.h"
#include "pg/function_table.h"
#include "pg/quoting.h"
#include "pg/size_caps.h"
#include "pg/time_format_sql.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

std::string Tz(const std::vector<Value>& args, std::size_t i) {
  return args.size() > i ? args[i].sql : "'UTC'";
}

// PG date_trunc field for a BigQuery part without week-start arithmetic; "" if none.
std::string_view SimpleField(const std::string& part) {
  static constexpr std::pair<std::string_view, std::string_view> kFields[] = {
      {"MICROSECOND", "microseconds"},
      {"MILLISECOND", "milliseconds"},
      {"SECOND", "second"},
      {"MINUTE", "minute"},
      {"HOUR", "hour"},
      {"DAY", "day"},
      {"ISOWEEK", "week"},
      {"MONTH", "month"},
      {"QUARTER", "quarter"},
      {"YEAR", "year"}};
  for (const auto& [bq, pgf] : kFields) {
    if (bq == part) return pgf;
  }
  return "";
}

// date_trunc over a TIMESTAMP (zone-aware), DATETIME or DATE value.
std::string Trunc(const ast::Expr& part_arg, const Value& x, K kind, const std::string& tz) {
  const DatePart part = ReadDatePart(part_arg);
  auto dt = [&](std::string_view field, const std::string& v) {
    if (kind == K::kTimestamp) {
      return "date_trunc('" + std::string(field) + "', " + v + ", " + tz + ")";
    }
    if (kind == K::kDate) return "date_trunc('" + std::string(field) + "', (" + v + ")::timestamp)";
    return "date_trunc('" + std::string(field) + "', " + v + ")";
  };
  std::string sql;
  if (!SimpleField(part.name).empty()) {
    if (kind == K::kDate &&
        (part.name == "HOUR" || part.name == "MINUTE" || part.name == "SECOND" ||
         part.name == "MILLISECOND" || part.name == "MICROSECOND")) {
      Fail(DiagCode::kType, part_arg.span, "DATE_TRUNC does not support part " + part.name);
    }
    sql = dt(SimpleField(part.name), x.sql);
  } else if (part.name == "WEEK") {
    // Days from Monday (PG's week start) to the BigQuery week start (Sunday by default).
    const int k = ((part.weekday < 0 ? 0 : part.weekday) + 6) % 7;
    if (k == 0) {
      sql = dt("week", x.sql);
    } else {
      const std::string shift = "interval '" + std::to_string(k) + " day'";
      sql = "(" + dt("week", "(" + x.sql + " - " + shift + ")") + " + " + shift + ")";
    }
  } else if (part.name == "ISOYEAR") {
    const std::string local =
        kind == K::kTimestamp ? "(" + x.sql + " AT TIME ZONE " + tz + ")" : x.sql;
    const std::string jan4 =
        "make_timestamp(EXTRACT(ISOYEAR FROM " + local + ")::integer, 1, 4, 0, 0, 0)";
    sql = kind == K::kTimestamp ? "(date_trunc('week', " + jan4 + ") AT TIME ZONE " + tz + ")"
                                : "date_trunc('week', " + jan4 + ")";
  } else {
    Fail(DiagCode::kUnsupported, part_arg.span, "unsupported date part " + part.name);
  }
  return kind == K::kDate ? "(" + sql + ")::date" : sql;
}

void Expect(const Value& v, const ast::Expr& e, std::initializer_list<K> kinds, const char* fn) {
  if (!v.type || v.type->kind == K::kUnknown) return;
  for (K k : kinds) {
    if (v.type->kind == k) return;
  }
  Fail(DiagCode::kType, e.span,
       std::string(fn) + " does not accept an argument of type " + TypeName(*v.type));
}

Value Arith(Emitter& e, const ast::Call& call, K kind, const char* op, const char* fn) {
  const Value x = e.EmitExpr(*call.args[0]);
  Expect(x, *call.args[0], {kind, K::kString}, fn);
  if (!call.args[1]->Is<ast::Interval>()) {
    Fail(DiagCode::kType, call.args[1]->span, std::string(fn) + " expects INTERVAL n unit");
  }
  const Value iv = e.EmitExpr(*call.args[1]);
  const std::string base = IsKind(x.type, K::kString)
                               ? "CAST(" + x.sql + " AS " + std::string(PgTypeName(kind)) + ")"
                               : x.sql;
  std::string sql = "(" + base + " " + op + " " + iv.sql + ")";
  if (kind == K::kDate) sql = "(" + sql + ")::date";
  return MakeValue(sql, kind);
}

// Microseconds per unit for TIMESTAMP_DIFF parts up to DAY.
long long MicrosPer(const std::string& part) {
  static constexpr std::pair<std::string_view, long long> kUnits[] = {
      {"MICROSECOND", 1},   {"MILLISECOND", 1000}, {"SECOND", 1000000},
      {"MINUTE", 60000000}, {"HOUR", 3600000000},  {"DAY", 86400000000}};
  for (const auto& [name, us] : kUnits) {
    if (name == part) return us;
  }
  return 0;
}

// DATE_DIFF-style boundary counting for DAY and coarser parts.
std::string CalendarDiff(const DatePart& part, const std::string& a, const std::string& b,
                         const ast::Expr& part_arg) {
  auto ym = [](const std::string& v, int per_year, const char* field) {
    return "(EXTRACT(YEAR FROM " + v + ") * " + std::to_string(per_year) + " + EXTRACT(" + field +
           " FROM " + v + "))";
  };
  if (part.name == "DAY") return "((" + a + ")::date - (" + b + ")::date)::bigint";
  if (part.name == "MONTH") {
    return "(" + ym(a, 12, "MONTH") + " - " + ym(b, 12, "MONTH") + ")::bigint";
  }
  if (part.name == "QUARTER") {
    return "(" + ym(a, 4, "QUARTER") + " - " + ym(b, 4, "QUARTER") + ")::bigint";
  }
  if (part.name == "YEAR") {
    return "(EXTRACT(YEAR FROM " + a + ") - EXTRACT(YEAR FROM " + b + "))::bigint";
  }
  if (part.name == "WEEK" || part.name == "ISOWEEK") {
    const int k = part.name == "ISOWEEK" ? 0 : ((part.weekday < 0 ? 0 : part.weekday) + 6) % 7;
    auto start = [k](const std::string& v) {
      return "(date_trunc('week', (" + v + ")::timestamp - interval '" + std::to_string(k) +
             " day'))::date";
    };
    return "((" + start(a) + " - " + start(b) + ") / 7)::bigint";
  }
  Fail(DiagCode::kUnsupported, part_arg.span, "unsupported date part " + part.name);
}

// The span of a refused element inside a format literal: exact when the literal is written
// without escapes (its source is the text in quotes), else the whole literal.
ast::SourceSpan ElementSpan(const ast::Literal& lit, std::size_t offset, std::size_t length) {
  if (lit.span.end - lit.span.begin != lit.text.size() + 2 || length == 0) return lit.span;
  const auto begin = static_cast<std::uint32_t>(lit.span.begin + 1 + offset);
  return {begin, static_cast<std::uint32_t>(begin + length)};
}

// FORMAT_* of `local` (a PG timestamp in the value's zone); see time_format_sql.h.
Value FormatTime(const ast::Call& call, std::string_view function, TimeFormatInput in) {
  const ast::Literal& lit = StringLiteralArg(call, 0, "format string");
  in.function = std::string(function);
  const TimeFormatSql out = FormatTimeSql(lit.text, in);
  if (!out.error.empty()) {
    Fail(DiagCode::kUnsupported, ElementSpan(lit, out.error_offset, out.error_length), out.error);
  }
  return MakeValue(out.sql, K::kString);
}

// PARSE_*: the instant bq.parse_time reads, with fields in `zone` unless the text names one.
std::string ParseTime(Emitter& e, const ast::Call& call, std::string_view function,
                      const std::string& zone) {
  const ast::Literal& lit = StringLiteralArg(call, 0, "format string");
  const TimeParseRegex re = ParseTimeRegex(lit.text, function);
  if (!re.error.empty()) {
    Fail(DiagCode::kUnsupported, ElementSpan(lit, re.error_offset, re.error_length), re.error);
  }
  const Value s = e.EmitExpr(*call.args[1]);
  Expect(s, *call.args[1], {K::kString}, std::string(function).c_str());
  return "bq.parse_time(" + s.sql + ", regexp_match(" + s.sql + ", " + QuoteLiteral(re.regex) +
         "), " + QuoteLiteral(re.roles) + ", " + zone + ", " + QuoteLiteral(function) + ")";
}

Value FromEpoch(Emitter& e, const ast::Call& call, const char* unit) {
  const Value n = e.EmitExpr(*call.args[0]);
  Expect(n, *call.args[0], {K::kInt64}, "TIMESTAMP_MICROS");
  return MakeValue("('epoch'::timestamptz + " + n.sql + " * interval '1 " + unit + "')",
                   K::kTimestamp);
}

Value ToEpoch(Emitter& e, const ast::Call& call, const char* scale) {
  const Value t = e.EmitExpr(*call.args[0]);
  Expect(t, *call.args[0], {K::kTimestamp}, "UNIX_MICROS");
  return MakeValue("(floor(EXTRACT(EPOCH FROM " + t.sql + ")" + scale + "))::bigint", K::kInt64);
}

// The two values of a *_DIFF call (the third argument is a date part, not an expression).
std::vector<Value> EmitTwo(Emitter& e, const ast::Call& call) {
  return {e.EmitExpr(*call.args[0]), e.EmitExpr(*call.args[1])};
}

// DATE, DATETIME and TIME carry no zone: %z prints +0000 and %s counts from the epoch in UTC.
Value FormatCivil(Emitter& e, const ast::Call& call, K kind, std::string_view function) {
  const Value v = e.EmitExpr(*call.args[1]);
  Expect(v, *call.args[1], {kind, K::kString}, std::string(function).c_str());
  TimeFormatInput in;
  in.local_sql =
      kind == K::kTime ? "(DATE '1970-01-01' + " + v.sql + ")" : "(" + v.sql + ")::timestamp";
  in.epoch_sql = "floor(EXTRACT(EPOCH FROM " + in.local_sql + "))::bigint";
  in.offset_sql = "0";
  return FormatTime(call, function, in);
}

}  // namespace

Value EmitTimestampTrunc(Emitter& e, const ast::Call& call) {
  const Value x = e.EmitExpr(*call.args[0]);
  Expect(x, *call.args[0], {K::kTimestamp}, "TIMESTAMP_TRUNC");
  const std::string tz = call.args.size() > 2 ? e.EmitExpr(*call.args[2]).sql : "'UTC'";
  return MakeValue(Trunc(*call.args[1], x, K::kTimestamp, tz), K::kTimestamp);
}

Value EmitDatetimeTrunc(Emitter& e, const ast::Call& call) {
  const Value x = e.EmitExpr(*call.args[0]);
  Expect(x, *call.args[0], {K::kDatetime}, "DATETIME_TRUNC");
  return MakeValue(Trunc(*call.args[1], x, K::kDatetime, ""), K::kDatetime);
}

Value EmitDateTrunc(Emitter& e, const ast::Call& call) {
  const Value x = e.EmitExpr(*call.args[0]);
  Expect(x, *call.args[0], {K::kDate, K::kTimestamp, K::kDatetime}, "DATE_TRUNC");
  const K kind = x.type && x.type->kind != K::kUnknown ? x.type->kind : K::kDate;
  return MakeValue(Trunc(*call.args[1], x, kind, "'UTC'"), kind);
}

Value EmitTimestampAdd(Emitter& e, const ast::Call& c) {
  return Arith(e, c, K::kTimestamp, "+", "TIMESTAMP_ADD");
}

Value EmitTimestampSub(Emitter& e, const ast::Call& c) {
  return Arith(e, c, K::kTimestamp, "-", "TIMESTAMP_SUB");
}

Value EmitDatetimeAdd(Emitter& e, const ast::Call& c) {
  return Arith(e, c, K::kDatetime, "+", "DATETIME_ADD");
}

Value EmitDatetimeSub(Emitter& e, const ast::Call& c) {
  return Arith(e, c, K::kDatetime, "-", "DATETIME_SUB");
}

Value EmitDateAdd(Emitter& e, const ast::Call& c) {
  return Arith(e, c, K::kDate, "+", "DATE_ADD");
}

Value EmitDateSub(Emitter& e, const ast::Call& c) {
  return Arith(e, c, K::kDate, "-", "DATE_SUB");
}

Value EmitTimestampDiff(Emitter& e, const ast::Call& call) {
  const auto args = EmitTwo(e, call);
  const DatePart part = ReadDatePart(*call.args[2]);
  const long long us = MicrosPer(part.name);
  if (us == 0) {
    Fail(DiagCode::kUnsupported, call.args[2]->span, "unsupported date part " + part.name);
  }
  // Whole units, truncated toward zero.
  return MakeValue("(trunc(EXTRACT(EPOCH FROM (" + args[0].sql + " - " + args[1].sql +
                       ")) * 1000000 / " + std::to_string(us) + "))::bigint",
                   K::kInt64);
}

Value EmitDatetimeDiff(Emitter& e, const ast::Call& call) {
  const auto args = EmitTwo(e, call);
  const DatePart part = ReadDatePart(*call.args[2]);
  if (const long long us = MicrosPer(part.name); us != 0 && part.name != "DAY") {
    return MakeValue("(trunc(EXTRACT(EPOCH FROM (" + args[0].sql + " - " + args[1].sql +
                         ")) * 1000000 / " + std::to_string(us) + "))::bigint",
                     K::kInt64);
  }
  return MakeValue(CalendarDiff(part, args[0].sql, args[1].sql, *call.args[2]), K::kInt64);
}

Value EmitDateDiff(Emitter& e, const ast::Call& call) {
  const auto args = EmitTwo(e, call);
  const DatePart part = ReadDatePart(*call.args[2]);
  return MakeValue(CalendarDiff(part, args[0].sql, args[1].sql, *call.args[2]), K::kInt64);
}

Value EmitCurrentTimestamp(Emitter&, const ast::Call&) {
  return MakeValue("current_timestamp", K::kTimestamp);
}

Value EmitCurrentDate(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("(current_timestamp AT TIME ZONE " + Tz(args, 0) + ")::date", K::kDate);
}

Value EmitCurrentDatetime(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("(current_timestamp AT TIME ZONE " + Tz(args, 0) + ")", K::kDatetime);
}

Value EmitTimestampFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RefuseSpecialDateTimeLiteral(*call.args[0], K::kTimestamp, call.args[0]->span);
  const K from = args[0].type ? args[0].type->kind : K::kUnknown;
  const std::string tz = Tz(args, 1);
  switch (from) {
    case K::kTimestamp:
      return args[0];
    // bq.local_to_timestamp: the earlier instant in the repeated hour, as BigQuery.
    case K::kDatetime:
      return MakeValue("bq.local_to_timestamp(" + args[0].sql + ", " + tz + ")", K::kTimestamp);
    case K::kDate:
      return MakeValue("bq.local_to_timestamp((" + args[0].sql + ")::timestamp, " + tz + ")",
                       K::kTimestamp);
    case K::kString:
    case K::kUnknown:
      if (args.size() == 1) {
        return MakeValue(
            TimestampFromText(args[0].sql, from == K::kString && ast::IsRowFree(*call.args[0])),
            K::kTimestamp);
      }
      return MakeValue("bq.local_to_timestamp(CAST(" + args[0].sql + " AS timestamp), " + tz + ")",
                       K::kTimestamp);
    default:
      Expect(args[0], *call.args[0], {K::kString, K::kDate, K::kDatetime, K::kTimestamp},
             "TIMESTAMP");
  }
  return args[0];
}

Value EmitDatetimeFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (args.size() == 6) {
    std::string sql = "make_timestamp(";
    for (std::size_t i = 0; i < 6; ++i) {
      sql +=
          (i ? ", " : "") + ("(" + args[i].sql + ")::" + (i == 5 ? "double precision" : "integer"));
    }
    return MakeValue(sql + ")", K::kDatetime);
  }
  RefuseSpecialDateTimeLiteral(*call.args[0], K::kDatetime, call.args[0]->span);
  const K from = args[0].type ? args[0].type->kind : K::kUnknown;
  if (args.size() == 2 && from == K::kDate) {
    return MakeValue("(" + args[0].sql + " + " + args[1].sql + ")", K::kDatetime);
  }
  if (from == K::kTimestamp) {
    return MakeValue("(" + args[0].sql + " AT TIME ZONE " + Tz(args, 1) + ")", K::kDatetime);
  }
  if (args.size() != 1) Fail(DiagCode::kType, call.span, "DATETIME: unsupported arguments");
  if (from == K::kDatetime) return args[0];
  return MakeValue("CAST(" + args[0].sql + " AS timestamp)", K::kDatetime);
}

Value EmitDateFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (args.size() == 3) {
    return MakeValue("make_date((" + args[0].sql + ")::integer, (" + args[1].sql + ")::integer, (" +
                         args[2].sql + ")::integer)",
                     K::kDate);
  }
  RefuseSpecialDateTimeLiteral(*call.args[0], K::kDate, call.args[0]->span);
  const K from = args[0].type ? args[0].type->kind : K::kUnknown;
  if (from == K::kTimestamp) {
    return MakeValue("((" + args[0].sql + " AT TIME ZONE " + Tz(args, 1) + "))::date", K::kDate);
  }
  if (args.size() != 1) Fail(DiagCode::kType, call.span, "DATE: unsupported arguments");
  if (from == K::kDate) return args[0];
  return MakeValue("CAST(" + args[0].sql + " AS date)", K::kDate);
}

Value EmitTimestampMicros(Emitter& e, const ast::Call& c) {
  return FromEpoch(e, c, "microsecond");
}

Value EmitTimestampMillis(Emitter& e, const ast::Call& c) {
  return FromEpoch(e, c, "millisecond");
}

Value EmitTimestampSeconds(Emitter& e, const ast::Call& c) {
  return FromEpoch(e, c, "second");
}

Value EmitUnixMicros(Emitter& e, const ast::Call& c) {
  return ToEpoch(e, c, " * 1000000");
}

Value EmitUnixMillis(Emitter& e, const ast::Call& c) {
  return ToEpoch(e, c, " * 1000");
}

Value EmitUnixSeconds(Emitter& e, const ast::Call& c) {
  return ToEpoch(e, c, "");
}

Value EmitUnixDate(Emitter& e, const ast::Call& call) {
  const Value d = e.EmitExpr(*call.args[0]);
  return MakeValue("((" + d.sql + ") - DATE '1970-01-01')::bigint", K::kInt64);
}

Value EmitFormatTimestamp(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  Expect(args[1], *call.args[1], {K::kTimestamp}, "FORMAT_TIMESTAMP");
  const std::string tz = Tz(args, 2);
  const std::string& t = args[1].sql;
  TimeFormatInput in;
  in.local_sql = "(" + t + " AT TIME ZONE " + tz + ")";
  in.epoch_sql = "floor(EXTRACT(EPOCH FROM " + t + "))::bigint";
  in.offset_sql = args.size() > 2 ? "EXTRACT(EPOCH FROM ((" + t + " AT TIME ZONE " + tz + ") - (" +
                                        t + " AT TIME ZONE 'UTC')))::int"
                                  : "0";
  in.zone_name_sql = args.size() > 2 ? "bq.utc_offset_name(" + in.offset_sql + ")" : "'UTC'";
  return FormatTime(call, "FORMAT_TIMESTAMP", in);
}

Value EmitFormatDate(Emitter& e, const ast::Call& call) {
  return FormatCivil(e, call, K::kDate, "FORMAT_DATE");
}

Value EmitFormatDatetime(Emitter& e, const ast::Call& call) {
  return FormatCivil(e, call, K::kDatetime, "FORMAT_DATETIME");
}

Value EmitFormatTime(Emitter& e, const ast::Call& call) {
  return FormatCivil(e, call, K::kTime, "FORMAT_TIME");
}

Value EmitParseTimestamp(Emitter& e, const ast::Call& call) {
  const std::string zone = call.args.size() > 2 ? e.EmitExpr(*call.args[2]).sql : "'UTC'";
  return MakeValue(ParseTime(e, call, "PARSE_TIMESTAMP", zone), K::kTimestamp);
}

Value EmitParseDate(Emitter& e, const ast::Call& call) {
  return MakeValue("(" + ParseTime(e, call, "PARSE_DATE", "'UTC'") + " AT TIME ZONE 'UTC')::date",
                   K::kDate);
}

Value EmitParseDatetime(Emitter& e, const ast::Call& call) {
  return MakeValue("(" + ParseTime(e, call, "PARSE_DATETIME", "'UTC'") + " AT TIME ZONE 'UTC')",
                   K::kDatetime);
}

Value EmitParseTime(Emitter& e, const ast::Call& call) {
  return MakeValue("(" + ParseTime(e, call, "PARSE_TIME", "'UTC'") + " AT TIME ZONE 'UTC')::time",
                   K::kTime);
}

// bq.generate_timestamp_array / bq.generate_date_array check the element cap of size_caps.h at
// run time.
Value EmitGenerateTimestampArray(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (!call.args[2]->Is<ast::Interval>()) {
    Fail(DiagCode::kType, call.args[2]->span, "GENERATE_TIMESTAMP_ARRAY expects INTERVAL n unit");
  }
  CheckGenerateTimeArrayCap(call, false);
  return MakeValue("bq.generate_timestamp_array(CAST(" + args[0].sql + " AS timestamptz), CAST(" +
                       args[1].sql + " AS timestamptz), " + args[2].sql + ")",
                   Type::Array(Type::Scalar(K::kTimestamp)));
}

Value EmitGenerateDateArray(Emitter& e, const ast::Call& call) {
  CheckGenerateTimeArrayCap(call, true);
  const auto args = EmitArgs(e, call);
  return MakeValue("bq.generate_date_array(CAST(" + args[0].sql + " AS date), CAST(" + args[1].sql +
                       " AS date)" + (args.size() > 2 ? ", " + args[2].sql : "") + ")",
                   Type::Array(Type::Scalar(K::kDate)));
}

Value Emitter::EmitExtract(const ast::Extract& ex) {
  const Value x = EmitExpr(*ex.operand);
  const std::string part = Upper(ex.part.name);
  const std::string tz = ex.time_zone ? EmitExpr(*ex.time_zone).sql : "'UTC'";
  const std::string l =
      IsKind(x.type, K::kTimestamp) ? "(" + x.sql + " AT TIME ZONE " + tz + ")" : x.sql;
  auto field = [&l](const char* f) { return "EXTRACT(" + std::string(f) + " FROM " + l + ")"; };
  auto int_value = [](const std::string& sql) {
    return MakeValue("(" + sql + ")::bigint", K::kInt64);
  };
  if (part == "DATE") return MakeValue("(" + l + ")::date", K::kDate);
  if (part == "TIME") return MakeValue("(" + l + ")::time", K::kTime);
  if (part == "DATETIME") return MakeValue("(" + l + ")::timestamp", K::kDatetime);
  if (part == "MICROSECOND") return int_value("floor(" + field("MICROSECONDS") + ") % 1000000");
  if (part == "MILLISECOND") return int_value("floor(" + field("MILLISECONDS") + ") % 1000");
  if (part == "SECOND") return int_value("floor(" + field("SECOND") + ")");
  if (part == "DAYOFWEEK") return int_value(field("DOW") + " + 1");
  if (part == "DAYOFYEAR") return int_value(field("DOY"));
  if (part == "ISOWEEK") return int_value(field("WEEK"));
  if (part == "ISOYEAR") return int_value(field("ISOYEAR"));
  if (part == "WEEK") {
    // Week number with weeks starting on the given day (Sunday by default); days before the
    // first such day are week 0.
    const int d = ex.week_start ? [&] {
      static constexpr std::string_view kDays[] = {"SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY",
                                                   "THURSDAY", "FRIDAY", "SATURDAY"};
      for (int i = 0; i < 7; ++i) {
        if (kDays[i] == Upper(ex.week_start->name)) return i;
      }
      Fail(DiagCode::kSyntax, ex.week_start->span, "WEEK(...) expects a weekday such as MONDAY");
    }() : 0;
    return int_value("(" + field("DOY") + "::integer + 6 - ((" + field("DOW") + "::integer + " +
                     std::to_string(7 - d) + ") % 7)) / 7");
  }
  for (const char* simple : {"MINUTE", "HOUR", "DAY", "MONTH", "QUARTER", "YEAR"}) {
    if (part == simple) return int_value(field(simple));
  }
  Fail(DiagCode::kUnsupported, ex.part.span, "unsupported EXTRACT part " + part);
}

Value EmitLastDay(Emitter& e, const ast::Call& call) {
  const std::vector<Value> args = {e.EmitExpr(*call.args[0])};  // args[1] is a date part
  RequireArg(call, args, 0, {K::kDate, K::kDatetime}, "DATE or DATETIME");
  const std::string d = "(" + args[0].sql + ")::date";
  const DatePart part = call.args.size() > 1 ? ReadDatePart(*call.args[1]) : DatePart{"MONTH"};
  std::string sql;
  if (part.name == "MONTH" || part.name == "QUARTER" || part.name == "YEAR") {
    const std::string unit = part.name == "MONTH"     ? "month"
                             : part.name == "QUARTER" ? "quarter"
                                                      : "year";
    sql = "(date_trunc('" + unit + "', " + d + ") + interval '1 " +
          (unit == "quarter" ? std::string("month") : unit) + "'" +
          (unit == "quarter" ? " * 3" : "") + " - interval '1 day')::date";
  } else if (part.name == "WEEK" || part.name == "ISOWEEK") {
    // The last day of the week starting on Sunday (WEEK), Monday (ISOWEEK) or WEEK(<day>).
    const int start = part.name == "ISOWEEK" ? 1 : (part.weekday < 0 ? 0 : part.weekday);
    sql = "(" + d + " + (6 - ((EXTRACT(DOW FROM " + d + ")::int - " + std::to_string(start) +
          " + 7) % 7)))";
  } else if (part.name == "ISOYEAR") {
    sql = "(make_date(EXTRACT(ISOYEAR FROM " + d + ")::int + 1, 1, 4) - (EXTRACT(ISODOW FROM " +
          "make_date(EXTRACT(ISOYEAR FROM " + d + ")::int + 1, 1, 4))::int))";
  } else {
    Fail(DiagCode::kType, call.args[1]->span, "LAST_DAY does not support part " + part.name);
  }
  return MakeValue(sql, K::kDate);
}

Value EmitDateFromUnixDate(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kInt64}, "INT64");
  return MakeValue("(DATE '1970-01-01' + (" + args[0].sql + ")::integer)", K::kDate);
}

}  // namespace lqe::pg
