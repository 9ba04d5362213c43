// The catalogue the promoted-field tests translate with, loaded as the gateway loads it.
#pragma once

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "lqe/catalog.h"
#include "support/test_database.h"

namespace lqe::testing {

// The seed catalogue, with the backfilled promoted columns of `dsn` when given (as the gateway
// loads it).
inline Catalog LoadCatalog(const std::string& dsn) {
  std::string error;
  std::vector<CatalogEntry> entries =
      Catalog::ParseTsv(ReadFileText(SourcePath("schema/catalogue_seed.tsv")), &error);
  if (!dsn.empty()) {
    pqxx::connection conn(dsn);
    pqxx::work tx(conn);
    for (const auto& row :
         tx.exec("SELECT source, path, column_name FROM logs.promoted_fields WHERE backfilled")) {
      for (auto& e : entries) {
        if (e.source == row[0].c_str() && e.path == row[1].c_str()) e.column = row[2].c_str();
      }
    }
  }
  return Catalog::FromEntries(entries, &error);
}

}  // namespace lqe::testing
