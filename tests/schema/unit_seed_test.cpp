// The committed catalogue seed parses and builds, and has the shape every source needs.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lqe/catalog.h"
#include "support/test_database.h"

namespace lqe {
namespace {

std::string ReadSeed() {
  std::ifstream in(testing::SourcePath("schema/catalogue_seed.tsv"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(CatalogueSeedTest, ParsesAndBuildsAllThirteenSources) {
  std::string error;
  const auto entries = Catalog::ParseTsv(ReadSeed(), &error);
  ASSERT_EQ(error, "");
  ASSERT_GT(entries.size(), 250u);
  const Catalog catalog = Catalog::FromEntries(entries, &error);
  ASSERT_EQ(error, "");
  // The thirteen log sources, and the rollups of edge (005_edge_rollup.sql) the chart reads.
  EXPECT_EQ(
      catalog.SourceNames(),
      (std::vector<std::string>{
          "auth", "auth_audit", "edge", "edge_api_minute", "edge_api_minute_delta",
          "edge_url_rest_trigrams", "etl_replication", "function_edge", "function_events",
          "pg_upgrade", "pooler", "postgres", "realtime", "restapi", "storage", "supavisor"}));
  for (const char* name :
       {"auth", "edge", "function_edge", "function_events", "pooler", "postgres", "realtime",
        "restapi", "storage", "supavisor", "pg_upgrade", "etl_replication", "auth_audit"}) {
    const SourceSchema* source = catalog.FindSource(name);
    ASSERT_NE(source, nullptr);
    EXPECT_EQ(TypeName(*source->row->FindField("id")->type), "STRING") << name;
    EXPECT_EQ(TypeName(*source->row->FindField("timestamp")->type), "TIMESTAMP") << name;
    EXPECT_EQ(TypeName(*source->row->FindField("event_message")->type), "STRING") << name;
    EXPECT_EQ(TypeName(*source->row->FindField("project")->type), "STRING") << name;
    // Every nested record is REPEATED, as in Logflare's BigQuery tables; extra is not (its
    // fields are top-level columns there).
    const TypePtr metadata = source->row->FindField("metadata")->type;
    EXPECT_EQ(metadata->kind, TypeKind::kArray) << name;
    EXPECT_EQ(metadata->element->kind, TypeKind::kRecord) << name;
    EXPECT_EQ(source->row->FindField("extra")->type->kind, TypeKind::kRecord) << name;
  }
}

TEST(CatalogueSeedTest, TypesFollowTheSamples) {
  std::string error;
  const Catalog catalog = Catalog::FromEntries(Catalog::ParseTsv(ReadSeed(), &error), &error);
  ASSERT_EQ(error, "");
  auto type_of = [&](const std::string& source, const std::vector<std::string>& path) {
    TypePtr t = catalog.FindSource(source)->row;
    for (const auto& part : path) {
      // Into a REPEATED record's element, as UNNEST reads it.
      if (t->kind == TypeKind::kArray && t->element->kind == TypeKind::kRecord) t = t->element;
      const StructField* f = t->FindField(part);
      if (f == nullptr) return std::string("<missing ") + part + ">";
      t = f->type;
    }
    return TypeName(*t);
  };
  EXPECT_EQ(type_of("edge", {"metadata", "response", "status_code"}), "INT64");
  EXPECT_EQ(type_of("edge", {"metadata", "request", "cf", "botManagement", "detectionIds"}),
            "ARRAY<INT64>");
  EXPECT_EQ(type_of("edge", {"metadata", "request", "sb", "jwt", "apikey", "payload", "role"}),
            "STRING");
  // What self-hosted Supabase ships wins over the placeholder samples.
  EXPECT_EQ(type_of("auth", {"metadata", "duration"}), "INT64");
  EXPECT_EQ(type_of("auth", {"metadata", "status"}), "INT64");
  EXPECT_EQ(type_of("storage", {"metadata", "level"}), "INT64");
  EXPECT_EQ(type_of("storage", {"metadata", "context"}), "ARRAY<STRUCT<host STRING, pid INT64>>");
  EXPECT_EQ(type_of("edge", {"metadata", "response", "headers"}).substr(0, 13), "ARRAY<STRUCT<");
  EXPECT_EQ(type_of("auth", {"extra", "appname"}), "STRING");
  EXPECT_EQ(type_of("edge", {"extra", "severity"}), "STRING");
  EXPECT_EQ(type_of("auth", {"metadata", "args"}), "ARRAY<STRING>");
  EXPECT_EQ(type_of("realtime", {"metadata", "context", "time"}), "INT64");
  EXPECT_EQ(type_of("storage", {"metadata", "responseTime"}), "FLOAT64");
  EXPECT_EQ(type_of("postgres", {"metadata", "parsed", "query"}), "STRING");
  EXPECT_EQ(type_of("function_edge", {"metadata", "execution_time_ms"}), "INT64");
}

}  // namespace
}  // namespace lqe
