// ClickHouse-dialect queries read the OTEL relation compiled with only the sources their WHERE
// leaves (clickhouse/source_filter.h): directly, through a pass-through CTE, and through a
// sandboxed endpoint's stored CTE (with the stored translation cached per set of sources).
#include <gtest/gtest.h>

#include <string>

#include "lqe/translate.h"

namespace lqe {
namespace {

const Catalog& EmptyCatalog() {
  static const Catalog catalog = [] {
    std::string error;
    return Catalog::FromEntries({{"edge", "id", "STRING"}}, &error);
  }();
  return catalog;
}

std::string Sql(const std::string& clickhouse) {
  TranslateOptions options;
  options.catalog = &EmptyCatalog();
  options.dialect = SqlDialect::kClickHouse;
  const TranslateResult r = Translate(clickhouse, options);
  EXPECT_TRUE(r.ok()) << clickhouse;
  return r.ok() ? r.value().pg_sql : "";
}

// The stored query of sql/logs.all.otel.sql, in short: a CTE `logs` of the relation's rows.
constexpr const char* kStored =
    "WITH logs AS (SELECT id, timestamp, project, source, event_message, log_attributes FROM "
    "logs WHERE project = 'default') SELECT id FROM logs";

std::string Sandboxed(const std::string& consumer, StoredQueryCache* cache) {
  TranslateOptions options;
  options.catalog = &EmptyCatalog();
  options.dialect = SqlDialect::kClickHouse;
  options.stored_cache = cache;
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kClickHouseSql, consumer};
  const TranslateResult r = Translate(kStored, options);
  EXPECT_TRUE(r.ok()) << consumer;
  return r.ok() ? r.value().pg_sql : "";
}

bool Reads(const std::string& sql, const std::string& table) {
  return sql.find("FROM logs." + table + " AS t") != std::string::npos;
}

int Branches(const std::string& sql) {
  const std::string branch = "AS attributes_event FROM logs.";
  int n = 0;
  for (std::size_t at = sql.find(branch); at != std::string::npos; at = sql.find(branch, at + 1)) {
    ++n;
  }
  return n;
}

TEST(SourcePruning, OneSourceReadsOnlyItsTable) {
  const std::string sql = Sql("SELECT id FROM logs WHERE source = 'auth_logs' ORDER BY id");
  EXPECT_TRUE(Reads(sql, "auth")) << sql;
  EXPECT_EQ(Branches(sql), 1) << sql;
  EXPECT_EQ(sql.find("otel_events"), std::string::npos) << sql;
}

TEST(SourcePruning, InListsAndOrsOfSourcesReadTheirUnion) {
  const std::string in =
      Sql("SELECT count() AS n FROM logs AS l WHERE l.source IN ('edge_logs', 'function_logs') AND "
          "severity_number > 9");
  EXPECT_TRUE(Reads(in, "edge") && Reads(in, "function_events")) << in;
  EXPECT_EQ(Branches(in), 2) << in;
  const std::string ors =
      Sql("SELECT count() AS n FROM logs WHERE (source = 'edge_logs' AND event_message != '') OR "
          "source = 'pgbouncer_logs'");
  EXPECT_TRUE(Reads(ors, "edge") && Reads(ors, "pooler")) << ors;
  EXPECT_EQ(Branches(ors), 2) << ors;
}

TEST(SourcePruning, AnUnknownSourceReadsNothing) {
  const std::string sql = Sql("SELECT count() AS n FROM logs WHERE source = 'supavisor_logs'");
  EXPECT_NE(sql.find("WHERE false"), std::string::npos) << sql;
  EXPECT_EQ(Branches(sql), 1) << sql;
}

TEST(SourcePruning, ConditionsThatDoNotRestrictTheSourceKeepTheView) {
  for (const char* q : {
           "SELECT id FROM logs WHERE source = 'edge_logs' OR event_message = 'x'",
           "SELECT id FROM logs WHERE NOT (source = 'edge_logs')",
           "SELECT id FROM logs WHERE source != 'edge_logs'",
           "SELECT id FROM logs WHERE source NOT IN ('edge_logs')",
           "SELECT id, event_message AS source FROM logs WHERE source = 'edge_logs'",
           "SELECT id FROM logs",
       }) {
    const std::string sql = Sql(q);
    EXPECT_NE(sql.find("FROM logs.otel_events AS logs"), std::string::npos) << q << "\n" << sql;
  }
}

TEST(SourcePruning, APassThroughCteReadsTheSourcesOfItsReaders) {
  const std::string one = Sql(
      "WITH logs AS (SELECT * FROM logs WHERE project = 'p') SELECT id FROM logs WHERE source = "
      "'storage_logs'");
  EXPECT_TRUE(Reads(one, "storage")) << one;
  EXPECT_EQ(Branches(one), 1) << one;
  // One reader without a source filter: every source.
  const std::string all = Sql(
      "WITH logs AS (SELECT id, source FROM logs) SELECT (SELECT count() FROM logs WHERE source "
      "= 'auth_logs') AS a, (SELECT count() FROM logs) AS b");
  EXPECT_NE(all.find("otel_events"), std::string::npos) << all;
  // A CTE that renames another column to source, or limits its rows, is not followed.
  const std::string renamed = Sql(
      "WITH l AS (SELECT id, event_message AS source FROM logs) SELECT count() AS n FROM l WHERE "
      "source = 'edge_logs'");
  EXPECT_NE(renamed.find("otel_events"), std::string::npos) << renamed;
  const std::string limited = Sql(
      "WITH l AS (SELECT id, source FROM logs LIMIT 5) SELECT count() AS n FROM l WHERE source = "
      "'edge_logs'");
  EXPECT_NE(limited.find("otel_events"), std::string::npos) << limited;
}

TEST(SourcePruning, ASandboxedConsumerRestrictsTheStoredCte) {
  StoredQueryCache cache;
  const std::string edge =
      Sandboxed("SELECT id FROM logs WHERE source = 'edge_logs' ORDER BY timestamp DESC", &cache);
  EXPECT_TRUE(Reads(edge, "edge")) << edge;
  EXPECT_EQ(Branches(edge), 1) << edge;
  const std::string auth =
      Sandboxed("SELECT count() AS n FROM logs WHERE source = 'auth_logs'", &cache);
  EXPECT_TRUE(Reads(auth, "auth")) << auth;
  EXPECT_EQ(Branches(auth), 1) << auth;
  const std::string all = Sandboxed("SELECT count() AS n FROM logs", &cache);
  EXPECT_NE(all.find("FROM logs.otel_events AS logs"), std::string::npos) << all;
  // One cached stored translation per set of sources; the same set is served from the cache.
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(
      Sandboxed("SELECT id FROM logs WHERE source = 'edge_logs' ORDER BY timestamp DESC", &cache),
      edge);
  // Names of no source share one entry: they read nothing.
  const std::string none = Sandboxed("SELECT count() AS n FROM logs WHERE source = 'x'", &cache);
  EXPECT_NE(none.find("WHERE false"), std::string::npos) << none;
  Sandboxed("SELECT count() AS n FROM logs WHERE source = 'y'", &cache);
  EXPECT_EQ(cache.size(), 4u);
}

// The stored final SELECT is what callers replace: its source filter never restricts the CTE,
// whatever the caller's language.
TEST(SourcePruning, TheReplacedFinalSelectRestrictsNothing) {
  TranslateOptions options;
  options.catalog = &EmptyCatalog();
  options.dialect = SqlDialect::kClickHouse;
  const std::string stored =
      "WITH logs AS (SELECT id, timestamp, source, event_message FROM logs) SELECT id FROM logs "
      "WHERE source = 'edge_logs'";
  for (const auto language :
       {ConsumerQuery::Language::kLql, ConsumerQuery::Language::kClickHouseSql}) {
    options.consumer = ConsumerQuery{
        language, language == ConsumerQuery::Language::kLql ? "" : "SELECT id FROM logs"};
    const TranslateResult r = Translate(stored, options);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_NE(r.value().pg_sql.find("FROM logs.otel_events AS logs"), std::string::npos)
        << r.value().pg_sql;
  }
  // Run as it is (no caller), the final SELECT's filter applies.
  options.consumer.reset();
  const TranslateResult own = Translate(stored, options);
  ASSERT_TRUE(own.ok());
  EXPECT_EQ(Branches(own.value().pg_sql), 1) << own.value().pg_sql;
}

}  // namespace
}  // namespace lqe
