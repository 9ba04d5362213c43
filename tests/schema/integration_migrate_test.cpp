// lqe migrate against the real cluster: idempotence, bookkeeping, tables, role, checksums.
#include <gtest/gtest.h>

#include <chrono>
#include <pqxx/pqxx>
#include <thread>

#include "lqe/schema/migrate.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

const char* const kSources[] = {"edge",     "postgres", "function_edge", "function_events", "auth",
                                "realtime", "storage",  "restapi",       "pooler"};

std::string Sha256Of(const std::string& path) {
  const auto file = WriteTempFile("");
  const std::string command = "sha256sum '" + path + "' | cut -d' ' -f1 > " + file;
  EXPECT_EQ(std::system(command.c_str()), 0);
  std::string sum = ReadFile(file);
  while (!sum.empty() && sum.back() == '\n') sum.pop_back();
  return sum;
}

std::string DsnAs(const TestDatabase& db, const std::string& user, const std::string& dbname) {
  pqxx::connection probe(db.dsn());
  return "host=" + std::string(probe.hostname()) + " port=" + std::string(probe.port()) +
         " user=" + user + " dbname=" + dbname;
}

std::string GatewayDsn(const TestDatabase& db) {
  return DsnAs(db, "lqe_gateway_" + db.name(), db.name());
}

TEST(MigrateIntegrationTest, TwiceIsIdempotentAndRecordsChecksums) {
  TestDatabase db("migrate");
  const auto migrations = schema::ParseMigrations(schema::EmbeddedMigrationFiles());
  const auto first = RunLqe({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("applied 001_roles.sql\n"), std::string::npos) << first.out;
  const auto second = RunLqe({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, "migrations: 0 applied, " + std::to_string(migrations.size()) +
                            " already applied; catalogue rows added: 0; partitions created: 0; "
                            "gateway role: lqe_gateway_" +
                            db.name() + "; ingest role: lqe_ingest_" + db.name() + "\n");

  pqxx::connection conn(db.dsn());
  pqxx::work tx(conn);
  const auto rows =
      tx.exec("SELECT version, name, checksum FROM logs.schema_migrations ORDER BY 1");
  ASSERT_EQ(rows.size(), migrations.size());
  for (const auto& row : rows) {
    const std::string name = row[1].as<std::string>();
    EXPECT_EQ(row[2].as<std::string>(), Sha256Of(SourcePath("schema/migrations/" + name))) << name;
  }
}

TEST(MigrateIntegrationTest, CreatesTablesIndexesPartitionsAndCatalogue) {
  TestDatabase db("migrate_tables");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  pqxx::connection conn(db.dsn());
  pqxx::work tx(conn);
  for (const char* source : kSources) {
    const std::string s = source;
    EXPECT_EQ(tx.exec1("SELECT relkind FROM pg_class WHERE oid = 'logs." + s + "'::regclass")[0]
                  .as<std::string>(),
              "p");
    for (int offset = -3; offset <= 3; ++offset) {
      const std::string part = "logs." + s + "_p" + UtcDayTag(offset);
      EXPECT_FALSE(tx.exec1("SELECT to_regclass(" + tx.quote(part) + ")")[0].is_null()) << part;
    }
    EXPECT_EQ(
        tx.exec1("SELECT count(*) FROM pg_indexes WHERE schemaname = 'logs' AND tablename = " +
                 tx.quote(s) + " AND indexdef LIKE '%(project, \"timestamp\" DESC)%'")[0]
            .as<int>(),
        1)
        << s;
  }
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_indexes WHERE schemaname = 'logs' AND tablename !~ "
                     "'_p[0-9]{8}$' AND indexdef LIKE "
                     "'%((metadata ->> ''project_ref''::text)), \"timestamp\" DESC)%'")[0]
                .as<int>(),
            2);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_indexes WHERE schemaname = 'logs' AND tablename !~ "
                     "'_p[0-9]{8}$' AND indexdef LIKE "
                     "'%((metadata ->> ''project''::text)), \"timestamp\" DESC)%'")[0]
                .as<int>(),
            3);  // function_edge's, pooler's and supavisor's
  // Every data line of the seed file became one catalogue row.
  const std::string seed = ReadFile(SourcePath("schema/catalogue_seed.tsv"));
  int seed_rows = 0;
  std::size_t start = 0;
  while (start < seed.size()) {
    const auto nl = seed.find('\n', start);
    const std::string line = seed.substr(start, nl - start);
    if (!line.empty() && line[0] != '#') ++seed_rows;
    start = nl == std::string::npos ? seed.size() : nl + 1;
  }
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.field_catalogue")[0].as<int>(), seed_rows);
  EXPECT_EQ(tx.exec1("SELECT bq_type || ' ' || mode FROM logs.field_catalogue WHERE source = "
                     "'edge' AND path = 'metadata.response.status_code'")[0]
                .as<std::string>(),
            "INT64 NULLABLE");
}

TEST(MigrateIntegrationTest, ChangedChecksumIsAnError) {
  TestDatabase db("migrate_checksum");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  {
    pqxx::connection conn(db.dsn());
    pqxx::work tx(conn);
    tx.exec("UPDATE logs.schema_migrations SET checksum = 'abc' WHERE version = 1");
    tx.commit();
  }
  const auto result = RunLqe({"migrate", "--dsn", db.dsn()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "lqe migrate: migration 001_roles.sql was changed after it was "
            "applied: recorded checksum abc, embedded " +
                Sha256Of(SourcePath("schema/migrations/001_roles.sql")) +
                " (nothing was applied)\n");
}

TEST(MigrateIntegrationTest, GatewayRoleReadsButCannotWrite) {
  TestDatabase db("migrate_role");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn(), "--gateway-password", "s3cret"}).exit_code, 0);
  {
    pqxx::connection conn(db.dsn());
    pqxx::work tx(conn);
    EXPECT_FALSE(tx.exec1("SELECT rolpassword FROM pg_authid WHERE rolname = " +
                          tx.quote("lqe_gateway_" + db.name()))[0]
                     .is_null());
    tx.exec("INSERT INTO logs.edge VALUES ('r1', now(), 'hello', 'default', '{}')");
    tx.commit();
  }
  pqxx::connection gateway(GatewayDsn(db));
  {
    pqxx::work tx(gateway);
    EXPECT_EQ(tx.exec1("SELECT event_message FROM logs.edge")[0].as<std::string>(), "hello");
    EXPECT_GT(tx.exec1("SELECT count(*) FROM logs.field_catalogue")[0].as<int>(), 0);
    EXPECT_EQ(tx.exec1("SHOW default_transaction_read_only")[0].as<std::string>(), "on");
  }
  const std::vector<std::string> forbidden = {
      "INSERT INTO logs.edge VALUES ('r2', now(), 'x', 'p', '{}')",
      "UPDATE logs.field_catalogue SET bq_type = 'STRING'",
      "DELETE FROM logs.edge",
      "CREATE TABLE logs.mine (x int)",
      "CREATE TABLE public.mine (x int)",
      "CREATE TEMP TABLE mine (x int)",
      "SELECT logs.ensure_partition('edge', current_date + 30)",
      "SELECT * FROM logs.schema_migrations"};
  // Sessions default to read-only (checked above); privileges alone must refuse these too, so
  // each runs in an explicitly read-write transaction.
  for (const auto& sql : forbidden) {
    pqxx::work tx(gateway);
    tx.exec("SET TRANSACTION READ WRITE");
    try {
      tx.exec(sql);
      ADD_FAILURE() << "allowed: " << sql;
    } catch (const pqxx::sql_error& e) {
      EXPECT_NE(std::string(e.what()).find("permission denied"), std::string::npos)
          << sql << ": " << e.what();
    }
  }
}

// A run whose role step fails on a concurrent catalog update (another database's migration
// altering the same role at that moment) is tried again, and the retry must still configure
// the per-database role, although the failed attempt applied the migrations: the retry must not
// take them for an earlier setup's and configure another role than lqe_gateway_<database>.
TEST(MigrateIntegrationTest, ARetriedRunStillConfiguresThePerDatabaseRole) {
  TestDatabase db("migrate_retry");
  const std::string role = "lqe_gateway_" + db.name();
  pqxx::connection blocker(db.dsn());
  pqxx::nontransaction(blocker).exec("CREATE ROLE " + blocker.quote_name(role) +
                                     " LOGIN; ALTER ROLE " + blocker.quote_name(role) +
                                     " SET jit = off");
  // The role's settings row is updated and not committed: the migration's ALTER ROLE ... SET
  // waits for it, and fails with "tuple concurrently updated" once it commits.
  pqxx::work hold(blocker);
  hold.exec("ALTER ROLE " + hold.quote_name(role) + " SET default_transaction_read_only = on");
  CommandResult migrated;
  std::thread migrate([&] { migrated = RunLqe({"migrate", "--dsn", db.dsn()}); });
  pqxx::connection probe(db.dsn());
  bool waiting = false;
  for (int i = 0; i < 600 && !waiting; ++i) {
    pqxx::nontransaction tx(probe);
    waiting =
        tx.exec1("SELECT count(*) FROM pg_stat_activity WHERE datname = " + tx.quote(db.name()) +
                 " AND wait_event_type = 'Lock'")[0]
            .as<int>() > 0;
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  hold.commit();
  migrate.join();
  ASSERT_TRUE(waiting) << "the migration never waited for the role's settings";
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  pqxx::work tx(probe);
  EXPECT_EQ(tx.exec1("SELECT name FROM logs.gateway_role")[0].as<std::string>(), role);
  EXPECT_TRUE(tx.exec1("SELECT has_database_privilege(" + tx.quote(role) + ", " +
                       tx.quote(db.name()) + ", 'CONNECT')")[0]
                  .as<bool>());
}

}  // namespace
}  // namespace lqe::testing
