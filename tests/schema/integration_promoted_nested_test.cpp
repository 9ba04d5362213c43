// Promoted fields inside metadata's REPEATED records (008_promoted_fields.sql): edge
// metadata.response.status_code, request.method and request.path get <base>_min/_max columns, the
// lowest and highest of the translator's element reads; the translator adds the row condition a
// comparison on an element implies, so results stay exactly those of the jsonb reads (proved here
// on records with several elements, none, null, scalars and unreadable values, for SQL through
// the table and the logs.all CTEs and for LQL) while the filter becomes an index condition.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "lqe/catalog.h"
#include "lqe/translate.h"
#include "promoted_catalog.h"
#include "schema_test_util.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

enum class Consumer { kTable, kLogsAllSql, kLogsAllLql };

// A query on the log tables (kTable), or a consumer query of the logs.all endpoint.
std::string TranslateWith(const Catalog& catalog, const std::string& query, Consumer kind) {
  TranslateOptions options;
  options.catalog = &catalog;
  std::string stored = query;
  if (kind != Consumer::kTable) {
    stored = ReadFileText(SourcePath("sql/logs.all.sql"));
    for (const char* p : {"project", "iso_timestamp_start", "iso_timestamp_end"}) {
      options.params[p] = Type::Scalar(TypeKind::kString);
    }
    options.consumer = ConsumerQuery{kind == Consumer::kLogsAllLql ? ConsumerQuery::Language::kLql
                                                                   : ConsumerQuery::Language::kSql,
                                     query};
  }
  const TranslateResult result = Translate(stored, options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return result.value().pg_sql;
}

std::string Rows(pqxx::work& tx, const std::string& sql, Consumer kind) {
  std::string out;
  const pqxx::result rows =
      kind == Consumer::kTable ? tx.exec(sql) : tx.exec_params(sql, "p1", "", "");
  for (const auto& row : rows) {
    for (const auto& field : row) {
      out += (field.is_null() ? "NULL" : field.c_str()) + std::string("|");
    }
    out += '\n';
  }
  return out;
}

// response / request values that read differently or not at all: several elements, none, JSON
// null, a scalar instead of a record, quoted and fractional numbers, unreadable strings, absent
// fields, mixed readable and unreadable elements.
constexpr const char* kTrickyResponses[] = {
    R"({"status_code": 503})",
    R"({"status_code": "502"})",
    R"({"status_code": 500.0})",
    R"({"status_code": "abc"})",
    R"({"status_code": null})",
    R"({})",
    R"([])",
    R"(null)",
    R"("a string")",
    R"(17)",
    R"([{"status_code": 200}, {"status_code": 503}])",
    R"([{"status_code": "x"}, {"status_code": 404}, {}])",
    R"([{"status_code": 501}, {"status_code": 501}])",
    R"([null, {"status_code": 599}])",
    R"({"status_code": 99999999999999999999})",
    R"({"status_code": [500]})",
};
constexpr const char* kTrickyRequests[] = {
    R"({"method": "DELETE", "path": "/rest/v1/x"})",
    R"({"method": "GET", "path": "/auth/v1"})",
    R"([{"method": "GET"}, {"method": "DELETE", "path": "/rest"}])",
    R"([])",
    R"(null)",
    R"({"method": 5, "path": true})",
    R"([{"method": "delete"}, {"method": "Delete"}])",
    R"({"method": "DELETE\u00e9", "path": "/Rest"})",
};

class PromotedNestedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(RunLqe({"migrate", "--dsn", db_.dsn()}).exit_code, 0);
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    // Rows stored before the promotion (backfilled) and after it (filled by the trigger).
    Insert(tx, "before");
    tx.exec(
        "INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES "
        "('edge', 'metadata.response.status_code', 'INT64'), "
        "('edge', 'metadata.request.method', 'STRING'), "
        "('edge', 'metadata.request.path', 'STRING')");
    tx.commit();
    const CommandResult migrated = RunLqe({"migrate", "--dsn", db_.dsn()});
    ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
    for (const char* column : {"edge.p_response_status_code_min", "edge.p_response_status_code_max",
                               "edge.p_request_method_min", "edge.p_request_method_max"}) {
      EXPECT_NE(migrated.out.find("promoted column " + std::string(column) + "\n"),
                std::string::npos)
          << migrated.out;
    }
    pqxx::work after(conn);
    Insert(after, "after");
    after.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) "
        "SELECT 'bulk' || i, now() - i * interval '1 second' - interval '500 ms', 'p' || (i % 3), "
        "jsonb_build_object('request', jsonb_build_object('method', 'GET', 'path', '/rest/v1'), "
        "'response', jsonb_build_object('status_code', CASE WHEN i % 40 = 0 THEN 503 ELSE 200 "
        "END)) FROM generate_series(1, 3000) i");
    after.exec("ANALYZE logs.edge");
    after.commit();
  }

  static void Insert(pqxx::work& tx, const std::string& prefix) {
    int i = 0;
    for (const char* response : kTrickyResponses) {
      for (const char* request : kTrickyRequests) {
        ++i;
        tx.exec_params(
            "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) VALUES ($1, now() - $2 "
            "* interval '1 second', 'p1', jsonb_build_object('request', $3::jsonb, 'response', "
            "$4::jsonb))",
            prefix + std::to_string(i), i, request, response);
      }
    }
    tx.exec_params(
        "INSERT INTO logs.edge (id, \"timestamp\", project, metadata) VALUES ($1, now(), 'p1', "
        "'{}')",
        prefix + "-absent");
  }

  TestDatabase db_{"promoted_nested"};
};

TEST_F(PromotedNestedTest, MigrateAddsMinAndMaxColumnsWithTheirIndexes) {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  EXPECT_EQ(tx.exec1("SELECT string_agg(path || ' ' || column_name || ' ' || backfilled, ', ' "
                     "ORDER BY path) FROM logs.promoted_fields WHERE source = 'edge'")[0]
                .as<std::string>(),
            "metadata.request.method p_request_method true, metadata.request.path p_request_path "
            "true, metadata.response.status_code p_response_status_code true");
  EXPECT_EQ(tx.exec1("SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod) || ' ' "
                     "|| coalesce(collname, '-'), ', ' ORDER BY attname) FROM pg_attribute a "
                     "LEFT JOIN pg_collation c ON c.oid = a.attcollation AND a.attcollation <> "
                     "100 WHERE attrelid = 'logs.edge'::regclass AND attname LIKE 'p\\_%'")[0]
                .as<std::string>(),
            "p_request_method_max text C, p_request_method_min text C, p_request_path_max text C, "
            "p_request_path_min text C, p_response_status_code_max bigint -, "
            "p_response_status_code_min bigint -");
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_indexes WHERE schemaname = 'logs' AND tablename = "
                     "'edge' AND indexdef ~ '\\(project, p_[a-z_]+_(min|max), \"timestamp\" "
                     "DESC\\)'")[0]
                .as<int>(),
            6);
}

TEST_F(PromotedNestedTest, TheColumnsHoldTheLowestAndHighestElementRead) {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  // Against the reads written out independently: every row, backfilled or filled by the trigger.
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.edge e, LATERAL (SELECT min(bq.json_int64(r ->> "
                     "'status_code')) AS lo, max(bq.json_int64(r ->> 'status_code')) AS hi FROM "
                     "bq.json_record_elements(e.metadata -> 'response') AS r) s WHERE "
                     "p_response_status_code_min IS DISTINCT FROM s.lo OR "
                     "p_response_status_code_max IS DISTINCT FROM s.hi")[0]
                .as<int>(),
            0);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM logs.edge e, LATERAL (SELECT min((q ->> 'method') "
                     "COLLATE \"C\") AS lo, max((q ->> 'method') COLLATE \"C\") AS hi FROM "
                     "bq.json_record_elements(e.metadata -> 'request') AS q) s WHERE "
                     "p_request_method_min IS DISTINCT FROM s.lo OR p_request_method_max IS "
                     "DISTINCT FROM s.hi")[0]
                .as<int>(),
            0);
  EXPECT_EQ(Rows(tx,
                 "SELECT id, p_response_status_code_min, p_response_status_code_max FROM logs.edge "
                 "WHERE id IN ('after1', 'after9', 'after25', 'after57', 'after81', 'after89', "
                 "'after105') ORDER BY id",
                 Consumer::kTable),
            "after1|503|503|\nafter105|599|599|\nafter25|NULL|NULL|\nafter57|NULL|NULL|\n"
            "after81|200|503|\nafter89|404|404|\nafter9|502|502|\n");
  // An UPDATE of metadata refills them.
  tx.exec(
      "UPDATE logs.edge SET metadata = '{\"response\": [{\"status_code\": 301}, "
      "{\"status_code\": 302}]}' WHERE id = 'after1'");
  EXPECT_EQ(Rows(tx,
                 "SELECT p_response_status_code_min, p_response_status_code_max FROM logs.edge "
                 "WHERE id = 'after1'",
                 Consumer::kTable),
            "301|302|\n");
}

TEST_F(PromotedNestedTest, ResultsAreTheSameWithAndWithoutTheColumns) {
  const Catalog plain = LoadCatalog("");
  const Catalog promoted = LoadCatalog(db_.dsn());
  const std::pair<const char*, Consumer> queries[] = {
      {"select t.id, r.status_code from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.response) r where r.status_code >= 500 order by t.id, r.status_code",
       Consumer::kTable},
      {"select t.id from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.response) r where 404 >= r.status_code and r.status_code > 199 order by t.id",
       Consumer::kTable},
      {"select t.id from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.response) r where r.status_code = 501 order by t.id",
       Consumer::kTable},
      {"select t.id, q.method from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.request) q where q.method = 'DELETE' order by t.id, q.method",
       Consumer::kTable},
      {"select t.id, q.path from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.request) q where q.path < '/rest' and q.method >= 'D' order by t.id, q.path",
       Consumer::kTable},
      {"select t.id, q.path from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.request) q where regexp_contains(q.path, '^/rest') and q.method like 'DEL%' "
       "order by t.id, q.path",
       Consumer::kTable},
      {"select t.id, q.method from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.request) q where regexp_contains(q.method, r'^\\w+$') and ends_with(q.method, "
       "'e') order by t.id, q.method",
       Consumer::kTable},
      {"select t.id from `logs.edge` t where exists (select 1 from unnest(t.metadata) m cross "
       "join unnest(m.response) r where r.status_code > 500) order by t.id",
       Consumer::kTable},
      {"select timestamp, id, request.method, request.path, response.status_code from edge_logs "
       "cross join unnest(metadata) as metadata cross join unnest(metadata.request) as request "
       "cross join unnest(metadata.response) as response where response.status_code >= 500 and "
       "regexp_contains(request.path, '/rest') order by timestamp desc, id limit 100",
       Consumer::kLogsAllSql},
      {"select id, response.status_code from edge_logs cross join unnest(metadata) as m cross "
       "join unnest(m.response) as response where response.status_code < 300 order by id",
       Consumer::kLogsAllSql},
      {"f:edge_logs m.response.status_code:>=500 c:count(*) c:group_by(t::minute)",
       Consumer::kLogsAllLql},
      {"f:edge_logs m.request.method:DELETE -m.response.status_code:503", Consumer::kLogsAllLql},
      {"f:edge_logs m.response.status_code:<300", Consumer::kLogsAllLql},
      {"f:edge_logs m.request.path:~/rest m.response.status_code:>=500", Consumer::kLogsAllLql},
      // Listings on an element equality, split in two ordered branches (emit_split.cpp): rows
      // with max = v, and rows whose elements differ with min <= v < max ([GET, DELETE] for
      // DELETE, [200, 503] for 200), cut by small LIMITs.
      {"select timestamp, id, request.method from edge_logs cross join unnest(metadata) as "
       "metadata cross join unnest(metadata.request) as request where request.method = 'DELETE' "
       "order by timestamp desc, id limit 100",
       Consumer::kLogsAllSql},
      {"select timestamp, id, request.method from edge_logs cross join unnest(metadata) as "
       "metadata cross join unnest(metadata.request) as request where request.method = 'DELETE' "
       "order by timestamp desc, id limit 3",
       Consumer::kLogsAllSql},
      {"select id, response.status_code as s from edge_logs cross join unnest(metadata) as m "
       "cross join unnest(m.response) as response where response.status_code = 200 order by "
       "timestamp, id desc limit 7",
       Consumer::kLogsAllSql},
      {"select timestamp, id, request.path, response.status_code from edge_logs cross join "
       "unnest(metadata) as metadata cross join unnest(metadata.request) as request cross join "
       "unnest(metadata.response) as response where request.method = 'DELETE' and "
       "response.status_code >= 400 order by timestamp desc, id limit 100",
       Consumer::kLogsAllSql},
      {"select t.id, r.status_code from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.response) r where 501 = r.status_code order by t.timestamp desc, t.id limit 5",
       Consumer::kTable},
      {"select t.id, q.method from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.request) q where q.method = 'GET' order by t.timestamp, t.id limit 4",
       Consumer::kTable},
      {"select t.id, q.method from `logs.edge` t cross join unnest(t.metadata) m cross join "
       "unnest(m.request) q where q.method = 'Delete' order by t.id limit 50",
       Consumer::kTable},
  };
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  for (const auto& [query, kind] : queries) {
    const std::string with = TranslateWith(promoted, query, kind);
    const std::string without = TranslateWith(plain, query, kind);
    // Each uses a promoted column's implied condition.
    EXPECT_TRUE(with.find("_max >") != std::string::npos ||
                with.find("_min <") != std::string::npos ||
                with.find("_min <>") != std::string::npos)
        << query << "\n"
        << with;
    const std::string rows = Rows(tx, with, kind);
    EXPECT_EQ(rows, Rows(tx, without, kind)) << query;
    EXPECT_NE(rows, "") << query;
    EXPECT_EQ(rows.find("p_"), std::string::npos) << query;
  }
}

TEST_F(PromotedNestedTest, AnEqualityListingReadsBothBranchesInOrder) {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  // The index (008_promoted_fields.sql) for the rows whose elements differ, one per nested field.
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM pg_indexes WHERE schemaname = 'logs' AND tablename = "
                     "'edge' AND indexdef ~ '\\(project, \\(\\(p_[a-z_]+_min < "
                     "p_[a-z_]+_max\\)\\), \"timestamp\" DESC\\)'")[0]
                .as<int>(),
            3);
  const Catalog promoted = LoadCatalog(db_.dsn());
  const std::string sql = TranslateWith(
      promoted,
      "select id from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as "
      "q where q.method = 'GET' order by timestamp desc limit 10",
      Consumer::kLogsAllSql);
  EXPECT_NE(sql.find("edge_logs AS NOT MATERIALIZED ("), std::string::npos) << sql;
  EXPECT_NE(sql.find(" UNION ALL "), std::string::npos) << sql;
  tx.exec("SET LOCAL enable_seqscan = off");
  tx.exec("SET LOCAL enable_bitmapscan = off");
  std::string plan;
  for (const auto& row : tx.exec_params("EXPLAIN (COSTS OFF) " + sql, "p1", "", "")) {
    plan += row[0].as<std::string>() + '\n';
  }
  // Merged, each branch an index scan in timestamp order, nothing sorted.
  EXPECT_NE(plan.find("Merge Append"), std::string::npos) << plan;
  EXPECT_NE(plan.find("(p_request_method_max = 'GET'::text)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("((p_request_method_min < p_request_method_max) = true)"), std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("->  Sort"), std::string::npos) << plan;
}

TEST_F(PromotedNestedTest, TheImpliedConditionIsAnIndexCondition) {
  const Catalog promoted = LoadCatalog(db_.dsn());
  const std::string sql = TranslateWith(
      promoted,
      "select count(*) as n from `logs.edge` as t cross join unnest(t.metadata) as m cross join "
      "unnest(m.response) as r where t.project = 'p1' and r.status_code >= 500",
      Consumer::kTable);
  EXPECT_NE(sql.find("(t.p_response_status_code_max >= 500)"), std::string::npos) << sql;
  EXPECT_NE(sql.find("bq.json_int64((r.value ->> 'status_code')) >= 500"), std::string::npos)
      << sql;
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  tx.exec("SET LOCAL enable_seqscan = off");
  std::string plan;
  for (const auto& row : tx.exec("EXPLAIN " + sql)) plan += row[0].as<std::string>() + '\n';
  EXPECT_NE(plan.find("Index Cond: ((project = 'p1'::text) AND (p_response_status_code_max >= "
                      "500))"),
            std::string::npos)
      << plan;
}

TEST_F(PromotedNestedTest, AnArrayOrAFieldUnderAScalarFailsTheMigrate) {
  const std::pair<const char*, const char*> refused[] = {
      {"metadata.request.cf.botManagement.detectionIds",
       "promoted field metadata.request.cf.botManagement.detectionIds is REPEATED (an array of "
       "values): only a single value per record element can be promoted"},
      {"metadata.request.method.length",
       "promoted field metadata.request.method.length lies under metadata.request.method, which "
       "is typed STRING, not a record"},
  };
  for (const auto& [path, message] : refused) {
    {
      pqxx::connection conn(db_.dsn());
      pqxx::work tx(conn);
      tx.exec("DELETE FROM logs.promoted_fields WHERE column_name IS NULL");
      tx.exec_params(
          "INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES ('edge', $1, 'INT64')",
          std::string(path));
      tx.commit();
    }
    const CommandResult migrated = RunLqe({"migrate", "--dsn", db_.dsn()});
    EXPECT_EQ(migrated.exit_code, 1) << path;
    EXPECT_NE(migrated.err.find(message), std::string::npos) << migrated.err;
  }
}

}  // namespace
}  // namespace lqe::testing
