// Item 7 of the translator issue, checked on the real cluster: the log listing over the stored
// logs.all endpoint (here with CROSS JOIN UNNEST of the metadata column, which adds no join) uses
// the (project, timestamp DESC) index, needs no sort, and stops after its LIMIT; the rows are the
// newest ones of the project, as a direct query over the table selects them.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "lqe/schema/migrate.h"
#include "lqe/translate.h"
#include "support/test_database.h"

namespace lqe {
namespace {

// The listing as Studio writes it: request and response are REPEATED records, unnested with a
// join each (an event may send either as an array of several objects).
const char* const kNestedListing =
    "select id, edge_logs.timestamp, event_message, r.path, response.status_code from edge_logs "
    "cross join unnest(metadata) as m cross join unnest(m.request) as r "
    "cross join unnest(m.response) as response ";
// Fields of metadata itself: its unnest binds the one object without a join.
const char* const kFlatListing =
    "select id, edge_logs.timestamp, event_message, m.load_balancer_redirect_identifier from "
    "edge_logs cross join unnest(metadata) as m ";

Translation TranslateEdgeList(const Catalog& catalog, const std::string& consumer) {
  TranslateOptions options;
  options.catalog = &catalog;
  const TypePtr s = Type::Scalar(TypeKind::kString);
  options.params = {{"project", s}, {"iso_timestamp_start", s}, {"iso_timestamp_end", s}};
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, consumer};
  TranslateResult r =
      Translate(testing::ReadFileText(testing::SourcePath("sql/logs.all.sql")), options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : Translation{};
}

void CheckListing(const std::string& consumer) {
  testing::TestDatabase db("translate_explain");
  pqxx::connection conn(db.dsn());
  schema::Migrate(conn, schema::MigrateOptions{});
  {
    pqxx::work w(conn);
    w.exec(
        "INSERT INTO logs.edge (id, timestamp, event_message, project, metadata) "
        "SELECT 'id' || g, now() - g * interval '1 second', 'GET', "
        "CASE WHEN g % 4 = 0 THEN 'p1' ELSE 'other' END, "
        "jsonb_build_object('request', jsonb_build_object('path', "
        "CASE WHEN g % 3 = 0 THEN '/auth/v1' ELSE '/rest/v1/t' END), "
        "'response', jsonb_build_object('status_code', 200 + (g % 3) * 100)) "
        "FROM generate_series(1, 40000) AS g");
    w.exec("ANALYZE logs.edge");
    w.commit();
  }
  std::string error;
  const Catalog catalog = Catalog::FromEntries(
      Catalog::ParseTsv(testing::ReadFileText(testing::SourcePath("schema/catalogue_seed.tsv")),
                        &error),
      &error);
  const Translation t = TranslateEdgeList(catalog, consumer);
  ASSERT_EQ(t.params.size(), 3u);

  pqxx::work w(conn);
  std::string plan;
  for (const auto& row : w.exec_params("EXPLAIN " + t.pg_sql, "p1", "", "")) {
    plan += row[0].as<std::string>() + "\n";
  }
  EXPECT_EQ(plan.rfind("Limit", 0), 0u) << plan;
  EXPECT_NE(plan.find("Index Scan"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("Sort  ("), std::string::npos) << plan;  // a Sort node, not a sort key
  EXPECT_EQ(plan.find("Seq Scan"), std::string::npos) << plan;

  const pqxx::result rows = w.exec_params(t.pg_sql, "p1", "", "");
  const pqxx::result expected =
      w.exec("SELECT id FROM logs.edge WHERE project = 'p1' ORDER BY timestamp DESC LIMIT 100");
  ASSERT_EQ(rows.size(), 100u);
  ASSERT_EQ(rows.size(), expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][0].as<std::string>(), expected[i][0].as<std::string>());
  }
}

TEST(TranslatedLogList, UsesTheProjectTimestampIndexAndStopsAtTheLimit) {
  CheckListing(std::string(kFlatListing) + "limit 100");
}

// With its own ORDER BY the consumer gets the CTEs without theirs, so PG can flatten them and
// still stop at the LIMIT, joins to REPEATED records included (bq.json_record_elements is
// estimated at one row per event). Without an ORDER BY, such joins keep PG from passing the
// LIMIT down to the ordered CTE, and it sorts the project's rows instead.
TEST(TranslatedLogList, ConsumerOrderByStillUsesTheIndex) {
  CheckListing(std::string(kFlatListing) + "order by timestamp desc limit 100");
  CheckListing(std::string(kNestedListing) + "order by timestamp desc limit 100");
}

// The time bounds are constants once the parameters are bound (the gateway's statements are
// planned with their values): CAST(<constant STRING> AS TIMESTAMP) is bq.timestamp_constant
// (IMMUTABLE), so PostgreSQL prunes the day partitions while planning. With the STABLE cast it
// planned every partition and pruned them only at executor start ("Subplans Removed").
TEST(TranslatedLogList, TimeBoundsPruneDayPartitionsWhilePlanning) {
  testing::TestDatabase db("translate_prune");
  pqxx::connection conn(db.dsn());
  schema::Migrate(conn, schema::MigrateOptions{});
  std::string error;
  const Catalog catalog = Catalog::FromEntries(
      Catalog::ParseTsv(testing::ReadFileText(testing::SourcePath("schema/catalogue_seed.tsv")),
                        &error),
      &error);
  const Translation t = TranslateEdgeList(catalog, std::string(kFlatListing) + "limit 100");
  pqxx::work w(conn);
  // From today's midnight (exclusive) to noon: only today's day partition holds such rows.
  const std::string today =
      w.exec1("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')")[0].as<std::string>();
  const std::string start = w.exec1(
                                 "SELECT to_char(date_trunc('day', now() AT TIME ZONE 'UTC'), "
                                 "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')")[0]
                                .as<std::string>();
  const std::string end = start.substr(0, 11) + "12:00:00Z";
  std::string plan;
  for (const auto& row : w.exec_params("EXPLAIN " + t.pg_sql, "p1", start, end)) {
    plan += row[0].as<std::string>() + "\n";
  }
  EXPECT_EQ(plan.find("Subplans Removed"), std::string::npos) << plan;
  EXPECT_NE(plan.find("edge_p" + today), std::string::npos) << plan;
  int others = 0;
  for (const auto& row :
       w.exec("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
              "WHERE i.inhparent = 'logs.edge'::regclass")) {
    const std::string name = row[0].as<std::string>();
    if (name == "edge_p" + today) continue;
    ++others;
    EXPECT_EQ(plan.find(name), std::string::npos) << name << " is planned:\n" << plan;
  }
  EXPECT_GE(others, 2) << "the migration made no other day partitions";
}

}  // namespace
}  // namespace lqe
