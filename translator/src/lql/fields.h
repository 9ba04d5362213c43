// Resolves an LQL field path against a CTE's row type, with "did you mean" hints.
#pragma once

#include <string>
#include <vector>

#include "lqe/lql.h"
#include "lql/parse_util.h"

namespace lqe::lql {

struct ResolvedField {
  std::vector<std::string> names;  // declared names, e.g. {"metadata", "response", "status_code"}
  TypePtr type;
  std::string display;  // "metadata.response.status_code"
  // Where the path steps into an element of a REPEATED record, as counts of names: {1, 2} for
  // metadata.response.status_code (metadata and response are repeated). Such a field is read
  // through UNNEST, as BigQuery requires.
  std::vector<std::size_t> repeated_ends;
};

// The element record of a REPEATED record (ARRAY<STRUCT>), else null.
const Type* RepeatedRecordElement(const Type& type);

// Throws LqlError (kUnknownName) with the span of the path when a segment is missing or sits
// inside a non-record. Field paths contain only [A-Za-z0-9._], so messages quote them verbatim.
ResolvedField ResolveField(const CteInfo& cte, const std::vector<std::string>& path,
                           SourceSpan span);

// TypeName, but a record is just RECORD (its fields would make messages unreadable).
std::string ShortTypeName(const Type& type);

// The closest of `candidates` to `name` (case-insensitive edit distance), or "" if none is close.
std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace lqe::lql
