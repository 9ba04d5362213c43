// String and byte functions. CONCAT is NULL when any argument is NULL (BigQuery), so it is
// emitted with || rather than PG's NULL-skipping concat().
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

std::string LowerName(const ast::Call& call) {
  std::string n = Upper(call.name.name);
  for (auto& c : n) c = ascii::ToLower(c);
  return n;
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

}  // namespace lqe::pg
