// The endpoint YAML's `language:` (bigquery | clickhouse): parsed, refused when unknown, and
// routing the stored query, callers' sql and result rendering to the ClickHouse side.
#include <gtest/gtest.h>

#include "lqe/gateway/config.h"
#include "lqe/gateway/handler.h"
#include "render/clickhouse_json.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using testing::TempDir;

std::shared_ptr<EndpointDef> Load(const std::string& path) {
  auto loaded = LoadEndpointFile(path);
  if (auto* errors = std::get_if<ConfigErrors>(&loaded)) {
    ADD_FAILURE() << errors->ToString();
    return nullptr;
  }
  return std::get<std::shared_ptr<EndpointDef>>(loaded);
}

Catalog SeedCatalog() {
  std::string error;
  const std::string tsv =
      lqe::testing::ReadFileText(lqe::testing::SourcePath("schema/catalogue_seed.tsv"));
  Catalog catalog = Catalog::FromEntries(Catalog::ParseTsv(tsv, &error), &error);
  EXPECT_EQ(error, "");
  return catalog;
}

TEST(EndpointLanguageTest, DefaultsToBigQueryAndReadsClickHouse) {
  TempDir dir;
  auto plain = Load(dir.Write("plain.yaml", "name: plain\nquery: select 1 as one\n"));
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->language, SqlDialect::kBigQuery);
  auto bq = Load(dir.Write("bq.yaml", "name: bq\nlanguage: bigquery\nquery: select 1 as one\n"));
  ASSERT_NE(bq, nullptr);
  EXPECT_EQ(bq->language, SqlDialect::kBigQuery);
  auto ch = Load(dir.Write("ch.yaml", "name: ch\nlanguage: clickhouse\nquery: select 1 as one\n"));
  ASSERT_NE(ch, nullptr);
  EXPECT_EQ(ch->language, SqlDialect::kClickHouse);
  // The language is part of the version, so cached results of one never answer the other.
  auto ch_as_bq = Load(dir.Write("bq2.yaml", "name: ch\nquery: select 1 as one\n"));
  ASSERT_NE(ch_as_bq, nullptr);
  EXPECT_NE(ch->version, ch_as_bq->version);
}

TEST(EndpointLanguageTest, UnknownLanguageNamesTheFileAndLine) {
  TempDir dir;
  const std::string path =
      dir.Write("bad.yaml", "name: bad\nquery: select 1\nlanguage: postgres\n");
  auto loaded = LoadEndpointFile(path);
  ASSERT_TRUE(std::holds_alternative<ConfigErrors>(loaded));
  EXPECT_EQ(std::get<ConfigErrors>(loaded).ToString(),
            path + ":3: unknown language 'postgres' (allowed: bigquery, clickhouse)");
  const std::string list =
      dir.Write("list.yaml", "name: bad\nquery: select 1\nlanguage: [clickhouse]\n");
  EXPECT_TRUE(std::holds_alternative<ConfigErrors>(LoadEndpointFile(list)));
  // In a config file too, at the endpoint's line.
  const std::string config = dir.Write(
      "gw.yaml",
      "database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    language: ClickHouse\n");
  ConfigResult result = LoadConfig(config);
  ASSERT_TRUE(std::holds_alternative<ConfigErrors>(result));
  EXPECT_EQ(std::get<ConfigErrors>(result).ToString(),
            config + ":6: unknown language 'ClickHouse' (allowed: bigquery, clickhouse)");
}

// A ClickHouse endpoint's stored query goes through the ClickHouse front end: ClickHouse
// functions and the table `logs` translate, and the same text as BigQuery is refused.
TEST(EndpointLanguageTest, StoredQueryIsTranslatedInItsLanguage) {
  TempDir dir;
  const Catalog catalog = SeedCatalog();
  const std::string query =
      "SELECT toStartOfMinute(timestamp) AS m, count() AS n FROM logs GROUP BY m";
  Config config;
  config.endpoints.push_back(
      Load(dir.Write("ch.yaml", "name: ch\nlanguage: clickhouse\nquery: \"" + query + "\"\n")));
  ASSERT_NE(config.endpoints.back(), nullptr);
  EXPECT_TRUE(TranslateEndpoints(config, catalog).empty());
  ASSERT_NE(config.endpoints[0]->translation, nullptr);
  EXPECT_NE(config.endpoints[0]->translation->pg_sql.find("FROM logs.otel"), std::string::npos)
      << config.endpoints[0]->translation->pg_sql;
  EXPECT_EQ(config.endpoints[0]->translation->columns.at(0).type->kind, TypeKind::kTimestamp);

  Config bigquery;
  bigquery.endpoints.push_back(Load(dir.Write("bq.yaml", "name: bq\nquery: \"" + query + "\"\n")));
  ASSERT_NE(bigquery.endpoints.back(), nullptr);
  const auto refusals = TranslateEndpoints(bigquery, catalog);
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_NE(refusals[0].message.find("endpoint bq: "), std::string::npos);
}

TEST(EndpointLanguageTest, CallersSqlIsInTheEndpointsLanguage) {
  EndpointDef e;
  e.name = "ep";
  EXPECT_EQ(ConsumerSqlLanguage(e), ConsumerQuery::Language::kSql);
  std::string error;
  const Catalog catalog = Catalog::FromEntries({{"edge", "id", "STRING", "NULLABLE"}}, &error);
  EXPECT_EQ(EndpointTranslateOptions(e, catalog).dialect, SqlDialect::kBigQuery);
  e.language = SqlDialect::kClickHouse;
  EXPECT_EQ(ConsumerSqlLanguage(e), ConsumerQuery::Language::kClickHouseSql);
  EXPECT_EQ(EndpointTranslateOptions(e, catalog).dialect, SqlDialect::kClickHouse);
  EXPECT_EQ(SandboxRefusal(e, ConsumerQuery::Language::kClickHouseSql),
            "endpoint ep does not accept a sql parameter (sandboxing is off)");
}

std::string Render(TypeKind kind, std::optional<std::string_view> text, bool redact = false) {
  std::string out;
  AppendClickHouseValue(out, *Type::Scalar(kind), text, redact);
  return out;
}

// Values as ClickHouse's JSON output format writes them (its default settings).
TEST(ClickHouseRenderTest, ValuesAsClickHouseWritesThem) {
  EXPECT_EQ(Render(TypeKind::kTimestamp, "2026-03-04 05:06:07.089+00"),
            "\"2026-03-04 05:06:07.089000\"");
  EXPECT_EQ(Render(TypeKind::kTimestamp, "2026-03-04 01:06:07-04"),
            "\"2026-03-04 05:06:07.000000\"");
  EXPECT_EQ(Render(TypeKind::kTimestamp, "1969-12-31 23:59:59.999999+00"),
            "\"1969-12-31 23:59:59.999999\"");
  EXPECT_EQ(Render(TypeKind::kTimestamp, "infinity"), "\"infinity\"");
  // 64-bit integers are numbers (output_format_json_quote_64bit_integers is 0 in ClickHouse 26).
  EXPECT_EQ(Render(TypeKind::kInt64, "42"), "42");
  EXPECT_EQ(Render(TypeKind::kInt64, "-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(Render(TypeKind::kFloat64, "0.5"), "0.5");
  EXPECT_EQ(Render(TypeKind::kFloat64, "NaN"), "null");
  EXPECT_EQ(Render(TypeKind::kFloat64, "-Infinity"), "null");
  EXPECT_EQ(Render(TypeKind::kFloat64, "1e+21"), "1e+21");
  EXPECT_EQ(Render(TypeKind::kBool, "t"), "true");
  EXPECT_EQ(Render(TypeKind::kString, "a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(Render(TypeKind::kString, std::nullopt), "null");
  // Maps are plain JSON objects, not BigQuery's one-element record arrays.
  EXPECT_EQ(Render(TypeKind::kJson, R"({"request.method": "GET", "level": ""})"),
            R"({"request.method":"GET","level":""})");
  std::string out;
  AppendClickHouseValue(out, *Type::Record({{"a", Type::Scalar(TypeKind::kString)}}),
                        R"({"a": {"b": "c"}})", false);
  EXPECT_EQ(out, R"({"a":{"b":"c"}})");
  EXPECT_EQ(ClickHouseDateTime64(0), "1970-01-01 00:00:00.000000");
  EXPECT_EQ(ClickHouseDateTime64(253402300799999999), "9999-12-31 23:59:59.999999");
}

TEST(ClickHouseRenderTest, RedactsStrings) {
  const std::string ip = Render(TypeKind::kString, "from 203.0.113.7", true);
  EXPECT_EQ(ip.find("203.0.113.7"), std::string::npos) << ip;
  const std::string map = Render(TypeKind::kJson, R"({"ip": "203.0.113.7"})", true);
  EXPECT_EQ(map.find("203.0.113.7"), std::string::npos) << map;
}

}  // namespace
}  // namespace lqe::gateway
