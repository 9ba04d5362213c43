#include <algorithm>
#include <filesystem>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>

#include "lqe/regex.h"
#include "lqe/translate.h"
#include "sqllogic/corpus.h"
#include "support/test_database.h"

namespace lqe::sqllogic {
namespace {

void ParseDirective(const std::string& line, Record& r) {
  std::istringstream words(line);
  std::string keyword;
  words >> keyword;
  if (keyword == "params") {
    std::string pair;
    while (words >> pair) {
      const auto eq = pair.find('=');
      r.params[pair.substr(0, eq)] = eq == std::string::npos ? "" : pair.substr(eq + 1);
    }
  } else if (keyword == "sandbox") {
    words >> r.sandbox;
  } else if (keyword == "endpoint") {
    words >> r.endpoint;
  }
}

void ParseFile(const std::filesystem::path& path, std::vector<Record>& out) {
  std::istringstream in(testing::ReadFileText(path.string()));
  std::string line;
  int line_no = 0;
  Record* current = nullptr;
  bool in_rows = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (current == nullptr) {
      if (line.rfind("query ", 0) == 0 || line.rfind("error ", 0) == 0) {
        out.emplace_back();
        current = &out.back();
        current->file = path.filename().string();
        current->line = line_no;
        std::istringstream words(line.substr(6));
        words >> current->name;
        current->expect_error = line[0] == 'e';
        std::string rest;
        std::getline(words >> std::ws, rest);
        if (current->expect_error) {
          current->error_regex = rest;
        } else {
          current->rowsort = rest == "rowsort";
        }
        in_rows = false;
      }
      continue;
    }
    if (line.empty()) {
      current = nullptr;
      continue;
    }
    if (in_rows) {
      current->rows.push_back(line);
    } else if (line == "----") {
      in_rows = true;
    } else if (current->sql.empty() &&
               (line.rfind("params ", 0) == 0 || line.rfind("sandbox ", 0) == 0 ||
                line.rfind("endpoint ", 0) == 0)) {
      ParseDirective(line, *current);
    } else {
      current->sql += line + "\n";
    }
  }
}

const Catalog& SeedCatalog() {
  static const Catalog catalog = [] {
    std::string error;
    auto entries = Catalog::ParseTsv(
        testing::ReadFileText(testing::SourcePath("schema/catalogue_seed.tsv")), &error);
    if (!error.empty()) {
      throw std::runtime_error("catalogue seed: " + error);
    }
    return Catalog::FromEntries(entries, &error);
  }();
  return catalog;
}

TranslateResult TranslateRecord(const Record& r) {
  TranslateOptions options;
  options.catalog = &SeedCatalog();
  const std::string endpoint = !r.sandbox.empty() ? r.sandbox : r.endpoint;
  if (endpoint.empty()) {
    return Translate(r.sql, options);
  }
  // Parameters as the endpoint YAML declares them; timestamp and enum ones are STRING, as the
  // gateway binds them.
  const std::vector<std::string> names =
      endpoint == "logs.all"
          ? std::vector<std::string>{"project", "iso_timestamp_start", "iso_timestamp_end"}
          : std::vector<std::string>{"interval", "project"};
  for (const auto& name : names) {
    options.params[name] = Type::Scalar(TypeKind::kString);
  }
  if (!r.sandbox.empty()) {
    options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, r.sql};
  }
  return Translate(testing::ReadFileText(testing::SourcePath("sql/" + endpoint + ".sql")), options);
}

std::string RenderRow(const pqxx::row& row) {
  std::string line;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i > 0) {
      line += '\t';
    }
    line += row[static_cast<int>(i)].is_null() ? "NULL" : row[static_cast<int>(i)].c_str();
  }
  return line;
}

}  // namespace

std::vector<Record> ReadCorpus() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::SourcePath("tests/sqllogic"))) {
    if (entry.path().extension() == ".test") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Record> records;
  for (const auto& file : files) {
    ParseFile(file, records);
  }
  return records;
}

Outcome Execute(const Record& record, const std::string& dsn, const std::string& prefix) {
  Outcome outcome;
  const std::string source_text = !record.sql.empty() ? record.sql : record.endpoint;
  const auto translated = TranslateRecord(record);
  if (!translated.ok()) {
    outcome.error = RenderOneLine(translated.error(), source_text);
    return outcome;
  }
  outcome.pg_sql = translated.value().pg_sql;
  std::vector<std::string> values;
  std::vector<const char*> pointers;
  values.reserve(translated.value().params.size());
  for (const auto& p : translated.value().params) {
    const auto it = record.params.find(p.name);
    if (it == record.params.end()) {
      pointers.push_back(nullptr);
      continue;
    }
    std::string value = it->second;
    if (p.transform == ParamTransform::kRegexPattern) {
      const auto converted = ConvertRe2ToPosix(value);
      if (!converted.error.empty()) {
        outcome.error = "parameter " + p.name + ": " + converted.error;
        return outcome;
      }
      value = converted.pattern;
    }
    values.push_back(value);
    pointers.push_back(values.back().c_str());
  }
  try {
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    tx.exec("SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO'; SET LOCAL ROLE lqe_gateway");
    const auto result =
        tx.exec_params(prefix + outcome.pg_sql, pqxx::prepare::make_dynamic_params(pointers));
    for (const auto& row : result) {
      outcome.rows.push_back(RenderRow(row));
    }
    outcome.ok = true;
  } catch (const std::exception& e) {
    outcome.error = e.what();
  }
  return outcome;
}

Outcome Run(const Record& record, const std::string& dsn) {
  return Execute(record, dsn, "");
}

Outcome Explain(const Record& record, const std::string& dsn) {
  return Execute(record, dsn, "EXPLAIN (FORMAT JSON) ");
}

}  // namespace lqe::sqllogic
