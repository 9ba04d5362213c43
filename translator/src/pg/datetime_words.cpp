#include "pg/datetime_words.h"

#include <algorithm>
#include <string>

#include "lqe/base/ascii.h"
#include "translate_error.h"

namespace lqe::pg {

std::string_view PgSpecialDateTimeWord(std::string_view text) {
  // PostgreSQL 15's special values; '+infinity' is 'infinity' after the sign.
  static constexpr std::string_view kWords[] = {"infinity",  "now",   "today",   "tomorrow",
                                                "yesterday", "epoch", "allballs"};
  std::size_t i = 0;
  while (i < text.size()) {
    if (!ascii::IsAlpha(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && ascii::IsAlpha(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    for (const std::string_view special : kWords) {
      if (ascii::EqualsIgnoreCase(word, special)) {
        const bool signed_word = i > 0 && (text[i - 1] == '-' || text[i - 1] == '+');
        return signed_word ? text.substr(i - 1, end - i + 1) : word;
      }
    }
    i = end;
  }
  return {};
}

namespace {

bool IsDateTimeKind(TypeKind k) {
  return k == TypeKind::kDate || k == TypeKind::kDatetime || k == TypeKind::kTime ||
         k == TypeKind::kTimestamp;
}

// The range BigQuery does have, and the function for "now", per kind.
std::string Hint(TypeKind k) {
  switch (k) {
    case TypeKind::kDate:
      return "DATE runs from '0001-01-01' to '9999-12-31'; today is CURRENT_DATE().";
    case TypeKind::kDatetime:
      return "DATETIME runs from '0001-01-01 00:00:00' to '9999-12-31 23:59:59.999999'; now is "
             "CURRENT_DATETIME().";
    case TypeKind::kTime:
      return "TIME runs from '00:00:00' to '23:59:59.999999'; now is CURRENT_TIME().";
    default:
      return "TIMESTAMP runs from '0001-01-01 00:00:00+00' to '9999-12-31 23:59:59.999999+00'; now "
             "is CURRENT_TIMESTAMP().";
  }
}

}  // namespace

void RefuseSpecialDateTimeLiteral(const ast::Expr& operand, TypeKind target, ast::SourceSpan span) {
  if (!IsDateTimeKind(target) || !operand.Is<ast::Literal>()) return;
  const auto& lit = operand.As<ast::Literal>();
  const bool text =
      lit.literal_kind == ast::Literal::Kind::kString ||
      (lit.literal_kind == ast::Literal::Kind::kTyped && IsDateTimeKind(lit.typed_kind));
  if (!text) return;
  const std::string_view word = PgSpecialDateTimeWord(lit.text);
  if (word.empty()) return;
  const std::string type = TypeName(*Type::Scalar(target));
  // The whole literal when short and printable (as BigQuery quotes it), else the word alone.
  const bool printable = std::none_of(lit.text.begin(), lit.text.end(),
                                      [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  const std::string shown = lit.text.size() <= 64 && printable ? lit.text : std::string(word);
  translator::Fail(DiagCode::kType, span, "invalid " + type + " '" + shown + "'",
                   "BigQuery has no '" + std::string(word) + "' value: " + Hint(target));
}

}  // namespace lqe::pg
