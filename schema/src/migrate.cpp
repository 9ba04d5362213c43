#include "lqe/schema/migrate.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <optional>
#include <pqxx/pqxx>
#include <string_view>
#include <thread>

#include "lqe/catalog.h"
#include "lqe/schema/migration_history.h"
#include "lqe/schema/partitions.h"

namespace lqe::schema {
namespace {

constexpr std::string_view kLockKey = "lqe.migrate";
constexpr std::size_t kMaxNameBytes = 63;

void EnsureBookkeeping(pqxx::connection& conn) {
  pqxx::work tx(conn);
  tx.exec(
      "CREATE SCHEMA IF NOT EXISTS logs;"
      "CREATE TABLE IF NOT EXISTS logs.schema_migrations ("
      "  version integer PRIMARY KEY,"
      "  name text NOT NULL,"
      "  checksum text NOT NULL,"
      "  applied_at timestamptz NOT NULL DEFAULT now())");
  tx.commit();
}

// A quoted SQL string literal. Not pqxx's quote(): inlined in a Release build, GCC 12 reports a
// false -Wrestrict positive inside it.
std::string Literal(pqxx::transaction_base& tx, const std::string& value) {
  std::string out = "'";
  out += tx.esc(value);
  out += '\'';
  return out;
}

AppliedMigrations ReadApplied(pqxx::connection& conn) {
  pqxx::work tx(conn);
  AppliedMigrations out;
  for (const auto& row : tx.exec("SELECT version, name, checksum FROM logs.schema_migrations")) {
    out[row[0].as<int>()] = {row[1].as<std::string>(), row[2].as<std::string>()};
  }
  return out;
}

// Replaces the rows of the pre-baseline chain by the baseline's, in one transaction: the baseline
// makes the schema that chain made (tests/fixtures/schema/baseline_schema.sql), so nothing runs.
void RestampPreBaseline(pqxx::connection& conn, const std::vector<Migration>& migrations) {
  pqxx::work tx(conn);
  tx.exec("DELETE FROM logs.schema_migrations");
  int stamped = 0;
  for (const auto& m : migrations) {
    if (m.version > kBaselineLastVersion) break;
    tx.exec_params(
        "INSERT INTO logs.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
        m.version, m.name, m.checksum);
    ++stamped;
  }
  if (stamped == 0) throw SchemaError("no baseline migration to re-stamp the database with");
  tx.commit();
}

void Apply(pqxx::connection& conn, const Migration& m) {
  pqxx::work tx(conn);
  tx.exec(std::string(m.sql));
  tx.exec_params("INSERT INTO logs.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                 m.version, m.name, m.checksum);
  tx.commit();
}

// Inserts the seed rows that are missing; existing rows (possibly widened by loads) stay.
int SeedCatalogue(pqxx::connection& conn) {
  std::string error;
  const auto entries = Catalog::ParseTsv(EmbeddedCatalogueSeed(), &error);
  if (!error.empty()) throw SchemaError("embedded catalogue seed: " + error);
  pqxx::work tx(conn);
  std::string sql = "INSERT INTO logs.field_catalogue (source, path, bq_type, mode) VALUES ";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    if (i > 0) sql += ',';
    for (const std::string* part : {&e.source, &e.path, &e.type, &e.mode}) {
      sql += part == &e.source ? '(' : ',';
      sql += Literal(tx, *part);
    }
    sql += ')';
  }
  sql += " ON CONFLICT (source, path) DO NOTHING";
  const auto result = tx.exec(sql);
  tx.commit();
  return static_cast<int>(result.affected_rows());
}

// The partitions logs.backfill_promoted_partition() has yet to fill (its own choice, counted):
// only for progress, so the count is a guide.
std::size_t PartitionsToBackfill(pqxx::connection& conn) {
  pqxx::read_transaction tx(conn);
  return tx
      .exec1(
          "SELECT count(DISTINCT (pf.source, c.relname)) FROM logs.promoted_fields pf "
          "JOIN pg_inherits i ON i.inhparent = format('logs.%I', pf.source)::regclass "
          "JOIN pg_class c ON c.oid = i.inhrelid "
          "WHERE pf.column_name IS NOT NULL AND NOT pf.backfilled "
          "AND NOT EXISTS (SELECT 1 FROM logs.promoted_backfill b WHERE b.source = pf.source "
          "AND b.partition_name = c.relname AND b.column_name = pf.column_name)")[0]
      .as<std::size_t>();
}

// Promoted fields (migrations 021, 023, 027, 041): a typed column, its index and fill trigger for
// each declared field that has none yet, then the rows stored before filled one partition per
// transaction (a stopped run resumes where it was). Before 027 (a run applying only earlier
// migrations): the expression indexes of 021.
void PromoteFields(pqxx::connection& conn, MigrateReport& report,
                   const ProgressCallback& progress) {
  {
    pqxx::work tx(conn);
    if (tx.exec1("SELECT to_regproc('logs.promote_field_columns') IS NULL")[0].as<bool>()) {
      if (!tx.exec1("SELECT to_regproc('logs.create_promoted_field_indexes') IS NULL")[0]
               .as<bool>()) {
        report.promoted_indexes_created =
            static_cast<int>(tx.exec("SELECT logs.create_promoted_field_indexes()").size());
      }
      tx.commit();
      return;
    }
    for (const auto& row : tx.exec("SELECT logs.promote_field_columns()")) {
      report.promoted_columns_added.push_back(row[0].c_str());
    }
    // Migration 041: the index of the rows whose nested elements differ, for new nested fields.
    if (!tx.exec1("SELECT to_regproc('logs.create_promoted_differs_indexes') IS NULL")[0]
             .as<bool>()) {
      tx.exec("SELECT logs.create_promoted_differs_indexes()");
    }
    tx.commit();
  }
  const std::size_t pending = progress ? PartitionsToBackfill(conn) : 0;
  while (true) {
    if (pending > 0) {
      progress({"backfilling promoted columns", "", report.partitions_backfilled.size(), pending});
    }
    pqxx::work tx(conn);
    const auto done = tx.exec1("SELECT logs.backfill_promoted_partition()");
    tx.commit();
    if (done[0].is_null()) return;
    report.partitions_backfilled.push_back(done[0].c_str());
  }
}

// The explicit role, else the recorded one (an existing setup keeps its credentials), else the
// per-database default.
std::string ChooseGatewayRole(pqxx::connection& conn, const MigrateOptions& options) {
  if (options.gateway_role) return *options.gateway_role;
  pqxx::work tx(conn);
  const auto recorded = tx.exec("SELECT name FROM logs.gateway_role");
  if (!recorded.empty()) return recorded[0][0].as<std::string>();
  return DefaultGatewayRole(tx.exec1("SELECT current_database()")[0].as<std::string>());
}

std::string ChooseIngestRole(pqxx::connection& conn, const MigrateOptions& options) {
  std::string role = options.ingest_role.value_or("");
  if (!options.ingest_role) {
    pqxx::work tx(conn);
    role = "lqe_ingest_" + tx.exec1("SELECT current_database()")[0].as<std::string>();
  }
  if (role.empty() || role.size() > kMaxNameBytes) {
    throw SchemaError("the ingest role name " + role + " must be 1 to " +
                      std::to_string(kMaxNameBytes) + " bytes: name one with --ingest-role");
  }
  return role;
}

}  // namespace

std::string DefaultGatewayRole(const std::string& database) {
  std::string role = "lqe_gateway_" + database;
  if (role.size() > kMaxNameBytes) {
    throw SchemaError("the default gateway role name " + role + " is longer than " +
                      std::to_string(kMaxNameBytes) + " bytes: name one with --gateway-role");
  }
  return role;
}

std::vector<Migration> ParseMigrations(const std::vector<EmbeddedFile>& files) {
  std::vector<Migration> out;
  for (const auto& f : files) {
    const auto underscore = f.name.find('_');
    int version = 0;
    const char* end = f.name.data() + (underscore == std::string_view::npos ? 0 : underscore);
    const auto [ptr, ec] = std::from_chars(f.name.data(), end, version);
    if (underscore == std::string_view::npos || ec != std::errc() || ptr != end || version <= 0) {
      throw SchemaError("migration file " + std::string(f.name) +
                        " must be named NNN_name.sql with a positive number NNN");
    }
    out.push_back({version, std::string(f.name), f.content, std::string(f.sha256)});
  }
  std::sort(out.begin(), out.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].version == out[i - 1].version) {
      throw SchemaError("migrations " + out[i - 1].name + " and " + out[i].name +
                        " have the same version");
    }
  }
  return out;
}

MigrateReport Migrate(pqxx::connection& conn, const MigrateOptions& options) {
  return Migrate(conn, ParseMigrations(EmbeddedMigrationFiles()), options);
}

namespace {

MigrateReport MigrateOnce(pqxx::connection& conn, const std::vector<Migration>& migrations,
                          const MigrateOptions& options) {
  // A session lock: two concurrent `lqe migrate` runs apply each migration once.
  {
    pqxx::nontransaction lock(conn);
    lock.exec_params("SELECT pg_advisory_lock(hashtext($1))", std::string(kLockKey));
  }
  struct Unlock {
    pqxx::connection& conn;
    ~Unlock() {
      try {
        pqxx::nontransaction tx(conn);
        tx.exec_params("SELECT pg_advisory_unlock(hashtext($1))", std::string(kLockKey));
      } catch (...) {  // NOLINT(bugprone-empty-catch): the lock ends with the session anyway
      }
    }
  } unlock{conn};

  EnsureBookkeeping(conn);
  auto applied = ReadApplied(conn);
  MigrateReport report;
  if (IsPreBaselineChain(applied)) {
    RestampPreBaseline(conn, migrations);
    report.restamped_pre_baseline = true;
    applied = ReadApplied(conn);
  }
  // The whole history is checked before anything is applied.
  CheckAppendOnly(migrations, applied);
  for (const auto& m : migrations) {
    if (applied.count(m.version) > 0) {
      ++report.already_applied;
      continue;
    }
    if (options.progress) options.progress({"applying migration", m.name, 0, 0});
    Apply(conn, m);
    report.applied.push_back(m.name);
  }
  report.catalogue_rows_added = SeedCatalogue(conn);
  report.partitions_created =
      EnsurePartitionsAroundToday(conn, options.partition_days_back, options.partition_days_ahead);
  PromoteFields(conn, report, options.progress);
  report.gateway_role = ChooseGatewayRole(conn, options);
  if (report.gateway_role.empty() || report.gateway_role.size() > kMaxNameBytes) {
    throw SchemaError("the gateway role name must be 1 to " + std::to_string(kMaxNameBytes) +
                      " bytes");
  }
  {
    pqxx::work tx(conn);
    tx.exec("SELECT logs.configure_gateway_role(" + Literal(tx, report.gateway_role) + ")");
    if (options.gateway_password) {
      tx.exec("ALTER ROLE " + tx.quote_name(report.gateway_role) + " PASSWORD " +
              Literal(tx, *options.gateway_password));
    }
    tx.commit();
  }
  {
    pqxx::work tx(conn);
    // Only with 016 applied (callers may migrate with an older list of migrations).
    if (tx.exec1("SELECT to_regprocedure('logs.configure_ingest_role(text)') IS NULL")[0]
            .as<bool>()) {
      return report;
    }
  }
  report.ingest_role = ChooseIngestRole(conn, options);
  {
    pqxx::work tx(conn);
    tx.exec("SELECT logs.configure_ingest_role(" + Literal(tx, report.ingest_role) + ")");
    // Only with 023 applied: the sources created through the API.
    if (!tx.exec1("SELECT to_regprocedure('logs.configure_created_sources_role(text)') IS NULL")[0]
             .as<bool>()) {
      tx.exec("SELECT logs.configure_created_sources_role(" + Literal(tx, report.ingest_role) +
              ")");
    }
    if (options.ingest_password) {
      tx.exec("ALTER ROLE " + tx.quote_name(report.ingest_role) + " PASSWORD " +
              Literal(tx, *options.ingest_password));
    }
    tx.commit();
  }
  return report;
}

}  // namespace

// Roles and their grants are cluster-wide catalog rows: two databases on one cluster that
// configure the same role at the same moment make Postgres fail one with "tuple concurrently
// updated" (the per-database advisory lock cannot prevent it). Every step is idempotent, so the
// whole run is simply tried again.
MigrateReport Migrate(pqxx::connection& conn, const std::vector<Migration>& migrations,
                      const MigrateOptions& options) {
  constexpr int kTries = 5;
  for (int attempt = 1;; ++attempt) {
    try {
      return MigrateOnce(conn, migrations, options);
    } catch (const pqxx::sql_error& e) {
      const bool concurrent_catalog_update =
          std::string_view(e.what()).find("tuple concurrently updated") != std::string_view::npos;
      if (!concurrent_catalog_update || attempt == kTries) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(50 * attempt));
    }
  }
}

}  // namespace lqe::schema
