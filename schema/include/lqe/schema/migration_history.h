// The rules lqe migrate holds logs.schema_migrations to: migrations are append-only, and a
// database migrated before the schema baseline is re-stamped with the baseline's rows.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lqe/schema/migrate.h"

namespace lqe::schema {

struct AppliedMigration {
  std::string name;
  std::string checksum;
};
using AppliedMigrations = std::map<int, AppliedMigration>;  // by version

// The last file of the baseline (016_bq_net.sql). The baseline's files stand for the whole chain
// of migrations lqe had before it, whose final schema they reproduce.
constexpr int kBaselineLastVersion = 16;

// The rows logs.schema_migrations holds in a database migrated by lqe before the baseline
// (001_log_tables.sql to 070_bq_timestamp_constant.sql; sql is empty).
const std::vector<Migration>& PreBaselineMigrations();

// True when `applied` is exactly the pre-baseline chain; false when it holds none of it. Throws
// SchemaError, naming what is missing or changed, for part of the chain or an edited row: such a
// database must first be migrated to the end of that chain by the lqe it came from.
bool IsPreBaselineChain(const AppliedMigrations& applied);

// Throws SchemaError, naming the file, when the `applied` history cannot be continued with
// `migrations` (sorted by version): a migration the database has and the list has not (a newer
// lqe migrated it), an applied migration whose name or checksum differs from the list's (its
// file was edited after release), or a pending migration numbered below the highest applied one
// (migrations are append-only: it would run in a different order than on fresh databases).
void CheckAppendOnly(const std::vector<Migration>& migrations, const AppliedMigrations& applied);

}  // namespace lqe::schema
