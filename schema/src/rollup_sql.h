// The SQL of one declared rollup, generated from its definition and the field catalogue.
#pragma once

#include <pqxx/transaction>
#include <string>

#include "lqe/schema/rollups.h"

namespace lqe::schema {

struct RollupSql {
  std::string table;      // "rollup_<name>" in schema logs
  std::string create;     // table, its key, comments
  std::string function;   // the trigger function (SECURITY DEFINER, fixed search_path)
  std::string trigger;    // the statement trigger on logs.<source>
  std::string backfill;   // inserts the aggregate of every stored row
  std::string catalogue;  // inserts the table's columns into logs.field_catalogue
  std::string Definition() const {
    return create + function + trigger + backfill + ";\n" + catalogue + ";\n";
  }
};

// Types every field from logs.field_catalogue and reads it as the translator does. Throws
// SchemaError "rollup NAME: ..." for a field that is missing or of an unusable type.
RollupSql GenerateRollupSql(pqxx::work& tx, const RollupDef& def);

}  // namespace lqe::schema
