#include "lql/fields.h"

#include <algorithm>

#include "lqe/base/ascii.h"
#include "lqe/base/suggest.h"

namespace lqe::lql {
namespace {

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

// Every field path under `type` whose last segments are `suffix` (bounded: at most 8 matches).
void FindBySuffix(const Type& type_or_array, const std::vector<std::string>& suffix,
                  std::vector<std::string>& prefix, std::vector<std::string>& matches) {
  const Type* element = RepeatedRecordElement(type_or_array);
  const Type& type = element ? *element : type_or_array;
  if (type.kind != TypeKind::kRecord || matches.size() >= 8) {
    return;
  }
  for (const auto& f : type.fields) {
    prefix.push_back(f.name);
    if (prefix.size() > suffix.size()) {
      bool same = true;
      for (std::size_t i = 0; i < suffix.size() && same; ++i) {
        same = ascii::EqualsIgnoreCase(prefix[prefix.size() - suffix.size() + i], suffix[i]);
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

const Type* RepeatedRecordElement(const Type& type) {
  if (type.kind == TypeKind::kArray && type.element && type.element->kind == TypeKind::kRecord) {
    return type.element.get();
  }
  return nullptr;
}

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
  return ClosestMatch(name, candidates, SuggestionLimit(name, 1));
}

ResolvedField ResolveField(const CteInfo& cte, const std::vector<std::string>& path,
                           SourceSpan span) {
  ResolvedField field;
  field.type = cte.row;
  for (const auto& part : path) {
    if (RepeatedRecordElement(*field.type) != nullptr) {
      field.repeated_ends.push_back(field.names.size());
      field.type = field.type->element;
    }
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
