// Migrations are append-only: lqe migrate refuses, before applying anything, a pending migration
// numbered below the highest applied one, an applied migration whose file changed (checksum or
// name), and a database holding a migration this lqe does not have.
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "lqe/schema/migrate.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

// The embedded baseline plus test migrations 901.. (each creates table logs.history_<n>), as a
// later lqe would append them.
std::vector<schema::Migration> WithAppended(const std::vector<int>& versions) {
  static const std::vector<std::string> kSql = {"CREATE TABLE logs.history_901 (x int)",
                                                "CREATE TABLE logs.history_902 (x int)",
                                                "CREATE TABLE logs.history_903 (x int)"};
  auto migrations = schema::ParseMigrations(schema::EmbeddedMigrationFiles());
  for (const int version : versions) {
    const std::string& sql = kSql.at(static_cast<std::size_t>(version - 901));
    migrations.push_back({version, std::to_string(version) + "_history.sql", sql,
                          "checksum-" + std::to_string(version)});
  }
  return migrations;
}

std::string Applied(pqxx::connection& conn) {
  pqxx::work tx(conn);
  return tx
      .exec1(
          "SELECT string_agg(version::text, ',' ORDER BY version) FROM "
          "logs.schema_migrations WHERE version > 900")[0]
      .as<std::string>("");
}

bool TableExists(pqxx::connection& conn, const std::string& name) {
  pqxx::work tx(conn);
  return !tx.exec1("SELECT to_regclass(" + tx.quote("logs." + name) + ")")[0].is_null();
}

// What Migrate threw, or "" when it did not.
std::string MigrateError(pqxx::connection& conn, const std::vector<schema::Migration>& list) {
  try {
    schema::Migrate(conn, list, schema::MigrateOptions{});
  } catch (const schema::SchemaError& e) {
    return e.what();
  }
  return "";
}

// 902 merged after 903 was released: a fresh database would apply 902 before 903, this one after.
TEST(MigrationHistoryTest, AMigrationNumberedBelowTheHighestAppliedIsRefused) {
  TestDatabase db("history_order");
  pqxx::connection conn(db.dsn());
  schema::Migrate(conn, WithAppended({901, 903}), schema::MigrateOptions{});
  ASSERT_EQ(Applied(conn), "901,903");

  const std::string error = MigrateError(conn, WithAppended({901, 902, 903}));
  EXPECT_NE(error.find("migration 902_history.sql is not applied, but the database has "
                       "903_history.sql: migrations are append-only, so a new one must be "
                       "numbered above 903"),
            std::string::npos)
      << error;
  EXPECT_EQ(Applied(conn), "901,903");
  EXPECT_FALSE(TableExists(conn, "history_902"));
}

TEST(MigrationHistoryTest, AnAppliedMigrationWhoseFileChangedIsRefusedBeforeAnythingRuns) {
  TestDatabase db("history_checksum");
  pqxx::connection conn(db.dsn());
  schema::Migrate(conn, WithAppended({901}), schema::MigrateOptions{});

  auto edited = WithAppended({901, 902});
  edited[edited.size() - 2].checksum = "edited";
  const std::string error = MigrateError(conn, edited);
  EXPECT_NE(error.find("migration 901_history.sql was changed after it was applied: recorded "
                       "checksum checksum-901, embedded edited"),
            std::string::npos)
      << error;
  EXPECT_EQ(Applied(conn), "901");
  EXPECT_FALSE(TableExists(conn, "history_902"));
}

TEST(MigrationHistoryTest, AnAppliedMigrationThatWasRenamedIsRefused) {
  TestDatabase db("history_renamed");
  pqxx::connection conn(db.dsn());
  schema::Migrate(conn, WithAppended({901}), schema::MigrateOptions{});

  auto renamed = WithAppended({901, 902});
  renamed[renamed.size() - 2].name = "901_other.sql";
  const std::string error = MigrateError(conn, renamed);
  EXPECT_NE(error.find("migration 901 was applied as 901_history.sql but is now 901_other.sql"),
            std::string::npos)
      << error;
  EXPECT_FALSE(TableExists(conn, "history_902"));
}

TEST(MigrationHistoryTest, ADatabaseMigratedByANewerLqeIsRefused) {
  TestDatabase db("history_newer");
  pqxx::connection conn(db.dsn());
  schema::Migrate(conn, WithAppended({901, 902}), schema::MigrateOptions{});

  const std::string error = MigrateError(conn, WithAppended({901}));
  EXPECT_NE(error.find("the database has migration 902_history.sql applied, which this lqe does "
                       "not have: it was migrated by a newer lqe"),
            std::string::npos)
      << error;
  EXPECT_EQ(Applied(conn), "901,902");
}

// The same through the command line: a clear message and a non-zero exit.
TEST(MigrationHistoryTest, LqeMigrateExitsWithTheRefusal) {
  TestDatabase db("history_cli");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  {
    pqxx::connection conn(db.dsn());
    pqxx::work tx(conn);
    tx.exec(
        "INSERT INTO logs.schema_migrations (version, name, checksum) "
        "VALUES (999, '999_from_the_future.sql', 'x')");
    tx.commit();
  }
  const auto refused = RunLqe({"migrate", "--dsn", db.dsn()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("lqe migrate: the database has migration 999_from_the_future.sql "
                             "applied, which this lqe does not have"),
            std::string::npos)
      << refused.err;
  EXPECT_EQ(refused.out.find("migrations:"), std::string::npos) << refused.out;
}

}  // namespace
}  // namespace lqe::testing
