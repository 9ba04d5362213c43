#include "lqe/catalog.h"

#include <gtest/gtest.h>

namespace lqe {
namespace {

TEST(CatalogTest, BuildsNestedRecordsFromPaths) {
  std::string error;
  const auto entries = Catalog::ParseTsv(
      "# source\tpath\ttype\tmode\n"
      "edge\tid\tSTRING\n"
      "edge\ttimestamp\tTIMESTAMP\n"
      "edge\tmetadata.response.status_code\tINT64\tNULLABLE\n"
      "edge\tmetadata.request.path\tSTRING\n"
      "realtime\tmetadata.context.domain\tSTRING\tREPEATED\n",
      &error);
  ASSERT_EQ(error, "");
  ASSERT_EQ(entries.size(), 5u);
  const Catalog catalog = Catalog::FromEntries(entries, &error);
  ASSERT_EQ(error, "");
  const SourceSchema* edge = catalog.FindSource("EDGE");
  ASSERT_NE(edge, nullptr);
  EXPECT_EQ(edge->pg_schema, "logs");
  EXPECT_EQ(edge->pg_table, "edge");
  const StructField* metadata = edge->row->FindField("metadata");
  ASSERT_NE(metadata, nullptr);
  EXPECT_EQ(TypeName(*metadata->type),
            "ARRAY<STRUCT<response ARRAY<STRUCT<status_code INT64>>, request ARRAY<STRUCT<path "
            "STRING>>>>");
  EXPECT_EQ(TypeName(*edge->row->FindField("timestamp")->type), "TIMESTAMP");
  const SourceSchema* realtime = catalog.FindSource("realtime");
  ASSERT_NE(realtime, nullptr);
  EXPECT_EQ(TypeName(*realtime->row->FindField("metadata")->type),
            "ARRAY<STRUCT<context ARRAY<STRUCT<domain ARRAY<STRING>>>>>");
  EXPECT_EQ(catalog.SourceNames(), (std::vector<std::string>{"edge", "realtime"}));
}

// A scalar directly under metadata, or inside its nested records (those are min/max columns):
// not an array, a record, or a column outside metadata.
TEST(CatalogTest, KeepsPromotedColumnsOfScalarsUnderMetadataOnly) {
  std::string error;
  std::vector<CatalogEntry> entries = {
      {"auth", "metadata.Status", "INT64", "NULLABLE", "p_status"},
      {"auth", "metadata.args", "STRING", "REPEATED", "p_args"},
      {"auth", "metadata.auth_event", "RECORD", "NULLABLE", "p_auth_event"},
      {"auth", "metadata.auth_event.action", "STRING", "NULLABLE", "p_auth_event_action"},
      {"auth", "metadata.level", "STRING", "NULLABLE"},
      {"auth", "event_message", "STRING", "NULLABLE", "p_event_message"},
  };
  const Catalog catalog = Catalog::FromEntries(entries, &error);
  ASSERT_EQ(error, "");
  const SourceSchema* auth = catalog.FindSource("auth");
  ASSERT_NE(auth, nullptr);
  EXPECT_EQ(auth->promoted, (PromotedColumns{{"auth_event.action", "p_auth_event_action"},
                                             {"status", "p_status"}}));
}

TEST(CatalogTest, RejectsUnknownTypeNamingTheRow) {
  std::string error;
  Catalog::FromEntries({{"edge", "metadata.x", "VARCHAR", "NULLABLE"}}, &error);
  EXPECT_EQ(error, "unknown type VARCHAR for edge.metadata.x");
}

TEST(CatalogTest, RejectsScalarWithChildren) {
  std::string error;
  Catalog::FromEntries({{"edge", "metadata.request.path", "STRING", "NULLABLE"},
                        {"edge", "metadata.request", "STRING", "NULLABLE"}},
                       &error);
  EXPECT_EQ(error, "field edge.metadata.request has fields but is typed STRING");
}

TEST(CatalogTest, RejectsBadTsvLine) {
  std::string error;
  Catalog::ParseTsv("edge\tid\n", &error);
  EXPECT_EQ(error, "line 1: expected source, path, type[, mode]");
}

}  // namespace
}  // namespace lqe
