// The translator's only entry point: BigQuery-dialect SQL (optionally sandboxed with a
// consumer's SQL or LQL) in, PostgreSQL SQL with typed bind parameters and a result schema out.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lqe/catalog.h"
#include "lqe/diagnostic.h"
#include "lqe/stored_query_cache.h"
#include "lqe/types.h"

namespace lqe {

// The SQL dialect of a query text: BigQuery's (the default), or ClickHouse's (docs/clickhouse.md),
// which reads the table `logs` as the OTEL relation logs.otel.
enum class SqlDialect : std::uint8_t { kBigQuery, kClickHouse };

struct ConsumerQuery {
  // kSql: BigQuery SQL; kClickHouseSql: ClickHouse SQL.
  enum class Language : std::uint8_t { kSql, kLql, kClickHouseSql };
  Language language = Language::kSql;
  std::string text;
};

struct TranslateOptions {
  const Catalog* catalog = nullptr;            // required
  SqlDialect dialect = SqlDialect::kBigQuery;  // of the stored query text
  // Declared @parameters and their SQL types. Using an undeclared one is an error.
  std::map<std::string, TypePtr, std::less<>> params;
  // Sandbox: the consumer's query replaces the stored query's final SELECT and may read only
  // the stored CTEs and its own.
  std::optional<ConsumerQuery> consumer;
  // Optional, kept by the caller per stored query: reuses the stored WITH's translation across
  // sandboxed calls. Without it every call translates the stored query again.
  StoredQueryCache* stored_cache = nullptr;
  std::uint32_t max_nesting_depth = 128;
  std::size_t max_query_bytes = 256 * 1024;
  // "now" for LQL shorthands (today, last@5m); injected so tests are deterministic.
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

// How the gateway must prepare a parameter's value before binding it.
enum class ParamTransform : std::uint8_t {
  kNone,
  kRegexPattern,  // an RE2 pattern: convert with ConvertRe2ToPosix (lqe/regex.h) before binding
};

// $1, $2, ... in order. One per distinct (@name, transform).
struct BoundParam {
  std::string name;
  TypePtr type;
  ParamTransform transform = ParamTransform::kNone;
};

struct OutputColumn {
  std::string name;  // BigQuery output name: alias, last path segment, or f0_, f1_, ...
  TypePtr type;
};

struct Translation {
  std::string pg_sql;
  std::vector<BoundParam> params;
  std::vector<OutputColumn> columns;
  std::vector<std::string> cte_names;  // CTEs of the stored query, in order
};

class TranslateResult {
 public:
  TranslateResult(Translation t) : value_(std::move(t)) {}  // NOLINT: implicit by design
  TranslateResult(Diagnostic d) : value_(std::move(d)) {}   // NOLINT: implicit by design
  bool ok() const { return std::holds_alternative<Translation>(value_); }
  const Translation& value() const { return std::get<Translation>(value_); }
  Translation& value() { return std::get<Translation>(value_); }
  const Diagnostic& error() const { return std::get<Diagnostic>(value_); }

 private:
  std::variant<Translation, Diagnostic> value_;
};

TranslateResult Translate(std::string_view bq_sql, const TranslateOptions& options);

}  // namespace lqe
