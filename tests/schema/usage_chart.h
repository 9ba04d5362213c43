// The usage.api-counts chart as the rollup tests run it: translated against the seed catalogue
// and executed with its parameters bound as the gateway binds them.
#pragma once

#include <pqxx/pqxx>
#include <stdexcept>
#include <string>
#include <vector>

#include "lqe/catalog.h"
#include "lqe/regex.h"
#include "lqe/translate.h"
#include "support/test_database.h"

namespace lqe::testing {

struct PreparedChart {
  std::string sql;
  std::vector<BoundParam> params;
};

inline PreparedChart TranslateChart(const std::string& relative) {
  std::string error;
  static const Catalog catalog = Catalog::FromEntries(
      Catalog::ParseTsv(ReadFileText(SourcePath("schema/catalogue_seed.tsv")), &error), &error);
  TranslateOptions options;
  options.catalog = &catalog;
  options.params["interval"] = Type::Scalar(TypeKind::kString);
  options.params["project"] = Type::Scalar(TypeKind::kString);
  const TranslateResult result = Translate(ReadFileText(SourcePath(relative)), options);
  if (!result.ok()) throw std::runtime_error(relative + ": " + result.error().message);
  return {result.value().pg_sql, result.value().params};
}

// Every row as one text line ("field|field|...|"), in the query's order.
inline std::vector<std::string> RunChart(pqxx::work& tx, const PreparedChart& q,
                                         const std::string& interval, const std::string& project) {
  std::vector<std::string> values;
  for (const BoundParam& p : q.params) {
    const std::string& raw = p.name == "interval" ? interval : project;
    values.push_back(p.transform == ParamTransform::kRegexPattern ? ConvertRe2ToPosix(raw).pattern
                                                                  : raw);
  }
  std::vector<std::string> rows;
  for (const auto& row : tx.exec_params(q.sql, pqxx::prepare::make_dynamic_params(values))) {
    std::string line;
    for (const auto& field : row) line += std::string(field.c_str()) + '|';
    rows.push_back(line);
  }
  return rows;
}

// One digest of everything the chart reads from the rollup: the minute rows as the chart sees them
// (rows not compacted yet, 005_edge_rollup.sql, count too) and the URL trigram index. A rebuild
// must give the same digest as incremental maintenance.
inline constexpr const char* kRollupSnapshotSql =
    "SELECT (SELECT md5(string_agg(a::text, ',' ORDER BY a.ts, a.prefix)) FROM (SELECT "
    "\"timestamp\" AS ts, url_prefix AS prefix, sum(requests), sum(rest_requests), "
    "sum(storage_requests), sum(auth_requests), sum(realtime_requests) FROM (TABLE "
    "logs.edge_api_minute UNION ALL TABLE logs.edge_api_minute_delta) u GROUP BY 1, 2) a) || "
    "(SELECT md5(string_agg(g.trigram || g.day, ',' ORDER BY g.trigram, g.day)) FROM "
    "logs.edge_url_rest_trigrams g)";

}  // namespace lqe::testing
