#include "lqe/format_postgres.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "names.h"

namespace lqe {
namespace {

struct Token {
  enum class Kind : std::uint8_t { kWord, kOpen, kClose, kComma, kOther };
  Kind kind = Kind::kOther;
  std::string_view text;
  bool space_before = false;  // the input had whitespace before it
};

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || static_cast<unsigned char>(c) >= 0x80;
}

// The end of the quoted run starting at `i` (sql[i] is the quote). A doubled quote is an escaped
// one; in E'...' strings a backslash escapes the next character.
std::size_t QuotedEnd(std::string_view sql, std::size_t i, bool backslash_escapes) {
  const char quote = sql[i];
  for (std::size_t j = i + 1; j < sql.size(); ++j) {
    if (backslash_escapes && sql[j] == '\\') {
      ++j;
    } else if (sql[j] == quote) {
      if (j + 1 < sql.size() && sql[j + 1] == quote) {
        ++j;
      } else {
        return j + 1;
      }
    }
  }
  return sql.size();
}

// $tag$ ... $tag$; 0 when `i` does not start a dollar quote ($1 is a parameter).
std::size_t DollarQuotedEnd(std::string_view sql, std::size_t i) {
  std::size_t j = i + 1;
  while (j < sql.size() && sql[j] != '$' && IsWordChar(sql[j])) ++j;
  if (j >= sql.size() || sql[j] != '$') return 0;
  const std::string_view tag = sql.substr(i, j - i + 1);
  const std::size_t close = sql.find(tag, j + 1);
  return close == std::string_view::npos ? sql.size() : close + tag.size();
}

std::vector<Token> Tokenize(std::string_view sql) {
  std::vector<Token> tokens;
  bool space = false;
  std::size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    if (IsSpace(c)) {
      space = true;
      ++i;
      continue;
    }
    Token t;
    t.space_before = space;
    space = false;
    std::size_t end = i + 1;
    if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      end = sql.find('\n', i);
      end = end == std::string_view::npos ? sql.size() : end;
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      end = sql.find("*/", i + 2);
      end = end == std::string_view::npos ? sql.size() : end + 2;
    } else if (c == '\'' || c == '"') {
      end = QuotedEnd(sql, i, false);
    } else if ((c == 'E' || c == 'e') && i + 1 < sql.size() && sql[i + 1] == '\'' &&
               (i == 0 || !IsWordChar(sql[i - 1]))) {
      end = QuotedEnd(sql, i + 1, true);
    } else if (c == '$' && DollarQuotedEnd(sql, i) != 0) {
      end = DollarQuotedEnd(sql, i);
    } else if (IsWordChar(c)) {
      while (end < sql.size() && IsWordChar(sql[end])) ++end;
      t.kind = Token::Kind::kWord;
    } else if (c == '(') {
      t.kind = Token::Kind::kOpen;
    } else if (c == ')') {
      t.kind = Token::Kind::kClose;
    } else if (c == ',') {
      t.kind = Token::Kind::kComma;
    }
    t.text = sql.substr(i, end - i);
    tokens.push_back(t);
    i = end;
  }
  return tokens;
}

bool Is(const Token* t, std::string_view word) {
  return t && t->kind == Token::Kind::kWord && names::EqualsIgnoreCase(t->text, word);
}

bool IsAnyOf(const Token* t, std::initializer_list<std::string_view> words) {
  for (const auto w : words) {
    if (Is(t, w)) return true;
  }
  return false;
}

class Formatter {
 public:
  explicit Formatter(std::string_view sql) : tokens_(Tokenize(sql)) {}

  std::string Run() {
    for (std::size_t i = 0; i < tokens_.size(); ++i) Emit(i);
    return out_;
  }

 private:
  struct Paren {
    bool block = false;  // a subquery: its clauses break lines
  };

  const Token* At(std::size_t i) const { return i < tokens_.size() ? &tokens_[i] : nullptr; }
  bool AtBlockLevel() const { return parens_.empty() || parens_.back().block; }
  int Indent() const {
    int n = 0;
    for (const auto& p : parens_) n += p.block ? 1 : 0;
    return n;
  }

  void NewLine() {
    if (line_start_) return;  // already at the start of a line
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    out_ += '\n';
    out_.append(static_cast<std::size_t>(Indent()) * 2, ' ');
    line_start_ = true;
  }

  // Whether token i starts a clause that goes on its own line.
  bool StartsClause(std::size_t i) const {
    const Token* t = At(i);
    const Token* prev = i > 0 ? At(i - 1) : nullptr;
    const Token* next = At(i + 1);
    if (!t || t->kind != Token::Kind::kWord) return false;
    if (prev && prev->text == ".") return false;  // a qualified name, not a keyword
    if (IsAnyOf(t, {"SELECT", "WHERE", "HAVING", "WINDOW", "LIMIT", "OFFSET", "UNION", "INTERSECT",
                    "EXCEPT"})) {
      return !(Is(t, "SELECT") && prev &&
               (IsAnyOf(prev, {"UNION", "INTERSECT", "EXCEPT", "ALL", "DISTINCT"})));
    }
    if (Is(t, "WITH")) return !Is(next, "ORDINALITY");
    if (Is(t, "FROM")) return !Is(prev, "DISTINCT");  // IS [NOT] DISTINCT FROM
    if (IsAnyOf(t, {"GROUP", "ORDER"})) return Is(next, "BY");
    if (Is(t, "JOIN")) {
      return !IsAnyOf(prev, {"LEFT", "RIGHT", "FULL", "INNER", "CROSS", "OUTER", "NATURAL"});
    }
    if (IsAnyOf(t, {"LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL"})) {
      return IsAnyOf(next, {"JOIN", "OUTER", "INNER", "LEFT", "RIGHT", "FULL"}) &&
             !IsAnyOf(prev, {"NATURAL"});
    }
    return false;
  }

  void Append(const Token& t) {
    if (!line_start_ && t.space_before && !out_.empty()) out_ += ' ';
    out_ += t.text;
    line_start_ = false;
  }

  void Emit(std::size_t i) {
    const Token& t = tokens_[i];
    switch (t.kind) {
      case Token::Kind::kOpen: {
        Append(t);
        const bool block = IsAnyOf(At(i + 1), {"SELECT", "WITH", "VALUES"});
        parens_.push_back({block});
        with_list_.push_back(false);
        if (block) NewLine();
        after_block_close_ = false;
        return;
      }
      case Token::Kind::kClose: {
        const bool block = !parens_.empty() && parens_.back().block;
        if (!parens_.empty()) {
          parens_.pop_back();
          with_list_.pop_back();
        }
        if (block) NewLine();
        Append(t);
        after_block_close_ = block;
        return;
      }
      case Token::Kind::kComma:
        Append(t);
        // WITH a AS (...), b AS (...): one CTE per block.
        if (after_block_close_ && AtBlockLevel() && with_list_.back()) NewLine();
        after_block_close_ = false;
        return;
      default:
        break;
    }
    if (AtBlockLevel() && StartsClause(i)) {
      NewLine();
      with_list_.back() = Is(&t, "WITH");
    }
    Append(t);
    after_block_close_ = false;
  }

  std::vector<Token> tokens_;
  std::vector<Paren> parens_;
  std::string out_;
  bool line_start_ = true;
  bool after_block_close_ = false;
  std::vector<bool> with_list_{false};  // per paren level: inside a WITH list
};

}  // namespace

std::string FormatPostgres(std::string_view sql) {
  return Formatter(sql).Run();
}

}  // namespace lqe
