#include "test_ctes.h"

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "lqe/catalog.h"
#include "support/test_database.h"

namespace lqe::testing {
namespace {

const Catalog& SeedCatalog() {
  static const Catalog catalog = [] {
    std::ifstream in(SourcePath("schema/catalogue_seed.tsv"));
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    auto entries = Catalog::ParseTsv(text.str(), &error);
    if (!error.empty()) {
      throw std::runtime_error(error);
    }
    auto built = Catalog::FromEntries(entries, &error);
    if (!error.empty()) {
      throw std::runtime_error(error);
    }
    return built;
  }();
  return catalog;
}

const std::vector<std::pair<std::string, std::string>>& CteSources() {
  static const std::vector<std::pair<std::string, std::string>> sources = {
      {"edge_logs", "edge"},
      {"postgres_logs", "postgres"},
      {"function_edge_logs", "function_edge"},
      {"function_logs", "function_events"},
      {"auth_logs", "auth"},
      {"realtime_logs", "realtime"},
      {"storage_logs", "storage"},
      {"restapi_logs", "restapi"},
      {"pooler_logs", "pooler"},
      {"postgrest_logs", "restapi"},
      {"pgbouncer_logs", "pooler"},
  };
  return sources;
}

lql::CteInfo CteFor(const std::string& name, const std::string& source) {
  const SourceSchema* schema = SeedCatalog().FindSource(source);
  if (!schema) {
    throw std::runtime_error("no source " + source);
  }
  std::vector<StructField> fields;
  for (const char* column : {"timestamp", "id", "event_message", "metadata"}) {
    const StructField* f = schema->row->FindField(column);
    if (!f) {
      throw std::runtime_error(std::string("no column ") + column + " in " + source);
    }
    fields.push_back(*f);
  }
  return {name, Type::Record(std::move(fields))};
}

}  // namespace

std::vector<lql::CteInfo> LogsAllCtes() {
  std::vector<lql::CteInfo> out;
  for (const auto& [name, source] : CteSources()) {
    out.push_back(CteFor(name, source));
  }
  return out;
}

std::vector<lql::CteInfo> CtesNamed(const std::string& names) {
  std::vector<lql::CteInfo> out;
  std::stringstream in(names);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) {
      continue;
    }
    if (name == "errors") {
      out.push_back({"errors", Type::Record({{"a", Type::Scalar(TypeKind::kString)},
                                             {"n", Type::Scalar(TypeKind::kInt64)}})});
      continue;
    }
    if (name == "typed") {
      out.push_back({"typed", Type::Record({{"timestamp", Type::Scalar(TypeKind::kTimestamp)},
                                            {"seen", Type::Scalar(TypeKind::kTimestamp)},
                                            {"d", Type::Scalar(TypeKind::kDate)},
                                            {"n", Type::Scalar(TypeKind::kNumeric)}})});
      continue;
    }
    bool found = false;
    for (const auto& [cte, source] : CteSources()) {
      if (cte == name) {
        out.push_back(CteFor(cte, source));
        found = true;
      }
    }
    if (!found) {
      throw std::runtime_error("unknown test CTE " + name);
    }
  }
  return out;
}

}  // namespace lqe::testing
