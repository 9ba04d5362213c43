// String and byte functions. CONCAT is NULL when any argument is NULL (BigQuery), so it is
// emitted with || rather than PG's NULL-skipping concat(). ASCII, CHR, TRANSLATE, FROM_BASE64 and
// INSTR are bq.* helpers (migrations 065, 066); GENERATE_UUID is a random version 4 UUID.
#include "lqe/base/ascii.h"
#include "pg/function_table.h"
#include "pg/quoting.h"
#include "pg/size_caps.h"
#include "pg/text_render.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

std::string Text(const Value& v) {
  return BigQueryText(v);
}

std::string Int(const Value& v) {
  return "(" + v.sql + ")::integer";
}

std::string Bytes(const Value& v) {
  return IsKind(v.type, K::kBytes) ? v.sql : "convert_to(" + v.sql + ", 'UTF8')";
}

Value Int4(std::string sql) {
  Value v = MakeValue(std::move(sql), K::kInt64);
  v.loose_int = true;  // PG returns integer here
  return v;
}

}  // namespace

Value EmitConcat(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  const bool bytes = IsKind(args[0].type, K::kBytes);
  std::string sql;
  for (const auto& a : args) sql += (sql.empty() ? "" : " || ") + (bytes ? a.sql : Text(a));
  return MakeValue("(" + sql + ")", bytes ? K::kBytes : K::kString);
}

Value EmitStrpos(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return Int4("strpos(" + JoinSql(args) + ")");
}

Value EmitStartsWith(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("starts_with(" + JoinSql(args) + ")", K::kBool);
}

Value EmitEndsWith(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue(
      "(right(" + args[0].sql + ", length(" + args[1].sql + ")) = " + args[1].sql + ")", K::kBool);
}

Value EmitContainsSubstr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("(strpos(lower(" + Text(args[0]) + "), lower(" + args[1].sql + ")) > 0)",
                   K::kBool);
}

Value EmitCaseFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  if (!IsKind(args[0].type, K::kString) && !IsKind(args[0].type, K::kUnknown)) {
    Fail(DiagCode::kType, call.args[0]->span,
         Upper(call.name.name) + " expects STRING, got " + TypeName(*args[0].type));
  }
  // bq.upper / bq.lower (migration 065): Unicode's one-to-many mappings (upper('ß') is 'SS').
  return MakeValue("bq." + LowerName(call) + "(" + args[0].sql + ")", K::kString);
}

Value EmitLength(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return Int4("length(" + args[0].sql + ")");
}

Value EmitByteLength(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return Int4("octet_length(" + args[0].sql + ")");
}

Value EmitSubstr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  // bq.substr gives BigQuery's meaning to positions <= 0 (counted from the end).
  return MakeValue("bq.substr(" + Text(args[0]) + ", (" + args[1].sql + ")::bigint" +
                       (args.size() > 2 ? ", (" + args[2].sql + ")::bigint" : std::string()) + ")",
                   K::kString);
}

// BigQuery's one-argument TRIM/LTRIM/RTRIM strip Unicode White_Space (tabs, newlines, NBSP, the
// U+2000 spaces, ...), as the ZetaSQL reference does (oracle case trim-unicode-whitespace);
// PostgreSQL's strip only ' '.
constexpr const char* kUnicodeWhiteSpace =
    "E'\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000\\u2001\\u2002\\u2003"
    "\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200a\\u2028\\u2029\\u202f"
    "\\u205f\\u3000'";

Value EmitTrimFn(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  const std::string n = LowerName(call);
  const bool whitespace = args.size() == 1 && !IsKind(args[0].type, K::kBytes);
  const std::string chars = whitespace ? std::string(", ") + kUnicodeWhiteSpace : "";
  return MakeValue((n == "trim" ? std::string("btrim") : n) + "(" + JoinSql(args) + chars + ")",
                   K::kString);
}

Value EmitReplace(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("replace(" + JoinSql(args) + ")", K::kString);
}

Value EmitSplit(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("bq.split(" + args[0].sql + ", " + (args.size() > 1 ? args[1].sql : "','") + ")",
                   Type::Array(Type::Scalar(K::kString)));
}

// bq.lpad / bq.rpad / bq.repeat check the size caps of size_caps.h at run time.
Value EmitPad(Emitter& e, const ast::Call& call) {
  CheckPadCap(call);
  const auto args = EmitArgs(e, call);
  return MakeValue("bq." + LowerName(call) + "(" + args[0].sql + ", (" + args[1].sql + ")::bigint" +
                       (args.size() > 2 ? ", " + args[2].sql : std::string()) + ")",
                   K::kString);
}

Value EmitRepeat(Emitter& e, const ast::Call& call) {
  CheckRepeatCap(call);
  const auto args = EmitArgs(e, call);
  return MakeValue("bq.repeat(" + args[0].sql + ", (" + args[1].sql + ")::bigint)", K::kString);
}

Value EmitReverse(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("reverse(" + args[0].sql + ")", K::kString);
}

Value EmitLeftRight(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue(LowerName(call) + "(" + args[0].sql + ", " + Int(args[1]) + ")", K::kString);
}

Value EmitInitcap(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  // PG's initcap starts a word after any non-alphanumeric character; BigQuery's after its
  // delimiter set only (bq.initcap, migration 065).
  return MakeValue("bq.initcap(" + JoinSql(args) + ")", K::kString);
}

Value EmitToHex(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("encode(" + Bytes(args[0]) + ", 'hex')", K::kString);
}

Value EmitFromHex(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("decode(" + args[0].sql + ", 'hex')", K::kBytes);
}

Value EmitSha(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue(LowerName(call) + "(" + Bytes(args[0]) + ")", K::kBytes);
}

Value EmitMd5(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  // PG md5() gives hex text; BigQuery's MD5 gives the 16 bytes.
  return MakeValue("decode(md5(" + args[0].sql + "), 'hex')", K::kBytes);
}

Value EmitToBase64(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  // PG's base64 breaks lines every 76 characters; BigQuery's does not.
  return MakeValue("translate(encode(" + Bytes(args[0]) + ", 'base64'), E'\\n', '')", K::kString);
}

Value EmitAscii(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kString, K::kBytes}, "STRING or BYTES");
  if (IsKind(args[0].type, K::kBytes)) {
    return MakeValue("CASE WHEN length(" + args[0].sql + ") = 0 THEN 0 ELSE get_byte(" +
                         args[0].sql + ", 0) END::bigint",
                     K::kInt64);
  }
  return MakeValue("bq.ascii(" + args[0].sql + ")", K::kInt64);
}

Value EmitChr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kInt64}, "INT64");
  return MakeValue("bq.chr(" + AsBigint(args[0]) + ")", K::kString);
}

Value EmitCodePointsToString(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("bq.code_points_to_string(" + args[0].sql + ")", K::kString);
}

Value EmitToCodePoints(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kString, K::kBytes}, "STRING or BYTES");
  if (IsKind(args[0].type, K::kBytes)) {
    return MakeValue("ARRAY(SELECT get_byte(" + args[0].sql +
                         ", _i - 1)::bigint FROM generate_series(1, length(" + args[0].sql +
                         ")) AS _i ORDER BY _i)",
                     Type::Array(Type::Scalar(K::kInt64)));
  }
  return MakeValue("ARRAY(SELECT ascii(substr(" + args[0].sql +
                       ", _i, 1))::bigint FROM generate_series(1, length(" + args[0].sql +
                       ")) AS _i ORDER BY _i)",
                   Type::Array(Type::Scalar(K::kInt64)));
}

Value EmitTranslate(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  for (std::size_t i = 0; i < 3; ++i) RequireArg(call, args, i, {K::kString}, "STRING");
  return MakeValue("bq.translate(" + JoinSql(args) + ")", K::kString);
}

Value EmitFromBase64(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kString}, "STRING");
  return MakeValue("bq.from_base64(" + args[0].sql + ")", K::kBytes);
}

Value EmitInstr(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kString, K::kBytes}, "STRING or BYTES");
  RequireArg(call, args, 1, {K::kString, K::kBytes}, "STRING or BYTES");
  const K k0 = KindOf(args[0]);
  const K k1 = KindOf(args[1]);
  if (k0 != K::kUnknown && k1 != K::kUnknown && k0 != k1) {
    Fail(DiagCode::kType, call.args[1]->span,
         "INSTR expects two STRING or two BYTES arguments, got " + TypeName(*args[0].type) +
             " and " + TypeName(*args[1].type));
  }
  return MakeValue("bq.instr(" + args[0].sql + ", " + args[1].sql + ", " +
                       BigintArgOr(call, args, 2, "1") + ", " + BigintArgOr(call, args, 3, "1") +
                       ")",
                   K::kInt64);
}

Value EmitNormalize(Emitter& e, const ast::Call& call) {
  const std::vector<Value> args = {e.EmitExpr(*call.args[0])};  // args[1] is a mode name
  RequireArg(call, args, 0, {K::kString}, "STRING");
  std::string mode = "NFC";
  if (call.args.size() > 1) {
    const ast::Expr& m = *call.args[1];
    mode = m.Is<ast::Path>() && m.As<ast::Path>().parts.size() == 1
               ? Upper(m.As<ast::Path>().parts[0].name)
               : "";
    if (mode != "NFC" && mode != "NFKC" && mode != "NFD" && mode != "NFKD") {
      Fail(DiagCode::kType, m.span, "NORMALIZE expects a mode of NFC, NFKC, NFD or NFKD");
    }
  }
  return MakeValue("normalize(" + args[0].sql + ", " + mode + ")", K::kString);
}

Value EmitGenerateUuid(Emitter&, const ast::Call&) {
  return MakeValue("(gen_random_uuid())::text", K::kString);
}

}  // namespace lqe::pg
