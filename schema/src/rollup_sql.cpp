// Generates a rollup's table, trigger and backfill. Every field is read by the expression the
// translator emits for it, so a rollup groups and
// counts exactly the values a raw query over the same fields sees.
#include "rollup_sql.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <pqxx/pqxx>

#include "lqe/schema/migrate.h"

namespace lqe::schema {
namespace {

struct Field {
  std::string type;  // catalogue type
  std::string read;  // SQL over the row's columns
};

[[noreturn]] void Refuse(const RollupDef& def, const std::string& message) {
  throw SchemaError("rollup " + def.name + ": " + message);
}

// The translator's read of a catalogued scalar in a record stored as an object:
// metadata.a.b of type INT64 is bq.json_int64(((metadata -> 'a') ->> 'b')), as
// logs.field_read_expression's logs.field_read_expression built it (023 narrowed that one to
// promotable fields).
std::string ReadExpression(pqxx::work& tx, const std::string& path, const std::string& type) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (parts.size() == 1) return tx.quote_name(path);
  std::string expr = tx.quote_name(parts[0]);
  for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
    expr.insert(0, "(").append(" -> ").append(tx.quote(parts[i])).append(")");
  }
  expr = "(" + expr + " ->> " + tx.quote(parts.back()) + ")";
  if (type == "INT64") return "bq.json_int64(" + expr + ")";
  if (type == "FLOAT64") return "bq.json_float64(" + expr + ")";
  if (type == "BOOL") return "bq.safe_cast_bool(" + expr + ")";
  return expr;
}

Field ResolveField(pqxx::work& tx, const RollupDef& def, const std::string& what,
                   const std::string& path) {
  const auto row = tx.exec_params(
      "SELECT bq_type, mode FROM logs.field_catalogue WHERE source = $1 AND path = $2", def.source,
      path);
  if (row.empty()) {
    Refuse(def, what + ": field '" + path + "' is not in the catalogue of " + def.source);
  }
  Field f{row[0][0].as<std::string>(), ""};
  if (row[0][1].as<std::string>() != "NULLABLE") {
    Refuse(def, what + ": field '" + path + "' is REPEATED; only a single value can be rolled up");
  }
  if (f.type != "STRING" && f.type != "INT64" && f.type != "FLOAT64" && f.type != "BOOL") {
    Refuse(def, what + ": field '" + path + "' is typed " + f.type +
                    ", not STRING, INT64, FLOAT64 or BOOL");
  }
  f.read = ReadExpression(tx, path, f.type);
  return f;
}

std::string PgType(const std::string& bq_type) {
  if (bq_type == "INT64") return "bigint";
  if (bq_type == "FLOAT64") return "double precision";
  if (bq_type == "BOOL") return "boolean";
  return "text";
}

// The predicate's value as a SQL literal of the field's type.
std::string Literal(pqxx::work& tx, const RollupDef& def, const std::string& what,
                    const std::string& type, const std::string& value) {
  const char* begin = value.data();
  const char* end = value.data() + value.size();
  if (type == "INT64") {
    long long n = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, n);
    if (ec != std::errc() || ptr != end) {
      Refuse(def, what + ": value '" + value + "' is not an INT64");
    }
    return std::to_string(n);
  }
  if (type == "FLOAT64") {
    double d = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, d);
    if (ec != std::errc() || ptr != end || !std::isfinite(d)) {
      Refuse(def, what + ": value '" + value + "' is not a finite FLOAT64");
    }
    return tx.quote(value) + "::double precision";
  }
  if (type == "BOOL") {
    if (value != "true" && value != "false") {
      Refuse(def, what + ": value '" + value + "' is not a BOOL (true or false)");
    }
    return value;
  }
  return tx.quote(value);
}

struct Column {
  std::string name;
  std::string pg_type;
  std::string bq_type;
  std::string aggregate;  // SQL over the inserted rows
  std::string merge;      // SET clause adding excluded into a (measures only)
};

Column MeasureColumn(pqxx::work& tx, const RollupDef& def, const RollupMeasure& m) {
  const std::string what = "measure " + m.name;
  const std::string col = tx.quote_name(m.name);
  switch (m.agg) {
    case RollupAgg::kCount:
      return {m.name, "bigint NOT NULL", "INT64", "count(*)",
              col + " = a." + col + " + excluded." + col};
    case RollupAgg::kCountIf: {
      const Field f = ResolveField(tx, def, what, m.where.field);
      std::string condition;
      if (m.where.op == "is_null" || m.where.op == "is_not_null") {
        condition = f.read + (m.where.op == "is_null" ? " IS NULL" : " IS NOT NULL");
      } else {
        condition = f.read + " " + (m.where.op == "!=" ? "<>" : m.where.op) + " " +
                    Literal(tx, def, what, f.type, m.where.value);
      }
      return {m.name, "bigint NOT NULL", "INT64", "count(*) FILTER (WHERE " + condition + ")",
              col + " = a." + col + " + excluded." + col};
    }
    case RollupAgg::kSum: {
      const Field f = ResolveField(tx, def, what, m.field);
      if (f.type != "INT64") {
        Refuse(def, what + ": sum needs an INT64 field, '" + m.field + "' is " + f.type +
                        " (a FLOAT64 sum depends on the order of addition; use min or max)");
      }
      // numeric: an exact sum that cannot overflow and fail an insert.
      return {m.name, "numeric", "INT64", "sum(" + f.read + ")",
              col + " = CASE WHEN a." + col + " IS NULL THEN excluded." + col + " WHEN excluded." +
                  col + " IS NULL THEN a." + col + " ELSE a." + col + " + excluded." + col +
                  " END"};
    }
    case RollupAgg::kMin:
    case RollupAgg::kMax: {
      const Field f = ResolveField(tx, def, what, m.field);
      if (f.type != "INT64" && f.type != "FLOAT64") {
        Refuse(def, what + ": min and max need an INT64 or FLOAT64 field, '" + m.field + "' is " +
                        f.type);
      }
      const bool is_min = m.agg == RollupAgg::kMin;
      // greatest/least ignore NULLs, as min/max do.
      return {
          m.name, PgType(f.type), f.type, std::string(is_min ? "min(" : "max(") + f.read + ")",
          col + " = " + (is_min ? "least" : "greatest") + "(a." + col + ", excluded." + col + ")"};
    }
  }
  Refuse(def, what + ": unknown aggregate");
}

// The column's description, for \d+ in psql.
std::string Describe(const RollupMeasure& m) {
  switch (m.agg) {
    case RollupAgg::kCount:
      return "Events in the bucket.";
    case RollupAgg::kCountIf:
      return "Events in the bucket where " + m.where.field + " " + m.where.op +
             (m.where.value.empty() ? "" : " " + m.where.value) + ".";
    case RollupAgg::kSum:
      return "Sum of " + m.field + " (NULL when no event has one).";
    case RollupAgg::kMin:
      return "Smallest " + m.field + ".";
    case RollupAgg::kMax:
      return "Largest " + m.field + ".";
  }
  return "";
}

std::string Join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

}  // namespace

RollupSql GenerateRollupSql(pqxx::work& tx, const RollupDef& def) {
  CheckRollupShape(def);
  RollupSql sql;
  sql.table = "rollup_" + def.name;
  const std::string table = "logs." + tx.quote_name(sql.table);
  const std::string bucket = "date_trunc(" + tx.quote(def.bucket) + ", \"timestamp\", 'UTC')";

  std::vector<std::string> definitions = {"\"timestamp\" timestamptz NOT NULL"};
  std::vector<std::string> keys = {"\"timestamp\""};
  std::vector<std::string> selects = {bucket};
  std::vector<std::string> merges;
  std::vector<std::string> catalogue = {"('timestamp', 'TIMESTAMP')"};
  std::string comments = "COMMENT ON COLUMN " + table + ".\"timestamp\" IS " +
                         tx.quote("Start of the UTC " + def.bucket + ".") + ";\n";
  auto comment = [&](const std::string& column, const std::string& text) {
    comments += "COMMENT ON COLUMN " + table + "." + tx.quote_name(column) + " IS " +
                tx.quote(text) + ";\n";
  };
  for (const RollupDimension& d : def.dimensions) {
    const Field f = ResolveField(tx, def, "dimension " + d.name, d.field);
    definitions.push_back(tx.quote_name(d.name) + " " + PgType(f.type));
    keys.push_back(tx.quote_name(d.name));
    selects.push_back(f.read);
    catalogue.push_back("(" + tx.quote(d.name) + ", " + tx.quote(f.type) + ")");
    comment(d.name, "Dimension: " + d.field + " of logs." + def.source + ".");
  }
  std::vector<std::string> group_by;
  for (std::size_t i = 1; i <= keys.size(); ++i) group_by.push_back(std::to_string(i));
  for (const RollupMeasure& m : def.measures) {
    const Column c = MeasureColumn(tx, def, m);
    definitions.push_back(tx.quote_name(c.name) + " " + c.pg_type);
    selects.push_back(c.aggregate);
    merges.push_back(c.merge);
    catalogue.push_back("(" + tx.quote(c.name) + ", " + tx.quote(c.bq_type) + ")");
    comment(c.name, Describe(m));
  }
  const std::string aggregate =
      "SELECT " + Join(selects, ", ") + " FROM %s GROUP BY " + Join(group_by, ", ");
  auto from = [&](const std::string& relation) {
    std::string s = aggregate;
    s.replace(s.find("%s"), 2, relation);
    return s;
  };

  sql.create = "CREATE TABLE " + table + " (" + Join(definitions, ", ") + ");\n" +
               "CREATE UNIQUE INDEX " + tx.quote_name(sql.table + "_key") + " ON " + table + " (" +
               Join(keys, ", ") + ") NULLS NOT DISTINCT;\n" + "COMMENT ON TABLE " + table + " IS " +
               tx.quote("Declared rollup " + def.name + " of logs." + def.source + " per UTC " +
                        def.bucket + " (lqe migrate --config); see logs.rollups.") +
               ";\n" + comments;
  sql.function = "CREATE FUNCTION logs." + tx.quote_name(sql.table + "_add") +
                 "() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
                 "SET search_path = pg_catalog, pg_temp AS $fn$\nBEGIN\n"
                 // Sorted, so concurrent writers lock the rollup's rows in one order.
                 "  INSERT INTO " +
                 table + " AS a SELECT * FROM (" + from("new_rows") + ") s ORDER BY " +
                 Join(group_by, ", ") + "\n  ON CONFLICT (" + Join(keys, ", ") +
                 ") DO UPDATE SET " + Join(merges, ", ") + ";\n  RETURN NULL;\nEND\n$fn$;\n";
  sql.trigger = "CREATE TRIGGER " + tx.quote_name(sql.table) + " AFTER INSERT ON logs." +
                tx.quote_name(def.source) +
                " REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION logs." +
                tx.quote_name(sql.table + "_add") + "();\n";
  sql.backfill = "INSERT INTO " + table + " " + from("logs." + tx.quote_name(def.source));
  sql.catalogue = "INSERT INTO logs.field_catalogue (source, path, bq_type) SELECT " +
                  tx.quote(sql.table) + ", c.path, c.bq_type FROM (VALUES " +
                  Join(catalogue, ", ") + ") AS c(path, bq_type)";
  return sql;
}

}  // namespace lqe::schema
