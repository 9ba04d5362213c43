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

TEST(EvolutionTest, ConflictsAreRecordedAndTheEventKept) {
  const std::vector<std::pair<std::string, TypeConflict>> cases = {
      {R"({"level":3})", {"metadata.level", "STRING", "INT64", 1, "3"}},
      {R"({"count":"3"})", {"metadata.count", "INT64", "STRING", 1, "\"3\""}},
      {R"({"ratio":true})", {"metadata.ratio", "FLOAT64", "BOOL", 1, "true"}},
      {R"({"request":"x"})", {"metadata.request", "RECORD", "STRING", 1, "\"x\""}},
      {R"({"level":{"a":1}})", {"metadata.level", "STRING", "RECORD", 1, "{\"a\":1}"}},
      {R"({"tags":"a"})", {"metadata.tags", "REPEATED STRING", "STRING", 1, "\"a\""}},
      {R"({"level":["a"]})", {"metadata.level", "STRING", "REPEATED STRING", 1, "[\"a\"]"}},
      {R"({"tags":[1]})", {"metadata.tags", "REPEATED STRING", "INT64", 1, "1"}},
      {R"({"tags":[[1]]})", {"metadata.tags", "REPEATED STRING", "REPEATED ARRAY", 1, "[[1]]"}},
      {R"({"request":{"path":1}})", {"metadata.request.path", "STRING", "INT64", 1, "1"}},
      {R"({"new":[1,"a"]})", {"metadata.new", "NONE", "MIXED", 1, "[1,\"a\"]"}},
      {R"({"new":[[1]]})", {"metadata.new", "NONE", "REPEATED ARRAY", 1, "[[1]]"}},
  };
  for (const auto& [json, conflict] : cases) {
    CatalogueEvolver evolver(Base());
    const auto r = Observe(evolver, json);
    EXPECT_TRUE(r.ok) << json << ": " << r.error;
    const auto conflicts = evolver.TakeConflicts();
    ASSERT_EQ(conflicts.size(), 1u) << json;
    EXPECT_EQ(conflicts[0].path, conflict.path) << json;
    EXPECT_EQ(conflicts[0].catalogue_type, conflict.catalogue_type) << json;
    EXPECT_EQ(conflicts[0].seen_type, conflict.seen_type) << json;
    EXPECT_EQ(conflicts[0].count, 1) << json;
    EXPECT_EQ(conflicts[0].example, conflict.example) << json;
    EXPECT_TRUE(evolver.TakeChanges().empty()) << json;
    EXPECT_TRUE(evolver.TakeConflicts().empty()) << json;
  }
}

TEST(EvolutionTest, ConflictsCountPerPathAndTypeAndKeepTheFirstExample) {
  CatalogueEvolver evolver(Base());
  ASSERT_TRUE(Observe(evolver, R"({"level":3})").ok);
  ASSERT_TRUE(Observe(evolver, R"({"level":4})").ok);
  ASSERT_TRUE(Observe(evolver, R"({"level":true,"count":"x"})").ok);
  const auto conflicts = evolver.TakeConflicts();
  ASSERT_EQ(conflicts.size(), 3u);
  EXPECT_EQ(conflicts[0].path, "metadata.count");
  EXPECT_EQ(conflicts[1].seen_type, "BOOL");
  EXPECT_EQ(conflicts[1].count, 1);
  EXPECT_EQ(conflicts[2].seen_type, "INT64");
  EXPECT_EQ(conflicts[2].count, 2);
  EXPECT_EQ(conflicts[2].example, "3");
}

TEST(EvolutionTest, LongExamplesAreCut) {
  CatalogueEvolver evolver(Base());
  ASSERT_TRUE(Observe(evolver, R"({"count":")" + std::string(300, 'x') + R"("})").ok);
  const auto conflicts = evolver.TakeConflicts();
  ASSERT_EQ(conflicts.size(), 1u);
  EXPECT_EQ(conflicts[0].example, "\"" + std::string(199, 'x') + "...");
}

TEST(EvolutionTest, AConflictLeavesTheCatalogueAndTheRestOfTheEventIsLearnt) {
  CatalogueEvolver evolver(Base());
  ASSERT_TRUE(Observe(evolver, R"({"fresh":1,"count":"many","level":3})").ok);
  EXPECT_EQ(evolver.TakeChanges(),
            (std::vector<FieldChange>{{"metadata.fresh", "INT64", "NULLABLE", false}}));
  EXPECT_EQ(evolver.TakeConflicts().size(), 2u);
  for (const auto& row : evolver.Rows("edge")) {
    if (row.path == "metadata.count") {
      EXPECT_EQ(row.type, "INT64");
    }
    if (row.path == "metadata.level") {
      EXPECT_EQ(row.type, "STRING");
    }
  }
}

TEST(EvolutionTest, BadNamesAndNulCharactersRejectTheEventAndChangeNothing) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"a.b":1})", "metadata: invalid field name \"a.b\" (empty or contains '.')"},
      {R"({"":1})", "metadata: invalid field name \"\" (empty or contains '.')"},
      {R"({"level":"a\u0000"})",
       "metadata.level: NUL character (\\u0000) in a string is not supported"},
      {R"({"fresh":1,"new":["a\u0000"]})",
       "metadata.new: NUL character (\\u0000) in a string is not supported"},
  };
  for (const auto& [json, message] : cases) {
    CatalogueEvolver evolver(Base());
    const auto r = Observe(evolver, json);
    EXPECT_FALSE(r.ok) << json;
    EXPECT_EQ(r.error, message) << json;
    EXPECT_TRUE(evolver.TakeChanges().empty()) << json;
    EXPECT_TRUE(evolver.TakeConflicts().empty()) << json;
  }
}

TEST(EvolutionTest, ExtraIsItsOwnRoot) {
  CatalogueEvolver evolver({{"auth", "extra", "RECORD", "NULLABLE"},
                            {"auth", "extra.appname", "STRING", "NULLABLE"},
                            {"auth", "metadata.appname", "INT64", "NULLABLE"}},
                           "extra");
  ASSERT_TRUE(Observe(evolver, R"({"appname":"gotrue","severity":"info","level":30})").ok);
  EXPECT_EQ(evolver.TakeChanges(),
            (std::vector<FieldChange>{{"extra.severity", "STRING", "NULLABLE", false},
                                      {"extra.level", "INT64", "NULLABLE", false}}));
  EXPECT_TRUE(evolver.TakeConflicts().empty());
}

TEST(EvolutionTest, NullMetadataIsFine) {
  CatalogueEvolver evolver(Base());
  std::string error;
  EXPECT_TRUE(evolver.Observe(nullptr, &error));
}

}  // namespace
}  // namespace lqe::schema
