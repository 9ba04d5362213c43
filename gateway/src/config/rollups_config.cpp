// The `rollups:` section: per-bucket aggregates of a log table that `lqe migrate --config`
// creates and maintains. Each rollup is read on its own, so every broken one is reported.
#include <map>
#include <set>

#include "config/yaml_util.h"
#include "lqe/schema/migrate.h"

namespace lqe::gateway::config {
namespace {

schema::RollupDimension ParseDimension(const std::string& file, const YAML::Node& node,
                                       Problems& problems) {
  if (node.IsScalar()) {
    // A bare field path names its column after its last segment.
    const std::string& field = node.Scalar();
    return {field.substr(field.rfind('.') + 1), field};
  }
  CheckKeys(problems, file, node, "rollup dimension", {"name", "field"});
  if (!node["name"] || !node["field"]) Fail(file, node, "a dimension needs name and field");
  return {GetString(file, node["name"], "name"), GetString(file, node["field"], "field")};
}

schema::RollupMeasure ParseMeasure(const std::string& file, const YAML::Node& node,
                                   Problems& problems) {
  CheckKeys(problems, file, node, "rollup measure", {"name", "agg", "field", "where"});
  if (!node["name"] || !node["agg"]) Fail(file, node, "a measure needs name and agg");
  schema::RollupMeasure m;
  m.name = GetString(file, node["name"], "name");
  static const std::map<std::string, schema::RollupAgg> aggs = {
      {"count", schema::RollupAgg::kCount},
      {"countif", schema::RollupAgg::kCountIf},
      {"sum", schema::RollupAgg::kSum},
      {"min", schema::RollupAgg::kMin},
      {"max", schema::RollupAgg::kMax}};
  const std::string agg = GetString(file, node["agg"], "agg");
  const auto found = aggs.find(agg);
  if (found == aggs.end()) {
    Fail(file, node["agg"],
         "measure " + m.name + ": agg '" + agg + "' is not one of count, countif, sum, min, max");
  }
  m.agg = found->second;
  if (node["field"]) m.field = GetString(file, node["field"], "field");
  if (const YAML::Node where = node["where"]) {
    CheckKeys(problems, file, where, "rollup where", {"field", "op", "value"});
    if (!where["field"] || !where["op"]) Fail(file, where, "where needs field and op");
    m.where.field = GetString(file, where["field"], "field");
    m.where.op = GetString(file, where["op"], "op");
    const bool unary = m.where.op == "is_null" || m.where.op == "is_not_null";
    if (unary && where["value"]) Fail(file, where["value"], "op " + m.where.op + " takes no value");
    if (!unary && !where["value"]) Fail(file, where, "op " + m.where.op + " needs a value");
    if (!unary) m.where.value = GetString(file, where["value"], "value");
  }
  return m;
}

schema::RollupDef ParseRollup(Problems& problems, const std::string& file, const YAML::Node& node) {
  CheckKeys(problems, file, node, "rollup", {"name", "source", "bucket", "dimensions", "measures"});
  if (!node["name"] || !node["source"]) Fail(file, node, "a rollup needs name and source");
  schema::RollupDef def;
  def.name = GetString(file, node["name"], "name");
  def.source = GetString(file, node["source"], "source");
  if (node["bucket"]) def.bucket = GetString(file, node["bucket"], "bucket");
  if (const YAML::Node dims = node["dimensions"]) {
    if (!dims.IsSequence()) Fail(file, dims, "rollup " + def.name + ": dimensions must be a list");
    for (const auto& d : dims) def.dimensions.push_back(ParseDimension(file, d, problems));
  }
  const YAML::Node measures = node["measures"];
  if (!measures || !measures.IsSequence()) {
    Fail(file, measures ? measures : node, "rollup " + def.name + ": measures must be a list");
  }
  for (const auto& m : measures) def.measures.push_back(ParseMeasure(file, m, problems));
  try {
    schema::CheckRollupShape(def);
  } catch (const schema::SchemaError& e) {
    Fail(file, node, e.what());
  }
  return def;
}

}  // namespace

void ParseRollups(Problems& problems, const std::string& file, const YAML::Node& node, Config& c) {
  if (!node.IsSequence()) Fail(file, node, "rollups must be a list");
  std::set<std::string> names;
  for (const auto& r : node) {
    problems.Collect(file, [&] {
      schema::RollupDef def = ParseRollup(problems, file, r);
      if (!names.insert(def.name).second) Fail(file, r, "duplicate rollup name " + def.name);
      c.rollups.push_back(std::move(def));
    });
  }
}

}  // namespace lqe::gateway::config
