#include "lqe/schema/shards.h"

#include <libpq-fe.h>

#include <map>
#include <pqxx/pqxx>
#include <stdexcept>

namespace lqe::schema {
namespace {

std::string Quote(pqxx::transaction_base& tx, const std::string& value) {
  std::string out = "'";
  out += tx.esc(value);
  out += '\'';
  return out;
}

// host, port, dbname, user, password of a libpq DSN (those that are set).
std::map<std::string, std::string> DsnParts(const std::string& dsn) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(dsn.c_str(), &error);
  if (options == nullptr) {
    std::string message = error != nullptr ? error : "unparsable DSN";
    PQfreemem(error);
    throw std::runtime_error("shard DSN: " + message);
  }
  std::map<std::string, std::string> out;
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    std::string key = o->keyword;
    if (o->val == nullptr || *o->val == '\0') continue;
    if (key == "host" || key == "port" || key == "dbname" || key == "user" || key == "password") {
      out[key] = o->val;
    }
  }
  PQconninfoFree(options);
  return out;
}

void EnsureServer(pqxx::work& tx, const ShardNodeTarget& node, int fetch_size) {
  auto parts = DsnParts(node.dsn);
  std::string server_options;
  for (const char* key : {"host", "port", "dbname"}) {
    if (auto it = parts.find(key); it != parts.end()) {
      server_options +=
          std::string(server_options.empty() ? "" : ", ") + key + " " + Quote(tx, it->second);
    }
  }
  bool exists =
      !tx.exec_params("SELECT 1 FROM pg_foreign_server WHERE srvname = $1", node.name).empty();
  if (!exists) {
    // async_capable: an Append over several nodes' partitions scans them in parallel.
    // batch_size: the rows of a moved day are copied in batches, not one round trip each.
    // fetch_size: rows per round trip of a scan (see ShardPlan::fetch_size).
    std::string extra = std::string(server_options.empty() ? "" : ", ") +
                        "async_capable 'true', batch_size '1000', fetch_size '" +
                        std::to_string(fetch_size) + "'";
    tx.exec("CREATE SERVER " + tx.quote_name(node.name) +
            " FOREIGN DATA WRAPPER postgres_fdw OPTIONS (" + server_options + extra + ")");
  } else {
    std::string set;
    parts["fetch_size"] = std::to_string(fetch_size);
    for (const char* key : {"host", "port", "dbname", "fetch_size"}) {
      if (auto it = parts.find(key); it != parts.end()) {
        bool has = !tx.exec_params(
                          "SELECT 1 FROM pg_foreign_server, unnest(srvoptions) o "
                          "WHERE srvname = $1 AND o LIKE $2",
                          node.name, std::string(key) + "=%")
                        .empty();
        set += std::string(set.empty() ? "" : ", ") + (has ? "SET " : "ADD ") + key + " " +
               Quote(tx, it->second);
      }
    }
    if (!set.empty()) {
      tx.exec("ALTER SERVER " + tx.quote_name(node.name) + " OPTIONS (" + set + ")");
    }
  }
  // One mapping for every local role (the gateway role reads through it). Without a password
  // in the DSN the node must trust the coordinator, which only a superuser may declare.
  std::string mapping = "user " + Quote(tx, parts.count("user") ? parts["user"] : "postgres");
  if (parts.count("password")) {
    mapping += ", password " + Quote(tx, parts["password"]);
  } else {
    mapping += ", password_required 'false'";
  }
  tx.exec("DROP USER MAPPING IF EXISTS FOR PUBLIC SERVER " + tx.quote_name(node.name));
  tx.exec("CREATE USER MAPPING FOR PUBLIC SERVER " + tx.quote_name(node.name) + " OPTIONS (" +
          mapping + ")");
}

// A unique index of a partitioned table forbids foreign partitions: keep one per local
// partition instead (logs.ensure_partition adds it to partitions created later).
void MoveUniqueIndexesToPartitions(pqxx::work& tx) {
  auto parents = tx.exec(
      "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "WHERE n.nspname = 'logs' AND c.relkind = 'p' AND NOT c.relispartition ORDER BY 1");
  for (const auto& parent : parents) {
    std::string source = parent[0].as<std::string>();
    auto parts = tx.exec_params(
        "SELECT child.relname FROM pg_inherits i JOIN pg_class child ON child.oid = i.inhrelid "
        "WHERE i.inhparent = ('logs.' || quote_ident($1))::regclass AND child.relkind = 'r' "
        "AND to_regclass('logs.' || quote_ident(child.relname || '_id_ts')) IS NULL",
        source);
    bool parent_index =
        !tx.exec_params("SELECT to_regclass('logs.' || quote_ident($1 || '_id_ts'))", source)[0][0]
             .is_null();
    if (!parent_index) continue;
    for (const auto& part : parts) {
      std::string name = part[0].as<std::string>();
      tx.exec("CREATE UNIQUE INDEX IF NOT EXISTS " + tx.quote_name(name + "_id_ts") + " ON logs." +
              tx.quote_name(name) + " (id, \"timestamp\")");
    }
    tx.exec("DROP INDEX logs." + tx.quote_name(source + "_id_ts"));
  }
}

struct LocalDay {
  std::string source;
  std::string partition;
  std::string day;  // YYYY-MM-DD
  int days_since_epoch = 0;
};

std::vector<LocalDay> ColdLocalPartitions(pqxx::connection& conn, int hot_days) {
  pqxx::work tx(conn);
  std::vector<LocalDay> out;
  auto rows = tx.exec_params(
      "SELECT parent.relname, child.relname, d::text, (d - date '1970-01-01')::int "
      "FROM pg_inherits i JOIN pg_class child ON child.oid = i.inhrelid "
      "JOIN pg_class parent ON parent.oid = i.inhparent "
      "JOIN pg_namespace n ON n.oid = parent.relnamespace, "
      "LATERAL (SELECT to_date(right(child.relname, 8), 'YYYYMMDD') AS d) day "
      "WHERE n.nspname = 'logs' AND parent.relkind = 'p' AND child.relkind = 'r' "
      "AND child.relname ~ ('^' || parent.relname || '_p[0-9]{8}$') "
      "AND d < (now() AT TIME ZONE 'UTC')::date - $1::int ORDER BY 1, 2",
      hot_days);
  for (const auto& r : rows) {
    out.push_back(
        {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<int>()});
  }
  return out;
}

// The partition's columns as DDL (generated columns stay generated on the coordinator side).
// Defaults are kept: a row routed to a foreign partition without a column is sent with the
// foreign table's default, else with NULL.
std::string ColumnsDdl(pqxx::work& tx, const std::string& partition, bool keep_generated) {
  auto rows = tx.exec_params(
      "SELECT quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod) || "
      "CASE WHEN a.attgenerated = 's' AND $2 THEN ' GENERATED ALWAYS AS (' || "
      "pg_get_expr(d.adbin, d.adrelid) || ') STORED' ELSE '' END || "
      "CASE WHEN a.attgenerated = '' AND d.adbin IS NOT NULL THEN ' DEFAULT ' || "
      "pg_get_expr(d.adbin, d.adrelid) ELSE '' END || "
      "CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END "
      "FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
      "WHERE a.attrelid = ('logs.' || quote_ident($1))::regclass AND a.attnum > 0 "
      "AND NOT a.attisdropped ORDER BY a.attnum",
      partition, keep_generated);
  std::string out;
  for (const auto& r : rows) out += (out.empty() ? "" : ", ") + r[0].as<std::string>();
  return out;
}

// The columns a row is written with (generated ones are computed, not copied).
std::string StoredColumnNames(pqxx::work& tx, const std::string& partition) {
  auto rows = tx.exec_params(
      "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute "
      "WHERE attrelid = ('logs.' || quote_ident($1))::regclass AND attnum > 0 "
      "AND NOT attisdropped AND attgenerated = ''",
      partition);
  return rows[0][0].as<std::string>();
}

// What a day partition is made of, read from the coordinator before it moves.
struct DayShape {
  std::string stored_columns;   // the columns a row is written with
  std::string plain_columns;    // DDL for a node's table (generated columns plain)
  std::string foreign_columns;  // DDL for the coordinator's side (generated stay generated)
  std::vector<std::string> indexes;
};

DayShape ReadDayShape(pqxx::connection& coordinator, const std::string& partition) {
  DayShape shape;
  pqxx::work tx(coordinator);
  shape.stored_columns = StoredColumnNames(tx, partition);
  shape.plain_columns = ColumnsDdl(tx, partition, false);
  shape.foreign_columns = ColumnsDdl(tx, partition, true);
  for (const auto& r : tx.exec_params("SELECT pg_get_indexdef(indexrelid) FROM pg_index "
                                      "WHERE indrelid = ('logs.' || quote_ident($1))::regclass",
                                      partition)) {
    shape.indexes.push_back(r[0].as<std::string>());
  }
  return shape;
}

// The node's table `table` for the day `partition`: same columns and indexes, emptied, so a
// move that failed half way can run again. Index definitions name the coordinator's partition
// and index; on the node they are renamed after the node's table.
void PrepareNodeTable(const ShardNodeTarget& node, const DayShape& shape,
                      const std::string& partition, const std::string& table) {
  pqxx::connection remote(node.dsn);
  pqxx::work tx(remote);
  tx.exec("CREATE SCHEMA IF NOT EXISTS logs");
  tx.exec("CREATE TABLE IF NOT EXISTS logs." + tx.quote_name(table) + " (" + shape.plain_columns +
          ")");
  tx.exec("TRUNCATE logs." + tx.quote_name(table));
  for (const auto& index : shape.indexes) {
    // Promoted-field indexes read through bq.* functions, which the node does not have and
    // postgres_fdw would never ship to it (it pushes down built-in functions only).
    if (index.find("bq.") != std::string::npos) continue;
    std::string ddl = index;
    const auto name_at = ddl.find("INDEX ");
    const auto on_at = ddl.find(" ON logs." + partition + " ");
    if (name_at == std::string::npos || on_at == std::string::npos) continue;
    std::string name = ddl.substr(name_at + 6, on_at - name_at - 6);
    if (table != partition) name += table.substr(partition.size());
    ddl = ddl.substr(0, name_at) + "INDEX IF NOT EXISTS " + tx.quote_name(name) + " ON logs." +
          tx.quote_name(table) + " " + ddl.substr(on_at + partition.size() + 10);
    tx.exec(ddl);
  }
  tx.commit();
}

// Every log table's foreign partitions take inserts with its rollups exact (007_shards.sql); for
// days moved before that migration.
void PrepareRoutedInserts(pqxx::work& tx) {
  tx.exec(
      "SELECT logs.prepare_source_inserts(c.relname) FROM pg_class c JOIN pg_namespace n ON "
      "n.oid = c.relnamespace WHERE n.nspname = 'logs' AND c.relkind = 'p' AND NOT "
      "c.relispartition");
}

// In the coordinator transaction: fills `staged` (already created) from the local partition,
// puts it in the partition's place for the day's range, then (after commit) analyzes it.
void SwapInForDay(pqxx::connection& coordinator, pqxx::work& tx, const LocalDay& day,
                  const DayShape& shape, const std::string& staged) {
  tx.exec("INSERT INTO logs." + tx.quote_name(staged) + " (" + shape.stored_columns + ") SELECT " +
          shape.stored_columns + " FROM logs." + tx.quote_name(day.partition));
  tx.exec("ALTER TABLE logs." + tx.quote_name(day.source) + " DETACH PARTITION logs." +
          tx.quote_name(day.partition));
  tx.exec("DROP TABLE logs." + tx.quote_name(day.partition));
  tx.exec("ALTER TABLE logs." + tx.quote_name(staged) + " RENAME TO " +
          tx.quote_name(day.partition));
  std::string from = Quote(tx, day.day + " 00:00:00+00");
  std::string upper =
      tx.exec("SELECT (" + Quote(tx, day.day) + "::date + 1)::text || ' 00:00:00+00'")[0][0]
          .as<std::string>();
  tx.exec("ALTER TABLE logs." + tx.quote_name(day.source) + " ATTACH PARTITION logs." +
          tx.quote_name(day.partition) + " FOR VALUES FROM (" + from + ") TO (" + Quote(tx, upper) +
          ")");
  // Late events for the day keep its source's rollups exact (007_shards.sql).
  tx.exec_params("SELECT logs.prepare_source_inserts($1)", day.source);
  tx.commit();
  // The planner's row estimates for foreign partitions come from a sample of the node.
  pqxx::nontransaction analyze(coordinator);
  analyze.exec("ANALYZE logs." + analyze.quote_name(day.partition));
}

void MoveDay(pqxx::connection& coordinator, const LocalDay& day, const ShardNodeTarget& node) {
  const DayShape shape = ReadDayShape(coordinator, day.partition);
  PrepareNodeTable(node, shape, day.partition, day.partition);
  pqxx::work tx(coordinator);
  std::string staged = day.partition + "_fdw";
  tx.exec("CREATE FOREIGN TABLE logs." + tx.quote_name(staged) + " (" + shape.foreign_columns +
          ") SERVER " + tx.quote_name(node.name) + " OPTIONS (schema_name 'logs', table_name " +
          Quote(tx, day.partition) + ")");
  SwapInForDay(coordinator, tx, day, shape, staged);
}

// By project: node i holds the day's rows whose project hashes to remainder i.
void SplitDayOverNodes(pqxx::connection& coordinator, const LocalDay& day,
                       const std::vector<ShardNodeTarget>& nodes) {
  const DayShape shape = ReadDayShape(coordinator, day.partition);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    PrepareNodeTable(nodes[i], shape, day.partition, day.partition + "_h" + std::to_string(i));
  }
  pqxx::work tx(coordinator);
  std::string staged = day.partition + "_hash";
  tx.exec("CREATE TABLE logs." + tx.quote_name(staged) + " (" + shape.foreign_columns +
          ") PARTITION BY HASH (" + ProjectKeyOf(day.source) + ")");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    std::string table = day.partition + "_h" + std::to_string(i);
    tx.exec("CREATE FOREIGN TABLE logs." + tx.quote_name(table) + " PARTITION OF logs." +
            tx.quote_name(staged) + " FOR VALUES WITH (MODULUS " + std::to_string(nodes.size()) +
            ", REMAINDER " + std::to_string(i) + ") SERVER " + tx.quote_name(nodes[i].name) +
            " OPTIONS (schema_name 'logs', table_name " + Quote(tx, table) + ")");
  }
  SwapInForDay(coordinator, tx, day, shape, staged);
  pqxx::nontransaction analyze(coordinator);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    analyze.exec("ANALYZE logs." + analyze.quote_name(day.partition + "_h" + std::to_string(i)));
  }
}

}  // namespace

std::size_t ShardIndexForDay(int days_since_epoch, std::size_t nodes) {
  if (nodes == 0) return 0;
  auto day = static_cast<std::size_t>(days_since_epoch < 0 ? -days_since_epoch : days_since_epoch);
  return day % nodes;
}

std::string ProjectKeyOf(const std::string& source) {
  if (source == "function_edge" || source == "function_events") {
    return "(metadata ->> 'project_ref')";
  }
  if (source == "realtime" || source == "storage" || source == "supavisor") {
    return "(metadata ->> 'project')";
  }
  return "project";
}

ShardReport ApplyShards(pqxx::connection& coordinator, const ShardPlan& plan,
                        const ProgressCallback& progress) {
  ShardReport report;
  if (plan.nodes.empty()) return report;
  {
    pqxx::work tx(coordinator);
    tx.exec("CREATE EXTENSION IF NOT EXISTS postgres_fdw");
    for (const auto& node : plan.nodes) {
      EnsureServer(tx, node, plan.fetch_size);
      report.servers.push_back(node.name);
    }
    MoveUniqueIndexesToPartitions(tx);
    PrepareRoutedInserts(tx);
    // Partitionwise aggregation stays off (earlier runs set it on): PostgreSQL 15 sends no
    // partial aggregate to a node, and an Append of per-partition partial aggregates has no
    // run-time pruning and no async scans, so a chart or count bounded by the gateway's (stable)
    // time range read every day of every node (a one-day count: 5.1 s instead of 0.58 s).
    tx.exec("ALTER DATABASE " + tx.quote_name(coordinator.dbname()) +
            " RESET enable_partitionwise_aggregate");
    tx.commit();
  }
  const auto cold = ColdLocalPartitions(coordinator, plan.hot_days);
  for (const auto& day : cold) {
    if (progress) {
      progress({"moving partitions to shards", day.partition, report.moved.size(), cold.size()});
    }
    if (plan.by_project) {
      SplitDayOverNodes(coordinator, day, plan.nodes);
      std::string names;
      for (const auto& node : plan.nodes) names += (names.empty() ? "" : ", ") + node.name;
      report.moved.push_back(day.partition + " -> " + names);
      continue;
    }
    const auto& node = plan.nodes[ShardIndexForDay(day.days_since_epoch, plan.nodes.size())];
    MoveDay(coordinator, day, node);
    report.moved.push_back(day.partition + " -> " + node.name);
  }
  return report;
}

std::vector<std::string> DropShardTablesOlderThan(const ShardPlan& plan, int days) {
  std::vector<std::string> dropped;
  for (const auto& node : plan.nodes) {
    pqxx::connection remote(node.dsn);
    pqxx::work tx(remote);
    auto rows = tx.exec_params(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'logs' AND c.relkind = 'r' AND c.relname ~ '_p[0-9]{8}(_h[0-9]+)?$' "
        "AND to_date(substring(c.relname FROM '_p([0-9]{8})(_h[0-9]+)?$'), 'YYYYMMDD') < "
        "(now() AT TIME ZONE 'UTC')::date - $1::int "
        "ORDER BY 1",
        days);
    for (const auto& r : rows) {
      std::string name = r[0].as<std::string>();
      tx.exec("DROP TABLE logs." + tx.quote_name(name));
      dropped.push_back(node.name + ": " + name);
    }
    tx.commit();
  }
  return dropped;
}

}  // namespace lqe::schema
