// Fast path for rendering Postgres jsonb output (canonical JSON): copies it through, wrapping
// objects like WrapRecords, when its bytes already equal what Boost.JSON would re-serialise.
#pragma once

#include <string>
#include <string_view>

namespace lqe::gateway {

// Appends the compact, wrapped form of `text` and returns true, or returns false (having
// appended an unspecified partial output) when the text is not JSON in the canonical form
// this pass handles; the caller then rolls back and takes the exact, slower path.
bool AppendCanonicalJson(std::string& out, std::string_view text, bool wrap_records);

}  // namespace lqe::gateway
