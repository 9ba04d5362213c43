#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "lqe/schema/catalogue_evolution.h"

namespace lqe::schema {
namespace {

std::vector<CatalogEntry> Base() {
  return {{"edge", "id", "STRING", "NULLABLE"},
          {"edge", "metadata", "RECORD", "NULLABLE"},
          {"edge", "metadata.level", "STRING", "NULLABLE"},
          {"edge", "metadata.count", "INT64", "NULLABLE"},
          {"edge", "metadata.ratio", "FLOAT64", "NULLABLE"},
          {"edge", "metadata.tags", "STRING", "REPEATED"},
          {"edge", "metadata.request", "RECORD", "NULLABLE"},
          {"edge", "metadata.request.path", "STRING", "NULLABLE"}};
}

struct Outcome {
  bool ok;
  std::string error;
};

Outcome Observe(CatalogueEvolver& evolver, const std::string& json) {
  const auto value = boost::json::parse(json);
  Outcome out;
  out.ok = evolver.Observe(&value.as_object(), &out.error);
  return out;
}

TEST(EvolutionTest, KnownFieldsChangeNothing) {
  CatalogueEvolver evolver(Base());
  const auto r = Observe(evolver, R"({"level":"info","count":3,"ratio":2,"tags":["a",null],)"
                                  R"("request":{"path":"/x"},"LEVEL":"warn"})");
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(evolver.TakeChanges().empty());
  const auto seen = evolver.TakeSeenPaths();
  EXPECT_NE(std::find(seen.begin(), seen.end(), "metadata.request.path"), seen.end());
  EXPECT_TRUE(evolver.TakeSeenPaths().empty());
}

TEST(EvolutionTest, NullsMatchAnyType) {
  CatalogueEvolver evolver(Base());
  EXPECT_TRUE(Observe(evolver, R"({"level":null,"count":null,"tags":null,"request":null})").ok);
  EXPECT_TRUE(Observe(evolver, R"({"brand_new":null,"empty":[]})").ok);
  EXPECT_TRUE(evolver.TakeChanges().empty());
}

TEST(EvolutionTest, NewFieldsAreAddedWithInferredTypes) {
  CatalogueEvolver evolver(Base());
  const auto r =
      Observe(evolver, R"({"s":"x","i":1,"f":1.5,"b":true,"rec":{"a":1,"deep":{"z":"q"}},)"
                       R"("arr":[1,2.5],"objs":[{"k":1},{"k":2,"m":"n"}],"request":{"host":"h"}})");
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<FieldChange> expected = {
      {"metadata.s", "STRING", "NULLABLE", false},
      {"metadata.i", "INT64", "NULLABLE", false},
      {"metadata.f", "FLOAT64", "NULLABLE", false},
      {"metadata.b", "BOOL", "NULLABLE", false},
      {"metadata.rec", "RECORD", "NULLABLE", false},
      {"metadata.rec.a", "INT64", "NULLABLE", false},
      {"metadata.rec.deep", "RECORD", "NULLABLE", false},
      {"metadata.rec.deep.z", "STRING", "NULLABLE", false},
      {"metadata.arr", "FLOAT64", "REPEATED", false},
      {"metadata.objs", "RECORD", "REPEATED", false},
      {"metadata.objs.k", "INT64", "NULLABLE", false},
      {"metadata.objs.m", "STRING", "NULLABLE", false},
      {"metadata.request.host", "STRING", "NULLABLE", false}};
  EXPECT_EQ(evolver.TakeChanges(), expected);
  // Added fields are now known: the same event changes nothing.
  EXPECT_TRUE(Observe(evolver, R"({"s":"y","rec":{"a":2},"objs":[{"k":3}]})").ok);
  EXPECT_TRUE(evolver.TakeChanges().empty());
}

TEST(EvolutionTest, Int64WidensToFloat64) {
  CatalogueEvolver evolver(Base());
  ASSERT_TRUE(Observe(evolver, R"({"count":2.5})").ok);
  EXPECT_EQ(evolver.TakeChanges(),
            (std::vector<FieldChange>{{"metadata.count", "FLOAT64", "NULLABLE", true}}));
  ASSERT_TRUE(Observe(evolver, R"({"count":3})").ok);  // an integer still fits FLOAT64
  EXPECT_TRUE(evolver.TakeChanges().empty());
}

TEST(EvolutionTest, ConflictsNameThePathAndBothTypes) {
  CatalogueEvolver evolver(Base());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"level":3})", "metadata.level: type conflict: catalogue has STRING, event has INT64"},
      {R"({"count":"3"})", "metadata.count: type conflict: catalogue has INT64, event has STRING"},
      {R"({"ratio":true})", "metadata.ratio: type conflict: catalogue has FLOAT64, event has BOOL"},
      {R"({"request":"x"})",
       "metadata.request: type conflict: catalogue has RECORD, event has STRING"},
      {R"({"level":{"a":1}})",
       "metadata.level: type conflict: catalogue has STRING, event has RECORD"},
      {R"({"tags":"a"})",
       "metadata.tags: type conflict: catalogue has REPEATED STRING, event has STRING"},
      {R"({"level":["a"]})",
       "metadata.level: type conflict: catalogue has STRING, event has REPEATED STRING"},
      {R"({"tags":[1]})",
       "metadata.tags: type conflict: catalogue has REPEATED STRING, event has INT64"},
      {R"({"request":{"path":1}})",
       "metadata.request.path: type conflict: catalogue has STRING, event has INT64"},
      {R"({"new":[1,"a"]})",
       "metadata.new: type conflict: values of types INT64 and STRING in one event"},
      {R"({"new":[[1]]})", "metadata.new: arrays of arrays are not supported"},
      {R"({"a.b":1})", "metadata: invalid field name \"a.b\" (empty or contains '.')"},
      {R"({"":1})", "metadata: invalid field name \"\" (empty or contains '.')"},
      {R"({"level":"a\u0000"})",
       "metadata.level: NUL character (\\u0000) in a string is not supported"},
  };
  for (const auto& [json, message] : cases) {
    const auto r = Observe(evolver, json);
    EXPECT_FALSE(r.ok) << json;
    EXPECT_EQ(r.error, message) << json;
  }
}

TEST(EvolutionTest, RejectedEventChangesNothing) {
  CatalogueEvolver evolver(Base());
  // The new field comes first, the conflict after it: neither may stick.
  EXPECT_FALSE(Observe(evolver, R"({"fresh":1,"count":1.5,"level":3})").ok);
  EXPECT_TRUE(evolver.TakeChanges().empty());
  const auto rows = evolver.Rows("edge");
  for (const auto& row : rows) {
    EXPECT_NE(row.path, "metadata.fresh");
    if (row.path == "metadata.count") {
      EXPECT_EQ(row.type, "INT64");
    }
  }
  // And the field is still new for the next event.
  ASSERT_TRUE(Observe(evolver, R"({"fresh":"s"})").ok);
  EXPECT_EQ(evolver.TakeChanges(),
            (std::vector<FieldChange>{{"metadata.fresh", "STRING", "NULLABLE", false}}));
}

TEST(EvolutionTest, NullMetadataIsFine) {
  CatalogueEvolver evolver(Base());
  std::string error;
  EXPECT_TRUE(evolver.Observe(nullptr, &error));
}

}  // namespace
}  // namespace lqe::schema
