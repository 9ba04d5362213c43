// The schema baseline: a fresh database migrated with it is exactly the database the migrations
// before it made (tests/fixtures/schema/baseline_schema.sql, the dump of those), and a database
// migrated with those is re-stamped with the baseline's rows, its schema unchanged.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <string>

#include "lqe/schema/migrate.h"
#include "lqe/schema/migration_history.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

const char* const kFixture = "tests/fixtures/schema/baseline_schema.sql";

// tests/schema/schema_dump.sh of the database.
std::string SchemaDump(const TestDatabase& db) {
  const auto dumped = RunCommand({"bash", SourcePath("tests/schema/schema_dump.sh"), db.dsn()});
  EXPECT_EQ(dumped.exit_code, 0) << dumped.err;
  return dumped.out;
}

// The lines of `actual` and `expected` that differ (diff's output), for a failure message.
std::string Diff(const std::string& expected, const std::string& actual) {
  const std::string expected_path = WriteTempFile(expected);
  const std::string actual_path = WriteTempFile(actual);
  const auto diff = RunCommand({"diff", expected_path, actual_path});
  return diff.out.substr(0, 20000);
}

// Replaces the database's schema_migrations rows by the pre-baseline chain's (the fixture's rows
// of a database migrated before the baseline), leaving out `skipped_version`.
void StampPreBaselineChain(const TestDatabase& db, int skipped_version = 0) {
  std::istringstream rows(
      ReadFile(SourcePath("tests/fixtures/schema/pre_baseline_migrations.tsv")));
  pqxx::connection conn(db.dsn());
  pqxx::work tx(conn);
  tx.exec("DELETE FROM logs.schema_migrations");
  std::string line;
  int inserted = 0;
  while (std::getline(rows, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int version = 0;
    std::string name;
    std::string checksum;
    fields >> version >> name >> checksum;
    if (version == skipped_version) continue;
    tx.exec_params(
        "INSERT INTO logs.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", version,
        name, checksum);
    ++inserted;
  }
  tx.commit();
  ASSERT_EQ(inserted, skipped_version == 0 ? 48 : 47);
}

std::string MigrationRows(const TestDatabase& db) {
  pqxx::connection conn(db.dsn());
  pqxx::work tx(conn);
  return tx
      .exec1(
          "SELECT string_agg(version || ' ' || name || ' ' || checksum, E'\\n' ORDER BY "
          "version) FROM logs.schema_migrations")[0]
      .as<std::string>();
}

// The fixture was first the dump of the migrations before the baseline; a new migration changes
// it on purpose (UPDATE_GOLDEN=1 rewrites it, and its diff is the schema change to review).
TEST(BaselineTest, AFreshDatabaseDumpsAsTheSchemaFixture) {
  TestDatabase db("baseline_fresh");
  const auto migrated = RunLqe({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  const std::string actual = SchemaDump(db);
  if (std::getenv("UPDATE_GOLDEN") != nullptr) {
    std::ofstream(SourcePath(kFixture), std::ios::binary) << actual;
  }
  const std::string expected = ReadFile(SourcePath(kFixture));
  ASSERT_FALSE(expected.empty()) << kFixture;
  EXPECT_TRUE(actual == expected) << "schema_dump.sh differs from " << kFixture << ":\n"
                                  << Diff(expected, actual);
}

TEST(BaselineTest, ADatabaseOfTheChainBeforeTheBaselineIsRestampedAndKeepsItsSchema) {
  TestDatabase db("baseline_restamp");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  const std::string baseline_rows = MigrationRows(db);
  const std::string before = SchemaDump(db);
  StampPreBaselineChain(db);

  const auto upgraded = RunLqe({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(upgraded.exit_code, 0) << upgraded.err;
  EXPECT_NE(upgraded.out.find("re-stamped the migrations made before the schema baseline"),
            std::string::npos)
      << upgraded.out;
  // The migrations after the baseline run again over what they made (they are idempotent), as
  // they run for the first time on a database of the chain.
  EXPECT_NE(upgraded.out.find("migrations: 1 applied, 16 already applied"), std::string::npos)
      << upgraded.out;
  EXPECT_EQ(MigrationRows(db), baseline_rows);
  const std::string after = SchemaDump(db);
  EXPECT_TRUE(after == before) << Diff(before, after);

  // The next run finds the baseline and re-stamps nothing.
  const auto again = RunLqe({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out.find("re-stamped"), std::string::npos) << again.out;
}

TEST(BaselineTest, APartOfTheChainBeforeTheBaselineIsRefused) {
  TestDatabase db("baseline_partial");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  StampPreBaselineChain(db, 29);
  const std::string rows = MigrationRows(db);

  const auto refused = RunLqe({"migrate", "--dsn", db.dsn()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("holds 47 of the 48 migrations lqe had before its schema baseline "
                             "(missing: 029_promoted_indexes_plain_desc.sql)"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("nothing was applied"), std::string::npos) << refused.err;
  EXPECT_EQ(MigrationRows(db), rows);
}

TEST(BaselineTest, AnEditedFileOfTheChainBeforeTheBaselineIsRefused) {
  TestDatabase db("baseline_edited");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  StampPreBaselineChain(db);
  {
    pqxx::connection conn(db.dsn());
    pqxx::work tx(conn);
    tx.exec("UPDATE logs.schema_migrations SET checksum = 'edited' WHERE version = 42");
    tx.commit();
  }
  const auto refused = RunLqe({"migrate", "--dsn", db.dsn()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("042_edge_rollup_rows_from_writer.sql differ from the released files"),
            std::string::npos)
      << refused.err;
}

// A database whose gateway role is the shared lqe_gateway of the first setups keeps it: the
// re-stamp changes no role.
TEST(BaselineTest, ADatabaseOfTheSharedRoleEraKeepsLqeGateway) {
  TestDatabase db("baseline_shared_role");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn(), "--gateway-role", "lqe_gateway"}).exit_code, 0);
  StampPreBaselineChain(db);
  {
    pqxx::connection conn(db.dsn());
    pqxx::work tx(conn);
    tx.exec("SELECT logs.ensure_partition('edge', '2026-01-01')");
    tx.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", event_message, project) "
        "VALUES ('e', '2026-01-01', 'x', 'p')");
    tx.commit();
  }
  const auto upgraded = RunLqe({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(upgraded.exit_code, 0) << upgraded.err;
  EXPECT_NE(upgraded.out.find("; gateway role: lqe_gateway;"), std::string::npos) << upgraded.out;
  pqxx::connection probe(db.dsn());
  const std::string as_gateway = "host=" + std::string(probe.hostname()) +
                                 " port=" + std::string(probe.port()) +
                                 " user=lqe_gateway dbname=" + db.name();
  pqxx::connection gateway(as_gateway);
  pqxx::work tx(gateway);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.edge")[0].as<int>(), 1);
}

// The rows the runner re-stamps with are the fixture's: the list compiled into lqe is the one
// databases hold.
TEST(BaselineTest, TheCompiledChainIsTheFixture) {
  std::string compiled =
      "# The schema_migrations rows of a database migrated by lqe before its "
      "schema baseline:\n# version<TAB>name<TAB>SHA-256 of the file.\n";
  for (const auto& m : schema::PreBaselineMigrations()) {
    compiled += std::to_string(m.version) + "\t" + m.name + "\t" + m.checksum + "\n";
  }
  EXPECT_EQ(compiled, ReadFile(SourcePath("tests/fixtures/schema/pre_baseline_migrations.tsv")));
  int baseline_files = 0;
  for (const auto& m : schema::ParseMigrations(schema::EmbeddedMigrationFiles())) {
    if (m.version <= schema::kBaselineLastVersion) ++baseline_files;
    if (m.version == schema::kBaselineLastVersion) {
      EXPECT_EQ(m.name, "016_bq_net.sql");
    }
  }
  EXPECT_EQ(baseline_files, 16);
}

}  // namespace
}  // namespace lqe::testing
