// Applies the declared rollups: creates and backfills new ones, rebuilds changed ones, drops the
// ones no longer declared. Each change is one transaction holding the source table in SHARE ROW
// EXCLUSIVE mode: inserts committed before it are in the backfill, inserts after it wait and then
// fire the new trigger, so no event is counted twice or missed.
#include "lqe/schema/rollups.h"

#include <map>
#include <pqxx/pqxx>
#include <set>

#include "lqe/schema/migrate.h"
#include "rollup_sql.h"

namespace lqe::schema {
namespace {

struct Registered {
  std::string source;
  std::string checksum;
};

std::map<std::string, Registered> ReadRegistry(pqxx::connection& conn) {
  pqxx::read_transaction tx(conn);
  std::map<std::string, Registered> out;
  for (const auto& row : tx.exec("SELECT name, source, checksum FROM logs.rollups")) {
    out[row[0].as<std::string>()] = {row[1].as<std::string>(), row[2].as<std::string>()};
  }
  return out;
}

std::string Checksum(pqxx::work& tx, const std::string& text) {
  return tx.exec_params1("SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex')", text)[0]
      .as<std::string>();
}

void LockSource(pqxx::work& tx, const std::string& source) {
  tx.exec("LOCK TABLE logs." + tx.quote_name(source) + " IN SHARE ROW EXCLUSIVE MODE");
}

void DropRollup(pqxx::work& tx, const std::string& name, const std::string& source) {
  const std::string table = "rollup_" + name;
  tx.exec("DROP TRIGGER IF EXISTS " + tx.quote_name(table) + " ON logs." + tx.quote_name(source));
  // Its mirror for rows routed to foreign partitions goes too, before the function it calls.
  tx.exec_params("SELECT logs.prepare_source_inserts($1)", source);
  tx.exec("DROP FUNCTION IF EXISTS logs." + tx.quote_name(table + "_add") + "()");
  tx.exec("DROP TABLE IF EXISTS logs." + tx.quote_name(table));
  tx.exec_params("DELETE FROM logs.field_catalogue WHERE source = $1", table);
  tx.exec_params("DELETE FROM logs.rollups WHERE name = $1", name);
}

bool TableExists(pqxx::work& tx, const std::string& table) {
  return !tx.exec_params1("SELECT to_regclass($1) IS NULL", "logs." + tx.quote_name(table))[0]
              .as<bool>();
}

void Build(pqxx::work& tx, const RollupDef& def, const RollupSql& sql, const std::string& checksum,
           const std::string& gateway_role) {
  tx.exec(sql.create);
  tx.exec(sql.function);
  tx.exec(sql.trigger);
  // On a sharded coordinator, rows routed to foreign partitions fire the trigger too.
  tx.exec_params("SELECT logs.prepare_source_inserts($1)", def.source);
  tx.exec(sql.backfill);
  tx.exec(sql.catalogue);
  tx.exec_params(
      "INSERT INTO logs.rollups (name, source, bucket, checksum, definition, backfill_sql) "
      "VALUES ($1, $2, $3, $4, $5, $6)",
      def.name, def.source, def.bucket, checksum, sql.Definition(), sql.backfill);
  const bool role_exists =
      tx.exec_params1("SELECT count(*) > 0 FROM pg_roles WHERE rolname = $1", gateway_role)[0]
          .as<bool>();
  if (role_exists) {
    tx.exec("GRANT SELECT ON logs." + tx.quote_name(sql.table) + " TO " +
            tx.quote_name(gateway_role));
  }
}

}  // namespace

RollupReport ApplyRollups(pqxx::connection& conn, const std::vector<RollupDef>& defs,
                          const std::string& gateway_role, const ProgressCallback& progress) {
  std::set<std::string> declared;
  {
    // Every definition is checked before anything changes.
    pqxx::work tx(conn);
    for (const RollupDef& def : defs) {
      if (!declared.insert(def.name).second) {
        throw SchemaError("rollup " + def.name + ": declared twice");
      }
      GenerateRollupSql(tx, def);
    }
  }
  const auto registry = ReadRegistry(conn);
  RollupReport report;
  for (const RollupDef& def : defs) {
    pqxx::work tx(conn);
    const auto old = registry.find(def.name);
    LockSource(tx, def.source);
    if (old != registry.end() && old->second.source != def.source) {
      LockSource(tx, old->second.source);
    }
    const RollupSql sql = GenerateRollupSql(tx, def);
    const std::string checksum = Checksum(tx, sql.Definition());
    if (old != registry.end() && old->second.checksum == checksum && TableExists(tx, sql.table)) {
      report.unchanged.push_back(def.name);
      continue;  // the transaction rolls back: nothing to do
    }
    if (old != registry.end()) DropRollup(tx, def.name, old->second.source);
    // A table left by hand under the rollup's name is not the rollup: refuse to replace it.
    if (TableExists(tx, sql.table)) {
      throw SchemaError("rollup " + def.name + ": logs." + sql.table +
                        " exists but is not registered in logs.rollups; drop it first");
    }
    if (progress) {
      progress({old == registry.end() ? "building rollup" : "rebuilding rollup", def.name,
                report.created.size() + report.rebuilt.size() + report.unchanged.size(),
                defs.size()});
    }
    Build(tx, def, sql, checksum, gateway_role);
    tx.commit();
    (old == registry.end() ? report.created : report.rebuilt).push_back(def.name);
  }
  for (const auto& [name, old] : registry) {
    if (declared.contains(name)) continue;
    pqxx::work tx(conn);
    LockSource(tx, old.source);
    DropRollup(tx, name, old.source);
    tx.commit();
    report.dropped.push_back(name);
  }
  return report;
}

}  // namespace lqe::schema
