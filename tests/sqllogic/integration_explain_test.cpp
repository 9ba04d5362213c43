// Issue item 7: the translated SQL stays index-friendly. Plans are taken with EXPLAIN (FORMAT
// JSON) and the parameter values bound (exec_params plans with the values, like the gateway's
// unnamed statements), on 50k generated edge rows over three daily partitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <vector>

#include "lqe/translate.h"
#include "sqllogic/corpus.h"
#include "sqllogic/migrations.h"
#include "support/test_database.h"

namespace {

namespace json = boost::json;

class Explain : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_db = new lqe::testing::TestDatabase("explain");
    lqe::sqllogic::ApplyMigrations(shared_db->dsn());
    pqxx::connection conn(shared_db->dsn());
    pqxx::work tx(conn);
    tx.exec("SELECT logs.ensure_partitions('2025-01-13', '2025-01-16')");
    // 50k rows, 10 projects, one every 5 s from 2025-01-13; function_edge likewise keyed by
    // metadata.project_ref.
    tx.exec(
        "INSERT INTO logs.edge (id, \"timestamp\", event_message, project, metadata) "
        "SELECT 'g-' || g, timestamptz '2025-01-13 00:00:00+00' + g * interval '5 seconds', "
        "'GET | 200', 'p' || (g % 10), jsonb_build_object('request', jsonb_build_object("
        "'method', CASE WHEN g % 4 = 3 THEN 'POST' ELSE 'GET' END, 'path', '/rest/v1/t'), "
        "'response', jsonb_build_object('status_code', 200)) "
        "FROM generate_series(1, 50000) AS g");
    tx.exec(
        "INSERT INTO logs.function_edge (id, \"timestamp\", event_message, project, metadata) "
        "SELECT 'f-' || g, timestamptz '2025-01-13 00:00:00+00' + g * interval '5 seconds', "
        "'POST | 200', NULL, jsonb_build_object('project_ref', 'p' || (g % 10), "
        "'function_id', 'fn') FROM generate_series(1, 50000) AS g");
    tx.exec("ANALYZE");
    tx.commit();
  }
  static void TearDownTestSuite() { delete shared_db; }

  // The JSON plan of the translated record, parameters bound.
  static json::value Plan(const lqe::sqllogic::Record& record) {
    const auto outcome = lqe::sqllogic::Explain(record, shared_db->dsn());
    EXPECT_TRUE(outcome.ok) << outcome.error << "\n" << outcome.pg_sql;
    if (!outcome.ok) {
      return {};
    }
    return json::parse(outcome.rows.at(0)).as_array().at(0).as_object().at("Plan");
  }

  static lqe::testing::TestDatabase* shared_db;
};

lqe::testing::TestDatabase* Explain::shared_db = nullptr;

void CollectNodes(const json::value& node, std::vector<const json::object*>& out) {
  if (!node.is_object()) {
    return;
  }
  out.push_back(&node.as_object());
  if (const auto* plans = node.as_object().if_contains("Plans")) {
    for (const auto& child : plans->as_array()) {
      CollectNodes(child, out);
    }
  }
}

std::vector<std::string> NodeTypes(const json::value& plan) {
  std::vector<const json::object*> nodes;
  CollectNodes(plan, nodes);
  std::vector<std::string> types;
  types.reserve(nodes.size());
  for (const auto* n : nodes) {
    types.emplace_back(n->at("Node Type").as_string().c_str());
  }
  return types;
}

bool UsesIndex(const json::value& plan, const std::string& index_suffix) {
  std::vector<const json::object*> nodes;
  CollectNodes(plan, nodes);
  for (const auto* n : nodes) {
    const auto* index = n->if_contains("Index Name");
    if (index != nullptr &&
        std::string(index->as_string().c_str()).find(index_suffix) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// An index scan whose condition mentions `text` (partition indexes get generated names such as
// function_edge_p20250113_expr_timestamp_idx, so the condition is what identifies them).
bool IndexCondMentions(const json::value& plan, const std::string& text) {
  std::vector<const json::object*> nodes;
  CollectNodes(plan, nodes);
  for (const auto* n : nodes) {
    const auto* cond = n->if_contains("Index Cond");
    if (cond != nullptr && std::string(cond->as_string().c_str()).find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool Contains(const std::vector<std::string>& types, const std::string& type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

lqe::sqllogic::Record StoredListing(const std::string& start, const std::string& end) {
  lqe::sqllogic::Record r;
  r.name = "logs.all";
  r.endpoint = "logs.all";
  r.params = {{"project", "p3"}, {"iso_timestamp_start", start}, {"iso_timestamp_end", end}};
  return r;
}

TEST_F(Explain, StoredListingWithEmptyBoundsIsLimitOverIndexScansWithoutSort) {
  const auto plan = Plan(StoredListing("", ""));
  const auto types = NodeTypes(plan);
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.front(), "Limit") << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Sort")) << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Seq Scan")) << json::serialize(plan);
  EXPECT_TRUE(UsesIndex(plan, "project")) << json::serialize(plan);
}

// Both edge indexes now give the listing's order: (project, "timestamp" DESC) and, read
// backwards, the chart's ("timestamp") one. On this data (10 evenly spread projects, rows in
// time order) PostgreSQL may take either; neither sorts nor scans a whole partition.
TEST_F(Explain, StoredListingWithBoundsUsesTheIndexWithoutSort) {
  const auto plan = Plan(StoredListing("2025-01-13T10:00:00.000Z", "2025-01-14T10:00:00.000Z"));
  const auto types = NodeTypes(plan);
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.front(), "Limit") << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Sort")) << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Seq Scan")) << json::serialize(plan);
  EXPECT_TRUE(UsesIndex(plan, "project") || UsesIndex(plan, "_timestamp_idx"))
      << json::serialize(plan);
}

// The bounds are plain ranges on the partition key, constants once the parameters are bound
// (bq.timestamp_constant, 011_bq_time.sql): PostgreSQL prunes the day partitions outside them while
// planning, so it plans only the days in range (on a sharded coordinator, a node holding only
// other days is never contacted). Before 070 it planned every day and pruned at executor start.
TEST_F(Explain, StoredListingBoundsPruneDayPartitionsWhilePlanning) {
  const auto plan = Plan(StoredListing("2025-01-13T10:00:00.000Z", "2025-01-14T10:00:00.000Z"));
  std::vector<const json::object*> nodes;
  CollectNodes(plan, nodes);
  int removed = 0;
  std::vector<std::string> scanned;
  for (const auto* n : nodes) {
    if (const auto* r = n->if_contains("Subplans Removed")) {
      removed += static_cast<int>(r->as_int64());
    }
    if (const auto* rel = n->if_contains("Relation Name")) {
      scanned.emplace_back(rel->as_string().c_str());
    }
  }
  EXPECT_EQ(removed, 0) << json::serialize(plan);  // none left to remove at startup
  std::sort(scanned.begin(), scanned.end());
  scanned.erase(std::unique(scanned.begin(), scanned.end()), scanned.end());
  EXPECT_EQ(scanned, (std::vector<std::string>{"edge_p20250113", "edge_p20250114"}))
      << json::serialize(plan);
}

// An absent bound is BigQuery's first or last instant (sql/logs.all.sql), a constant like the
// other: a listing bounded on one side only still prunes the days outside it while planning.
TEST_F(Explain, StoredListingWithOneBoundPrunesDayPartitionsWhilePlanning) {
  struct Planned {
    int removed = 0;
    std::set<std::string> scanned;
  };
  const auto planned = [](const json::value& plan) {
    std::vector<const json::object*> nodes;
    CollectNodes(plan, nodes);
    Planned out;
    for (const auto* n : nodes) {
      if (const auto* r = n->if_contains("Subplans Removed")) {
        out.removed += static_cast<int>(r->as_int64());
      }
      if (const auto* rel = n->if_contains("Relation Name")) {
        out.scanned.emplace(rel->as_string().c_str());
      }
    }
    return out;
  };
  const auto from = Plan(StoredListing("2025-01-14T10:00:00.000Z", ""));
  const Planned later = planned(from);
  EXPECT_EQ(later.removed, 0) << json::serialize(from);
  EXPECT_TRUE(later.scanned.contains("edge_p20250114")) << json::serialize(from);
  EXPECT_FALSE(later.scanned.contains("edge_p20250113")) << json::serialize(from);
  const auto until = Plan(StoredListing("", "2025-01-13T10:00:00.000Z"));
  const Planned earlier = planned(until);
  EXPECT_EQ(earlier.removed, 0) << json::serialize(until);
  EXPECT_EQ(earlier.scanned, (std::set<std::string>{"edge_p20250113"})) << json::serialize(until);
}

TEST_F(Explain, EmptyOptionalParametersLeaveNoFilterBehind) {
  const auto plan = Plan(StoredListing("", ""));
  const std::string text = json::serialize(plan);
  EXPECT_EQ(text.find("CASE"), std::string::npos) << text;
  EXPECT_EQ(text.find("COALESCE"), std::string::npos) << text;
}

// The metadata column holds one object (the loader stores nothing else there), so its UNNEST
// binds it without a join. Nested records are REPEATED and may arrive as arrays: each UNNEST of
// one is a join over its elements.
TEST_F(Explain, CrossJoinUnnestOfTheMetadataColumnAddsNoJoin) {
  lqe::sqllogic::Record r;
  r.sandbox = "logs.all";
  r.params = {{"project", "p3"}, {"iso_timestamp_start", ""}, {"iso_timestamp_end", ""}};
  r.sql =
      "select count(*) as n from function_edge_logs cross join unnest(metadata) as m "
      "where m.function_id = 'fn'";
  const auto plan = Plan(r);
  const auto types = NodeTypes(plan);
  for (const char* join : {"Nested Loop", "Hash Join", "Merge Join", "Function Scan"}) {
    EXPECT_FALSE(Contains(types, join)) << join << " in " << json::serialize(plan);
  }
  r.sql =
      "select count(*) as n from edge_logs cross join unnest(metadata) as m "
      "cross join unnest(m.request) as r cross join unnest(m.response) as s "
      "where r.method = 'POST' and s.status_code = 200";
  EXPECT_TRUE(Contains(NodeTypes(Plan(r)), "Function Scan"));
}

// Studio's list queries read a CTE and order it again; the CTE's own ORDER BY must not keep
// PostgreSQL from flattening it, or every row of the project is sorted before the LIMIT.
TEST_F(Explain, ConsumerListingOverEdgeLogsStopsAtItsLimit) {
  lqe::sqllogic::Record r;
  r.sandbox = "logs.all";
  r.params = {{"project", "p3"}, {"iso_timestamp_start", ""}, {"iso_timestamp_end", ""}};
  r.sql = "select id, timestamp, event_message from edge_logs order by timestamp desc limit 100";
  const auto plan = Plan(r);
  const auto types = NodeTypes(plan);
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.front(), "Limit") << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Sort")) << json::serialize(plan);
  EXPECT_TRUE(UsesIndex(plan, "project")) << json::serialize(plan);
}

// The day partitions an Append reads, in the order it reads them.
std::vector<std::string> AppendOrder(const json::value& plan) {
  std::vector<const json::object*> nodes;
  CollectNodes(plan, nodes);
  std::vector<std::string> order;
  for (const auto* n : nodes) {
    if (n->at("Node Type").as_string() != "Append") continue;
    for (const auto& child : n->at("Plans").as_array()) {
      if (const auto* rel = child.as_object().if_contains("Relation Name")) {
        order.emplace_back(rel->as_string().c_str());
      }
    }
  }
  return order;
}

// "timestamp" is NOT NULL, so the translator orders it with plain DESC / ASC (BigQuery's NULLS
// LAST / FIRST mean nothing there): that is the partitions' own order, and PostgreSQL reads them
// one after the other (an ordered Append, newest first for DESC) and stops at the LIMIT, instead
// of a Merge Append that starts every partition in range (on a sharded coordinator, a round trip
// to every node holding one).
TEST_F(Explain, ListingsReadTheDayPartitionsInOrderAndStopAtTheLimit) {
  auto plan = Plan(StoredListing("", ""));
  auto types = NodeTypes(plan);
  EXPECT_FALSE(Contains(types, "Merge Append")) << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Sort")) << json::serialize(plan);
  // Newest first (the migrations also made partitions around today, which hold no rows).
  auto order = AppendOrder(plan);
  EXPECT_TRUE(std::is_sorted(order.rbegin(), order.rend())) << json::serialize(plan);
  EXPECT_EQ(std::count(order.begin(), order.end(), "edge_p20250113"), 1) << json::serialize(plan);
  lqe::sqllogic::Record r;
  r.sandbox = "logs.all";
  r.params = {{"project", "p3"}, {"iso_timestamp_start", ""}, {"iso_timestamp_end", ""}};
  r.sql = "select id, timestamp from edge_logs order by timestamp asc limit 10";
  plan = Plan(r);
  types = NodeTypes(plan);
  EXPECT_FALSE(Contains(types, "Merge Append")) << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Sort")) << json::serialize(plan);
  order = AppendOrder(plan);
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end())) << json::serialize(plan);
  EXPECT_EQ(std::count(order.begin(), order.end(), "edge_p20250113"), 1) << json::serialize(plan);
}

TEST_F(Explain, FunctionEdgeListingUsesTheProjectRefExpressionIndex) {
  lqe::sqllogic::Record r;
  r.sandbox = "logs.all";
  r.params = {{"project", "p3"}, {"iso_timestamp_start", ""}, {"iso_timestamp_end", ""}};
  r.sql = "select id, timestamp from function_edge_logs order by timestamp desc limit 100";
  const auto plan = Plan(r);
  const auto types = NodeTypes(plan);
  EXPECT_EQ(types.front(), "Limit") << json::serialize(plan);
  EXPECT_FALSE(Contains(types, "Sort")) << json::serialize(plan);
  EXPECT_TRUE(IndexCondMentions(plan, "project_ref")) << json::serialize(plan);
}

}  // namespace
