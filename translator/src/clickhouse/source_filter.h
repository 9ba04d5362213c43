// Which sources of the OTEL relation a ClickHouse query reads, from its WHERE: source = 'x',
// source IN ('x', ...), and their AND / OR. The front end then compiles `logs` with only those
// sources' tables (pg/otel_branches.h), which PostgreSQL plans much faster than the nine-branch
// view. A condition it cannot read as such (an OR with anything else, NOT, a parameter) keeps
// every source, so the pruning never changes a result.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ast/query.h"

namespace lqe::clickhouse {

// Source names; nullopt is every source.
using SourceSet = std::optional<std::set<std::string>>;

// The sources a SELECT whose FROM is the one table `range` (its alias, or its name) returns
// rows of, by its WHERE (not yet lowered).
SourceSet WhereSources(const ast::Select& select, std::string_view range);

// The names of `sources` that name a source of the relation (others read nothing), in order;
// nullopt for every source.
std::optional<std::vector<std::string>> KnownSources(const SourceSet& sources);

// Restricts the OTEL relation read by each of `q`'s CTEs that passes its rows through unchanged
// (SELECT of columns by their own names FROM logs, WHERE only) to the sources its own WHERE and
// the rest of `q`'s reads of it leave (`q` lowered); with `every_read`, by its own WHERE only.
void RestrictOwnLogs(ast::Query& q, bool every_read = false);

// For a sandboxed endpoint: the same for the stored query's CTEs, with the consumer in place of
// the stored final SELECT (`stored` lowered, `consumer` not yet). Returns a text naming what was
// restricted ("" for nothing), for the stored translation's cache key.
std::string RestrictStoredLogs(ast::Query& stored, const ast::Query& consumer);

}  // namespace lqe::clickhouse
