// Schema migrations: the embedded migrations/NNN_name.sql files, applied in order, each in its
// own transaction, recorded in logs.schema_migrations with their SHA-256.
#pragma once

#include <optional>
#include <pqxx/connection>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lqe/schema/embedded.h"
#include "lqe/schema/progress.h"

namespace lqe::schema {

class SchemaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Migration {
  int version = 0;   // 1 for "001_roles.sql"
  std::string name;  // "001_roles.sql"
  std::string_view sql;
  std::string checksum;  // SHA-256 hex of the file
};

// Turns the embedded files into migrations sorted by version. Throws SchemaError for a name
// without a numeric NNN_ prefix or two files with one version.
std::vector<Migration> ParseMigrations(const std::vector<EmbeddedFile>& files);

struct MigrateOptions {
  // The database's read-only login role. Unset: the role recorded by an earlier run, else
  // lqe_gateway_<database>.
  std::optional<std::string> gateway_role;
  std::optional<std::string> gateway_password;  // sets the gateway role's password when given
  // HTTP ingest's writer role (ingest.dsn). Unset: lqe_ingest_<database>.
  std::optional<std::string> ingest_role;
  std::optional<std::string> ingest_password;
  int partition_days_back = 3;  // daily partitions for today-back..today+ahead
  int partition_days_ahead = 3;
  // Told of each migration applied and each partition backfilled (the long parts of a run).
  ProgressCallback progress;
};

struct MigrateReport {
  std::vector<std::string> applied;  // names applied by this run
  int already_applied = 0;
  // The database held the migrations lqe had before its schema baseline, complete: their rows
  // were replaced by the baseline's (lqe/schema/migration_history.h).
  bool restamped_pre_baseline = false;
  int catalogue_rows_added = 0;      // seed rows that were missing
  int promoted_indexes_created = 0;  // expression indexes (without promote_field_columns)
  std::vector<std::string> promoted_columns_added;  // e.g. "auth.p_status"
  std::vector<std::string> partitions_backfilled;   // partitions whose promoted columns were filled
  std::vector<std::string> partitions_created;      // e.g. "edge_p20261121"
  std::string gateway_role;                         // the role configured for this database
  std::string ingest_role;                          // the writer role configured for HTTP ingest
};

// The default gateway role of a database: "lqe_gateway_<database>". Throws SchemaError when that
// is longer than PostgreSQL's 63-byte names.
std::string DefaultGatewayRole(const std::string& database);

// Applies the pending migrations to the database of `conn`, then configures the gateway role
// (logs.configure_gateway_role). A database migrated before the schema baseline is re-stamped
// first. Throws SchemaError, before applying anything, when the recorded history cannot be
// continued (CheckAppendOnly, IsPreBaselineChain), and pqxx errors from the server.
MigrateReport Migrate(pqxx::connection& conn, const MigrateOptions& options);
MigrateReport Migrate(pqxx::connection& conn, const std::vector<Migration>& migrations,
                      const MigrateOptions& options);

}  // namespace lqe::schema
