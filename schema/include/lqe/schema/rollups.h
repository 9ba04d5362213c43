// Declared rollups: per-bucket aggregates of one log table (the `rollups:` section of a gateway
// config), each kept in logs.rollup_<name> by a statement trigger in the inserting transaction.
// `lqe migrate --config` creates, backfills, rebuilds (changed definition) and drops (removed
// from the config) them; `lqe retention` trims them with the base table (006_declared_rollups.sql).
#pragma once

#include <pqxx/connection>
#include <string>
#include <vector>

#include "lqe/schema/progress.h"

namespace lqe::schema {

// The aggregate of one measure column.
enum class RollupAgg { kCount, kCountIf, kSum, kMin, kMax };

// A countif condition: `field op value`, or `field is_null` / `field is_not_null` (no value).
// The value is the YAML scalar's text, typed against the field's catalogue type when applied.
struct RollupPredicate {
  std::string field;
  std::string op;  // = != < <= > >= is_null is_not_null
  std::string value;
};

struct RollupDimension {
  std::string name;   // the column of logs.rollup_<name>
  std::string field;  // a catalogued scalar: project, metadata.request.method, extra.appname
};

struct RollupMeasure {
  std::string name;
  RollupAgg agg = RollupAgg::kCount;
  std::string field;        // sum/min/max: a catalogued INT64 (sum) or INT64/FLOAT64 (min/max)
  RollupPredicate where{};  // countif only
};

struct RollupDef {
  std::string name;               // logs.rollup_<name>
  std::string source;             // a log table: edge, postgres, auth, ...
  std::string bucket = "minute";  // second, minute, hour or day (UTC)
  std::vector<RollupDimension> dimensions;
  std::vector<RollupMeasure> measures;
};

// Checks what needs no database (names, source, bucket, field path syntax, which aggregate needs
// a field or a condition, duplicates). Throws SchemaError "rollup NAME: ..." for the first problem.
void CheckRollupShape(const RollupDef& def);

struct RollupReport {
  std::vector<std::string> created;    // new rollups, backfilled
  std::vector<std::string> rebuilt;    // definition changed: dropped, created, backfilled
  std::vector<std::string> unchanged;  // same definition checksum: left as they are
  std::vector<std::string> dropped;    // no longer declared
};

// Makes the database's rollups exactly `defs`: each new or changed one is (re)created and
// backfilled in one transaction that holds the source table against inserts, an unchanged one is
// left alone (re-running never double counts), and a registered one missing from `defs` is
// dropped. `gateway_role` gets SELECT on every rollup table. Checks every definition against the
// field catalogue first and throws SchemaError naming the rollup before changing anything.
// `progress` is told of each rollup before it is built or rebuilt.
RollupReport ApplyRollups(pqxx::connection& conn, const std::vector<RollupDef>& defs,
                          const std::string& gateway_role, const ProgressCallback& progress = {});

}  // namespace lqe::schema
