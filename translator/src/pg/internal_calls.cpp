// The internal calls of functions/internal_call.h.
//
// lqe:JSONExtractRaw(j, k1, ...): ClickHouse's JSONExtractRaw. ClickHouse parses the document and
// writes the value at the key path back out: in document order, without whitespace, strings
// escaped its way, numbers in their shortest form. PostgreSQL's json type keeps the text as
// written (jsonb would reorder object keys), so the value is taken with json's #> and its tokens
// rewritten one by one: strings decoded and escaped again, numbers through float8, the rest
// (brackets, commas, true/false/null) kept; whitespace between tokens is dropped.
#include <string>

#include "functions/internal_call.h"
#include "pg/function_table.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;

// A JSON string, decoded (`decoded`, SQL text), written as ClickHouse writes it: \" \\ \b \f \n \r
// \t, \u00XX (upper-case hex) for the other control characters, \u2028 and \u2029; '/' and
// everything else as is.
std::string ClickHouseJsonString(const std::string& decoded) {
  // replace(replace(...(s, a1, b1)..., an, bn): the calls opened, then their arguments closed.
  std::string open = "replace(replace(";
  std::string close = ", " + QuoteLiteral("\\") + ", " + QuoteLiteral("\\\\") + "), '\"', " +
                      QuoteLiteral("\\\"") + ")";
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (int c = 1; c < 0x20; ++c) {
    std::string escape;
    switch (c) {
      case '\b':
        escape = "\\b";
        break;
      case '\f':
        escape = "\\f";
        break;
      case '\n':
        escape = "\\n";
        break;
      case '\r':
        escape = "\\r";
        break;
      case '\t':
        escape = "\\t";
        break;
      default:
        escape = std::string("\\u00") + kHex[c / 16] + kHex[c % 16];
    }
    open += "replace(";
    close.append(", chr(").append(std::to_string(c)).append("), ").append(QuoteLiteral(escape));
    close += ")";
  }
  open += "replace(replace(";
  close +=
      ", chr(8232), " + QuoteLiteral("\\u2028") + "), chr(8233), " + QuoteLiteral("\\u2029") + ")";
  return "'\"' || " + open + decoded + close + " || '\"'";
}

// A JSON number token `n` (SQL text) as ClickHouse writes it: an integer within Int64 or UInt64 as
// is (-0 is 0); any other number as the shortest double that reads back the same (float8's text),
// in fixed notation from 1e-6 up to 1e21 and as <digits>e<exponent> outside it (JavaScript's
// rule, without the '+').
std::string ClickHouseJsonNumber(const std::string& n) {
  const std::string d = "bq.safe_cast_float64(" + n + ")";
  return "CASE WHEN " + n + " ~ '^-?[0-9]{1,20}$' AND " + n +
         "::numeric BETWEEN -9223372036854775808 AND 18446744073709551615 THEN " + n +
         "::numeric::text WHEN " + d + " = 0 THEN CASE WHEN starts_with(" + n +
         ", '-') THEN '-0' ELSE '0' END WHEN abs(" + d + ") >= 1e21 OR abs(" + d +
         ") < 1e-6 THEN regexp_replace(" + d + "::text, 'e[+]?(-?)0*', " + QuoteLiteral("e\\1") +
         ") ELSE " + d + "::text::numeric::text END";
}

// PostgreSQL's text[] path literal of the key arguments (string literals).
std::string KeyPath(const ast::Call& call) {
  std::string arr = "{";
  for (std::size_t i = 1; i < call.args.size(); ++i) {
    const ast::Literal& key = StringLiteralArg(call, i, "JSON key");
    arr += i > 1 ? ",\"" : "\"";
    for (const char c : key.text) {
      if (c == '"' || c == '\\') arr += '\\';
      arr += c;
    }
    arr += '"';
  }
  return QuoteLiteral(arr + "}");
}

Value EmitJsonExtractRaw(Emitter& e, const ast::Call& call) {
  const Value doc = e.EmitExpr(*call.args[0]);
  if (!IsKind(doc.type, TypeKind::kString) && !IsKind(doc.type, TypeKind::kUnknown)) {
    Fail(DiagCode::kType, call.args[0]->span,
         "JSONExtractRaw expects a String, got " + TypeName(*doc.type));
  }
  const std::string j = "(" + doc.sql + ")";
  // NULL for text that is not JSON. On a constant, bq.try_jsonb folds while planning and the arm
  // with the cast is dropped unevaluated; ::text keeps a literal from being cast while parsing.
  const std::string raw = "CASE WHEN bq.try_jsonb(" + j + ") IS NOT NULL THEN (CAST(" + j +
                          "::text AS json) #> " + KeyPath(call) + ")::text END";
  // Tokens: a string (1), a number (2), anything else but whitespace (3).
  const std::string tokens =
      "regexp_matches(" + raw + ", " +
      QuoteLiteral(R"(("(?:[^"\\]|\\.)*")|(-?[0-9][-+.0-9eE]*)|([^[:space:]"0-9-]+))") +
      ", 'g') WITH ORDINALITY AS _t(m, n)";
  const std::string token =
      "CASE WHEN _t.m[1] IS NOT NULL THEN " + ClickHouseJsonString("(_t.m[1]::jsonb #>> '{}')") +
      " WHEN _t.m[2] IS NOT NULL THEN " + ClickHouseJsonNumber("_t.m[2]") + " ELSE _t.m[3] END";
  return MakeValue("CASE WHEN " + j + " IS NOT NULL THEN coalesce((SELECT string_agg(" + token +
                       ", '' ORDER BY _t.n) FROM " + tokens + "), '') END",
                   TypeKind::kString);
}

}  // namespace

Value EmitInternalCall(Emitter& e, const ast::Call& call) {
  if (call.name.name == functions::kJsonExtractRaw) return EmitJsonExtractRaw(e, call);
  Fail(DiagCode::kUnsupported, call.span, "unsupported function " + call.name.name);
}

}  // namespace lqe::pg
