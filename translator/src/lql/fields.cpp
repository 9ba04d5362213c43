#include "lql/fields.h"

#include <algorithm>
#include <cctype>

namespace lqe::lql {
namespace {

char Fold(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t cost = Fold(a[i - 1]) == Fold(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> FieldNames(const Type& record) {
  std::vector<std::string> names;
  for (const auto& f : record.fields) {
    names.push_back(f.name);
  }
  return names;
}

std::string Join(const std::vector<std::string>& parts, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < parts.size(); ++i) {
    if (i) {
      out += '.';
    }
    out += parts[i];
  }
  return out;
}

bool SameFolded(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (Fold(a[i]) != Fold(b[i])) {
      return false;
    }
  }
  return true;
}

// Every field path under `type` whose last segments are `suffix` (bounded: at most 8 matches).
void FindBySuffix(const Type& type, const std::vector<std::string>& suffix,
                  std::vector<std::string>& prefix, std::vector<std::string>& matches) {
  if (type.kind != TypeKind::kRecord || matches.size() >= 8) {
    return;
  }
  for (const auto& f : type.fields) {
    prefix.push_back(f.name);
    if (prefix.size() > suffix.size()) {
      bool same = true;
      for (std::size_t i = 0; i < suffix.size() && same; ++i) {
        same = SameFolded(prefix[prefix.size() - suffix.size() + i], suffix[i]);
      }
      if (same) {
        matches.push_back(Join(prefix, prefix.size()));
      }
    }
    FindBySuffix(*f.type, suffix, prefix, matches);
    prefix.pop_back();
  }
}

// "metadata.request.path" for a missing top-level "path" or a near-miss at the failing level.
std::string Suggest(const CteInfo& cte, const std::vector<std::string>& path,
                    const ResolvedField& so_far, const Type& record) {
  const std::string close = ClosestName(path[so_far.names.size()], FieldNames(record));
  if (!close.empty()) {
    std::vector<std::string> parts = so_far.names;
    parts.push_back(close);
    for (std::size_t i = so_far.names.size() + 1; i < path.size(); ++i) {
      parts.push_back(path[i]);
    }
    return Join(parts, parts.size());
  }
  if (!so_far.names.empty()) {
    return "";
  }
  // A path written without its parents: status_code for metadata.response.status_code.
  std::vector<std::string> matches;
  std::vector<std::string> prefix;
  FindBySuffix(*cte.row, path, prefix, matches);
  if (matches.size() != 1) {
    return "";
  }
  return matches.front().starts_with("metadata.") ? "m." + matches.front().substr(9)
                                                  : matches.front();
}

}  // namespace

std::string ShortTypeName(const Type& type) {
  if (type.kind == TypeKind::kRecord) {
    return "RECORD";
  }
  if (type.kind == TypeKind::kArray) {
    return "ARRAY<" + ShortTypeName(*type.element) + ">";
  }
  return TypeName(type);
}

std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = EditDistance(name, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

ResolvedField ResolveField(const CteInfo& cte, const std::vector<std::string>& path,
                           SourceSpan span) {
  ResolvedField field;
  field.type = cte.row;
  for (const auto& part : path) {
    if (field.type->kind != TypeKind::kRecord) {
      const std::string message = "field \"" + Join(path, path.size()) + "\"" + " not found in " +
                                  cte.name + ": " + field.display + " is " +
                                  ShortTypeName(*field.type) + ", not a record";
      throw LqlError{MakeDiag(DiagCode::kUnknownName, message, span.begin, span.end - span.begin)};
    }
    const StructField* next = field.type->FindField(part);
    if (!next) {
      Diagnostic d =
          MakeDiag(DiagCode::kUnknownName,
                   "field \"" + Join(path, path.size()) + "\"" + " not found in " + cte.name,
                   span.begin, span.end - span.begin);
      const std::string suggestion = Suggest(cte, path, field, *field.type);
      if (!suggestion.empty()) {
        d.hint = "Did you mean " + suggestion + "?";
      }
      throw LqlError{std::move(d)};
    }
    field.names.push_back(next->name);
    field.display = Join(field.names, field.names.size());
    field.type = next->type;
  }
  return field;
}

}  // namespace lqe::lql
