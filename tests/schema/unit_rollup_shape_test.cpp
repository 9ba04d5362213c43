// The checks of a rollup declaration that need no database, each with its exact message.
#include <gtest/gtest.h>

#include "lqe/schema/migrate.h"
#include "lqe/schema/rollups.h"

namespace lqe::schema {
namespace {

RollupDef Valid() {
  RollupDef def;
  def.name = "edge_status";
  def.source = "edge";
  def.dimensions = {{"project", "project"}, {"method", "metadata.request.method"}};
  def.measures = {
      {"requests", RollupAgg::kCount, "", {}},
      {"errors", RollupAgg::kCountIf, "", {"metadata.response.status_code", ">=", "500"}},
      {"slowest", RollupAgg::kMax, "metadata.response.origin_time", {}}};
  return def;
}

std::string Problem(const RollupDef& def) {
  try {
    CheckRollupShape(def);
    return "";
  } catch (const SchemaError& e) {
    return e.what();
  }
}

TEST(RollupShapeTest, AValidDeclarationPasses) {
  EXPECT_EQ(Problem(Valid()), "");
}

TEST(RollupShapeTest, EveryProblemHasItsMessage) {
  struct Case {
    void (*change)(RollupDef&);
    const char* message;
  };
  const Case cases[] = {
      {[](RollupDef& d) { d.name = "Edge"; },
       "rollup name 'Edge' must be a lower-case identifier of at most 40 characters"},
      {[](RollupDef& d) { d.name = std::string(41, 'a'); },
       "rollup name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' must be a lower-case identifier of "
       "at most 40 characters"},
      {[](RollupDef& d) { d.source = "edge_logs"; },
       "rollup edge_status: source 'edge_logs' is not a log table (edge, postgres, "
       "function_edge, function_events, auth, realtime, storage, restapi, pooler)"},
      {[](RollupDef& d) { d.bucket = "week"; },
       "rollup edge_status: bucket 'week' is not one of second, minute, hour, day"},
      {[](RollupDef& d) { d.measures.clear(); },
       "rollup edge_status: at least one measure is needed"},
      {[](RollupDef& d) { d.dimensions[1].name = "Method"; },
       "rollup edge_status: column name 'Method' must be a lower-case identifier"},
      {[](RollupDef& d) { d.dimensions[1].name = "timestamp"; },
       "rollup edge_status: column name 'timestamp' is the bucket's own column"},
      {[](RollupDef& d) { d.measures[0].name = "project"; },
       "rollup edge_status: column name 'project' is used twice"},
      {[](RollupDef& d) { d.dimensions[1].field = "metadata..method"; },
       "rollup edge_status: dimension method: field 'metadata..method' is not a field path "
       "(names of letters, digits and _ joined by dots)"},
      {[](RollupDef& d) { d.dimensions[1].field = "request.method"; },
       "rollup edge_status: dimension method: field 'request.method' is not project, id, "
       "event_message or a path under metadata. or extra."},
      {[](RollupDef& d) { d.measures[0].field = "project"; },
       "rollup edge_status: measure requests: count takes no field (it counts events)"},
      {[](RollupDef& d) { d.measures[1].where.field.clear(); },
       "rollup edge_status: measure errors: countif needs where: {field, op, value}"},
      {[](RollupDef& d) { d.measures[1].field = "project"; },
       "rollup edge_status: measure errors: countif takes its field inside where"},
      {[](RollupDef& d) { d.measures[1].where.op = "=~"; },
       "rollup edge_status: measure errors: op '=~' is not one of =, !=, <, <=, >, >=, is_null, "
       "is_not_null"},
      {[](RollupDef& d) { d.measures[2].field.clear(); },
       "rollup edge_status: measure slowest: sum, min and max need a field"},
  };
  for (const Case& c : cases) {
    RollupDef def = Valid();
    c.change(def);
    EXPECT_EQ(Problem(def), c.message);
  }
}

}  // namespace
}  // namespace lqe::schema
