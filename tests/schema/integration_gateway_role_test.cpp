// The per-database gateway role of lqe migrate: isolation between databases, CONNECT, session
// limits, and the descriptions of the tables.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "lqe/schema/migrate.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

std::string DsnAs(const TestDatabase& db, const std::string& user, const std::string& dbname) {
  pqxx::connection probe(db.dsn());
  return "host=" + std::string(probe.hostname()) + " port=" + std::string(probe.port()) +
         " user=" + user + " dbname=" + dbname;
}

// The server's message when `user` may not connect to `dbname`; empty when it may.
std::string ConnectError(const TestDatabase& db, const std::string& user,
                         const std::string& dbname) {
  try {
    pqxx::connection conn(DsnAs(db, user, dbname));
    return "";
  } catch (const pqxx::broken_connection& e) {
    return e.what();
  }
}

std::string Scalar(const std::string& dsn, const std::string& sql) {
  pqxx::connection conn(dsn);
  pqxx::work tx(conn);
  const auto row = tx.exec1(sql);
  return row[0].is_null() ? "NULL" : row[0].as<std::string>();
}

std::string NoConnect(const std::string& dbname) {
  return "permission denied for database \"" + dbname + "\"";
}

TEST(GatewayRoleTest, EachDatabaseHasItsOwnRoleThatCannotEnterTheOther) {
  TestDatabase one("role_one");
  TestDatabase two("role_two");
  const auto first = RunLqe({"migrate", "--dsn", one.dsn()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("; gateway role: lqe_gateway_" + one.name() + ";"), std::string::npos)
      << first.out;
  ASSERT_EQ(RunLqe({"migrate", "--dsn", two.dsn()}).exit_code, 0);
  const std::string role_one = "lqe_gateway_" + one.name();
  const std::string role_two = "lqe_gateway_" + two.name();

  EXPECT_EQ(ConnectError(one, role_one, one.name()), "");
  EXPECT_EQ(ConnectError(two, role_two, two.name()), "");
  EXPECT_NE(ConnectError(one, role_one, two.name()).find(NoConnect(two.name())), std::string::npos);
  EXPECT_NE(ConnectError(one, role_two, one.name()).find(NoConnect(one.name())), std::string::npos);
  // The shared role of older versions no longer gets in either.
  EXPECT_NE(ConnectError(one, "lqe_gateway", one.name()).find(NoConnect(one.name())),
            std::string::npos);

  // PUBLIC may not connect: a fresh login role is refused.
  {
    pqxx::connection admin(one.dsn());
    pqxx::nontransaction tx(admin);
    tx.exec("DROP ROLE IF EXISTS lqe_test_outsider");
    tx.exec("CREATE ROLE lqe_test_outsider LOGIN");
  }
  const std::string outsider = ConnectError(one, "lqe_test_outsider", one.name());
  EXPECT_NE(outsider.find(NoConnect(one.name())), std::string::npos) << outsider;
  EXPECT_NE(outsider.find("User does not have CONNECT privilege"), std::string::npos) << outsider;
  EXPECT_EQ(Scalar(one.dsn(),
                   "SELECT has_database_privilege('public', current_database(), "
                   "'CONNECT')"),
            "f");

  // Both roles read their own tables.
  EXPECT_EQ(Scalar(DsnAs(two, role_two, two.name()), "SELECT count(*) FROM logs.edge"), "0");
}

TEST(GatewayRoleTest, SessionLimitsApplyToTheRole) {
  TestDatabase db("role_limits");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  pqxx::connection gateway(DsnAs(db, "lqe_gateway_" + db.name(), db.name()));
  pqxx::work tx(gateway);
  EXPECT_EQ(tx.exec1("SHOW work_mem")[0].as<std::string>(), "64MB");
  EXPECT_EQ(tx.exec1("SHOW temp_file_limit")[0].as<std::string>(), "1GB");
  EXPECT_EQ(tx.exec1("SHOW jit")[0].as<std::string>(), "off");
  EXPECT_EQ(tx.exec1("SHOW default_transaction_read_only")[0].as<std::string>(), "on");
}

TEST(GatewayRoleTest, ANamedRoleReplacesThePreviousOneAndRunsTwiceUnchanged) {
  TestDatabase db("role_named");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  const std::string named = "lqe_test_gw_" + db.name().substr(9);
  const auto switched = RunLqe({"migrate", "--dsn", db.dsn(), "--gateway-role", named});
  ASSERT_EQ(switched.exit_code, 0) << switched.err;
  EXPECT_NE(switched.out.find("; gateway role: " + named + ";"), std::string::npos);
  EXPECT_EQ(ConnectError(db, named, db.name()), "");
  EXPECT_NE(ConnectError(db, "lqe_gateway_" + db.name(), db.name()).find(NoConnect(db.name())),
            std::string::npos);

  // Without the flag the recorded role stays; a second run changes nothing.
  const std::string state_sql =
      "SELECT (SELECT datacl::text FROM pg_database WHERE datname = current_database()) || "
      "(SELECT coalesce(rolconfig::text, '') FROM pg_roles WHERE rolname = " +
      pqxx::connection(db.dsn()).quote(named) +
      ") || (SELECT string_agg(relacl::text, ',' ORDER BY relname) FROM pg_class "
      "WHERE relnamespace = 'logs'::regnamespace) || "
      "(SELECT name || configured_at FROM logs.gateway_role)";
  const std::string before = Scalar(db.dsn(), state_sql);
  const auto again = RunLqe({"migrate", "--dsn", db.dsn()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("; gateway role: " + named + ";"), std::string::npos) << again.out;
  EXPECT_EQ(Scalar(db.dsn(), state_sql), before);
}

TEST(GatewayRoleTest, TooLongADefaultNameAsksForOne) {
  EXPECT_THROW(schema::DefaultGatewayRole(std::string(60, 'd')), schema::SchemaError);
  EXPECT_EQ(schema::DefaultGatewayRole("lqe"), "lqe_gateway_lqe");
}

TEST(GatewayRoleTest, TablesAndColumnsAreDescribed) {
  TestDatabase db("role_comments");
  ASSERT_EQ(RunLqe({"migrate", "--dsn", db.dsn()}).exit_code, 0);
  EXPECT_EQ(Scalar(db.dsn(),
                   "SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_class c "
                   "WHERE c.relnamespace = 'logs'::regnamespace AND c.relkind IN ('r', 'p') "
                   "AND c.relname !~ '_p[0-9]{8}$' AND obj_description(c.oid, 'pg_class') IS NULL"),
            "NULL");
  EXPECT_EQ(Scalar(db.dsn(),
                   "SELECT string_agg(c.relname || '.' || a.attname, ',') FROM pg_class c "
                   "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 "
                   "AND NOT a.attisdropped WHERE c.relnamespace = 'logs'::regnamespace "
                   "AND c.relkind IN ('r', 'p') AND c.relname !~ '_p[0-9]{8}$' "
                   "AND col_description(c.oid, a.attnum) IS NULL"),
            "NULL");
  EXPECT_EQ(Scalar(db.dsn(),
                   "SELECT count(*) FROM pg_class WHERE relnamespace = "
                   "'logs'::regnamespace AND relkind = 'p'"),
            "13");  // the nine sources and Studio's four more
  EXPECT_EQ(Scalar(db.dsn(), "SELECT col_description('logs.edge'::regclass, 2)"),
            "When the event happened (the event's timestamp, or the load time when it had none); "
            "the partition key.");
}

}  // namespace
}  // namespace lqe::testing
