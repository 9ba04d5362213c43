// Runs every case of tests/translate/*.test through lqe::Translate and compares with the expected
// PostgreSQL SQL, parameters and columns (or the error with its caret). UPDATE_GOLDEN=1 rewrites
// the files instead; review the diff. Every case also checks two invariants: translating twice
// gives the same output, and CRLF line endings give the same output.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "lqe/base/ascii.h"
#include "lqe/gateway/config.h"
#include "lqe/translate.h"
#include "support/golden_file.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(LQE_SOURCE_DIR) / "tests/translate";

const Catalog& SeedCatalog() {
  static const Catalog catalog = [] {
    std::string error;
    const auto rows = Catalog::ParseTsv(
        testing::ReadFileText((fs::path(LQE_SOURCE_DIR) / "schema/catalogue_seed.tsv").string()),
        &error);
    return Catalog::FromEntries(rows, &error);
  }();
  return catalog;
}

// The seed catalogue with backfilled promoted columns (option [promoted]): auth metadata.status
// directly under metadata, and edge fields inside the REPEATED request/response records.
const Catalog& PromotedCatalog() {
  static const Catalog catalog = [] {
    std::string error;
    auto rows = Catalog::ParseTsv(
        testing::ReadFileText((fs::path(LQE_SOURCE_DIR) / "schema/catalogue_seed.tsv").string()),
        &error);
    const std::map<std::pair<std::string, std::string>, std::string> columns = {
        {{"auth", "metadata.status"}, "p_status"},
        {{"edge", "metadata.response.status_code"}, "p_response_status_code"},
        {{"edge", "metadata.request.method"}, "p_request_method"},
        {{"edge", "metadata.request.path"}, "p_request_path"}};
    for (auto& row : rows) {
      if (const auto it = columns.find({row.source, row.path}); it != columns.end()) {
        row.column = it->second;
      }
    }
    return Catalog::FromEntries(rows, &error);
  }();
  return catalog;
}

// sql/<name>.yaml read by the gateway's loader: the stored query and its declared parameters,
// typed as the server types them.
void LoadEndpoint(const std::string& name, std::string& query, TranslateOptions& options) {
  const auto loaded =
      gateway::LoadEndpointFile((fs::path(LQE_SOURCE_DIR) / "sql" / (name + ".yaml")).string());
  const auto* endpoint = std::get_if<std::shared_ptr<gateway::EndpointDef>>(&loaded);
  if (endpoint == nullptr) {
    ADD_FAILURE() << std::get<gateway::ConfigErrors>(loaded).ToString();
    return;
  }
  query = (*endpoint)->query;
  options.params = gateway::EndpointTranslateOptions(**endpoint, *options.catalog).params;
}

std::string Crlf(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

std::string Render(const TranslateResult& r, const std::string& stored,
                   const std::string& consumer) {
  if (!r.ok()) {
    const Diagnostic& d = r.error();
    std::string out =
        "ERROR: " + RenderCaret(d, d.source == DiagSource::kStored ? stored : consumer);
    return out;
  }
  const Translation& t = r.value();
  std::string out = t.pg_sql;
  if (!t.params.empty()) {
    out += "\nparams:";
    for (std::size_t i = 0; i < t.params.size(); ++i) {
      out +=
          " $" + std::to_string(i + 1) + " " + t.params[i].name + " " + TypeName(*t.params[i].type);
      if (t.params[i].transform == ParamTransform::kRegexPattern) out += " (regex)";
      if (i + 1 < t.params.size()) out += ",";
    }
  }
  out += "\ncolumns:";
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    std::string type = TypeName(*t.columns[i].type);
    if (type.size() > 60) type = type.substr(0, 56) + " ...";  // whole-record columns
    out += (i ? ", " : " ") + t.columns[i].name + " " + type;
  }
  return out;
}

// The stored CTEs' texts, one per CTE in order, from a probe reading all of them, so cases can
// show the ones a statement carries as "WITH <logs.all: edge_logs> " instead of repeating them.
std::vector<std::pair<std::string, std::string>> StoredCtes(const std::string& stored,
                                                            const TranslateOptions& base,
                                                            bool ordered) {
  TranslateOptions options = base;
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, "select 1"};
  const TranslateResult names = Translate(stored, options);
  if (!names.ok() || names.value().cte_names.empty()) return {};
  std::string probe = "select 1 from ";
  for (std::size_t i = 0; i < names.value().cte_names.size(); ++i) {
    probe += (i ? " cross join " : "") + names.value().cte_names[i];
  }
  options.consumer =
      ConsumerQuery{ConsumerQuery::Language::kSql, ordered ? probe : probe + " order by 1"};
  const TranslateResult r = Translate(stored, options);
  if (!r.ok()) return {};
  const std::string& sql = r.value().pg_sql;
  const std::size_t end = sql.rfind(" SELECT (1)::bigint AS f0_");
  std::vector<std::pair<std::string, std::size_t>> starts;
  std::size_t from = 5;  // "WITH "
  for (const auto& name : names.value().cte_names) {
    std::size_t at = sql.find(name + " AS (", from);
    if (at == std::string::npos || at > end) at = sql.find("\"" + name + "\" AS (", from);
    if (at == std::string::npos || at > end) return {};
    starts.emplace_back(name, at);
    from = at + 1;
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t stop = i + 1 < starts.size() ? starts[i + 1].second - 2 : end;
    out.emplace_back(starts[i].first, sql.substr(starts[i].second, stop - starts[i].second));
  }
  return out;
}

// `out` with its leading stored CTEs (those of `ctes`, in order) named instead of spelled out;
// "" when it does not start with them.
std::string Abbreviated(const std::string& out, const std::string& endpoint,
                        const std::vector<std::pair<std::string, std::string>>& ctes,
                        bool ordered) {
  if (out.rfind("WITH ", 0) != 0) return "";
  std::size_t pos = 5;
  std::string names;
  for (const auto& [name, plain] : ctes) {
    // A listing split in two reads its CTEs NOT MATERIALIZED.
    const std::size_t as = plain.find(" AS (");
    const std::string inlined =
        plain.substr(0, as) + " AS NOT MATERIALIZED (" + plain.substr(as + 5);
    for (const std::string* text : {&plain, &inlined}) {
      if (out.compare(pos, text->size(), *text) != 0) continue;
      const std::size_t after = pos + text->size();
      if (out.compare(after, 2, ", ") != 0 && out.compare(after, 1, " ") != 0) continue;
      names += (names.empty() ? "" : " ") + name + (text == &inlined ? " not materialized" : "");
      pos = out.compare(after, 2, ", ") == 0 ? after + 2 : after + 1;
      break;
    }
  }
  if (names.empty()) return "";
  std::string rest = out.substr(pos);
  // A consumer's own CTEs follow the stored ones.
  const bool more = out.compare(pos - 2, 2, ", ") == 0;
  return "WITH <" + endpoint + ": " + names + (ordered ? "" : "; unordered") + ">" +
         (more ? ", " : " ") + rest;
}

std::string RunCase(const GoldenCase& c, bool crlf) {
  TranslateOptions options;
  options.catalog = c.options.count("promoted") ? &PromotedCatalog() : &SeedCatalog();
  options.now = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
  std::string stored = c.input;
  std::string consumer;
  if (auto it = c.options.find("stored"); it != c.options.end()) {
    LoadEndpoint(it->second, stored, options);
    consumer = c.input;
  } else if (c.options.count("consumer") || c.options.count("lql")) {
    const auto sep = c.input.find("\n~~\n");
    if (sep != std::string::npos) {
      stored = c.input.substr(0, sep);
      consumer = c.input.substr(sep + 4);
    }
  }
  if (auto it = c.options.find("params"); it != c.options.end()) {
    std::istringstream in(it->second);
    std::string item;
    while (std::getline(in, item, ',')) {
      const auto colon = item.find(':');
      options.params[item.substr(0, colon)] =
          Type::Scalar(ParseScalarTypeName(item.substr(colon + 1)));
    }
  }
  if (crlf) {
    stored = Crlf(stored);
    consumer = Crlf(consumer);
  }
  // [clickhouse]: the query (or, with a consumer, the consumer's) is ClickHouse SQL.
  const bool clickhouse = c.options.count("clickhouse") > 0;
  if (c.options.count("stored") || c.options.count("consumer") || c.options.count("lql")) {
    options.consumer = ConsumerQuery{c.options.count("lql") ? ConsumerQuery::Language::kLql
                                     : clickhouse ? ConsumerQuery::Language::kClickHouseSql
                                                  : ConsumerQuery::Language::kSql,
                                     consumer};
  } else if (clickhouse) {
    options.dialect = SqlDialect::kClickHouse;
  }
  std::string out = Render(Translate(stored, options), stored, consumer);
  if (auto it = c.options.find("stored"); it != c.options.end()) {
    // The CTEs keep their ORDER BY unless the consumer orders its own result.
    for (const bool ordered : {true, false}) {
      std::string abbreviated =
          Abbreviated(out, it->second, StoredCtes(stored, options, ordered), ordered);
      if (!abbreviated.empty()) {
        out = std::move(abbreviated);
        break;
      }
    }
  }
  return out;
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, Cases) {
  const fs::path file = kDir / GetParam();
  auto cases = ParseGoldenText(testing::ReadFileText(file.string()));
  ASSERT_FALSE(cases.empty());
  const bool update = std::getenv("UPDATE_GOLDEN") != nullptr;
  for (auto& c : cases) {
    SCOPED_TRACE(GetParam() + ":" + std::to_string(c.line));
    const std::string actual = RunCase(c, false);
    EXPECT_EQ(actual, RunCase(c, false)) << "translation is not deterministic";
    const std::string crlf = RunCase(c, true);
    // String literals spanning lines keep their \r; everything else must match.
    if (c.input.find("'\n") == std::string::npos) {
      EXPECT_EQ(actual, crlf) << "CRLF input differs";
    }
    if (update) {
      c.expected = actual;
    } else {
      EXPECT_EQ(c.expected, actual);
    }
  }
  if (update) std::ofstream(file, std::ios::binary) << FormatGoldenText(cases);
}

std::vector<std::string> GoldenFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(kDir)) {
    if (e.path().extension() == ".test") files.push_back(e.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

INSTANTIATE_TEST_SUITE_P(Translate, GoldenTest, ::testing::ValuesIn(GoldenFiles()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param.substr(0, param.param.find('.'));
                           for (auto& ch : name) {
                             if (!ascii::IsAlnum(ch)) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace lqe::testing
