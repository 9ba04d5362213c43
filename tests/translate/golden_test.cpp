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
#include <utility>

#include "lqe/ascii.h"
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

// The WITH clause a stored endpoint's translation starts with, so cases can show it as
// "WITH <logs.all CTEs> " instead of repeating it.
std::string StoredPrefix(const std::string& stored, const TranslateOptions& base,
                         const std::string& probe) {
  TranslateOptions options = base;
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, probe};
  const TranslateResult r = Translate(stored, options);
  const std::string tail =
      std::string(" SELECT (1)::bigint AS f0_") +
      (probe.find("order") == std::string::npos ? "" : " ORDER BY 1 ASC NULLS FIRST");
  if (!r.ok() || r.value().pg_sql.size() < tail.size()) return "";
  return r.value().pg_sql.substr(0, r.value().pg_sql.size() - tail.size());
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
  if (c.options.count("stored") || c.options.count("consumer") || c.options.count("lql")) {
    options.consumer = ConsumerQuery{
        c.options.count("lql") ? ConsumerQuery::Language::kLql : ConsumerQuery::Language::kSql,
        consumer};
  }
  std::string out = Render(Translate(stored, options), stored, consumer);
  if (auto it = c.options.find("stored"); it != c.options.end()) {
    // The CTEs keep their ORDER BY unless the consumer orders its own result.
    for (const char* probe : {"select 1", "select 1 order by 1"}) {
      const std::string prefix = StoredPrefix(stored, options, probe);
      if (!prefix.empty() && out.rfind(prefix, 0) == 0) {
        const std::string label =
            std::string(probe).find("order") == std::string::npos ? " CTEs>" : " CTEs, unordered>";
        std::string abbreviated = "WITH <";
        abbreviated.append(it->second).append(label).append(out, prefix.size());
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
